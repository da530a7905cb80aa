package io.isowatch.gen;

import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.Objects;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * What {@link RegisterGenerator} promises, checked independently of it: the replay below keeps
 * its own map of registers and shares no code with the generator.
 */
class RegisterGeneratorTest {

    private static final GeneratorOptions FAULTY = GeneratorOptions.defaults()
            .toBuilder().txnCount(10_000).faultRates(0.1, 0.05).seed(42).build();

    @Test
    void generate_sameSeed_yieldsIdenticalHistory() {
        GeneratedHistory.assertSameSeedSameHistory(RegisterGenerator::generate, FAULTY.toBuilder().txnCount(2_000)
                .build());
    }

    @Test
    void generate_otherSeed_yieldsOtherHistory() {
        GeneratedHistory.assertOtherSeedOtherHistory(RegisterGenerator::generate, FAULTY.toBuilder().txnCount(2_000)
                .build());
    }

    @Test
    void iterator_streamsTheSameEventsAsGenerate() {
        GeneratorOptions options = FAULTY.toBuilder().txnCount(500).staleReadRate(0.1).build();
        List<Op> streamed = new ArrayList<>();
        new RegisterGenerator(options).forEachRemaining(streamed::add);
        assertEquals(RegisterGenerator.generate(options), streamed);
    }

    @Test
    void history_isWellFormed_pairedAndDenseWithIncreasingTimes() {
        Generated.of(FAULTY).assertWellFormed();
        Generated.of(GeneratorOptions.defaults().toBuilder().txnCount(10_000).seed(7).build()).assertWellFormed();
        Generated.of(FAULTY.toBuilder().staleReadRate(0.2).seed(8).build()).assertWellFormed();
    }

    @Test
    void okReads_matchSerialReplayInLinearizationOrder() {
        Generated.of(FAULTY).assertSerialReplay(false);
        Generated.of(FAULTY.toBuilder().keyDistribution(KeyDistribution.UNIFORM).keyCount(3)
                .txnLength(1, 8).maxWritesPerKey(5).seed(9).build()).assertSerialReplay(false);
    }

    @Test
    void okReads_seeEarlierWritesOfTheSameTxn_andNilBeforeAnyWrite() {
        Generated generated = Generated.of(GeneratorOptions.defaults().toBuilder().txnCount(5_000)
                .keyCount(1).txnLength(4, 4).seed(3).build());
        int ownWritesSeen = 0;
        int nilsSeen = 0;
        for (Op op : generated.history()) {
            if (op.type() != OpType.OK) {
                continue;
            }
            Map<Long, Long> ownWrite = new HashMap<>();
            for (MicroOp m : op.value()) {
                if (m instanceof MicroOp.Write w) {
                    ownWrite.put(w.key(), w.value());
                } else if (ownWrite.containsKey(m.key())) {
                    assertEquals(ownWrite.get(m.key()), valueOf((MicroOp.Read) m), () -> "own write not read in " + op);
                    ownWritesSeen++;
                } else if (valueOf((MicroOp.Read) m) == null) {
                    nilsSeen++;
                }
            }
        }
        assertTrue(ownWritesSeen > 100, "reads after an own write: " + ownWritesSeen);
        assertTrue(nilsSeen > 0, "reads of a fresh register: " + nilsSeen);
    }

    @Test
    void writeValues_areUniquePerKey_countUpFromOne_andKeysRetireAfterMaxWritesPerKey() {
        GeneratorOptions options = FAULTY.toBuilder().maxWritesPerKey(3).keyCount(2)
                .keyDistribution(KeyDistribution.UNIFORM).readProbability(0.3).build();
        Map<Long, Long> lastValue = new HashMap<>();
        Map<Long, long[]> spans = new HashMap<>();
        long ordinal = 0;
        for (Op op : RegisterGenerator.generate(options)) {
            if (op.type() != OpType.INVOKE) {
                continue;
            }
            for (MicroOp m : op.value()) {
                assertFalse(m instanceof MicroOp.Append, () -> "append in a register history: " + op);
                long at = ordinal++;
                spans.computeIfAbsent(m.key(), k -> new long[] {at, at})[1] = at;
                if (m instanceof MicroOp.Write w) {
                    long expected = lastValue.getOrDefault(w.key(), 0L) + 1;
                    assertEquals(expected, w.value(), () -> "write values of key " + w.key() + " at " + op);
                    assertTrue(w.value() <= 3, () -> "key written too often: " + op);
                    lastValue.put(w.key(), w.value());
                }
            }
        }
        assertTrue(lastValue.values().stream().filter(v -> v == 3).count() > 1_000, "keys that took all their writes");
        // A retired key is never used again: at any micro-op at most keyCount keys lie between
        // their first and last use.
        long[] delta = new long[(int) ordinal + 1];
        spans.values().forEach(span -> {
            delta[(int) span[0]]++;
            delta[(int) span[1] + 1]--;
        });
        long open = 0;
        for (int i = 0; i < ordinal; i++) {
            open += delta[i];
            assertTrue(open <= options.keyCount(), open + " keys in use at micro-op " + i);
        }
    }

    @Test
    void infoProcesses_neverReappear_andTheirThreadContinuesAsProcessPlusConcurrency() {
        GeneratedHistory.assertInfoProcessesRetire(Generated.of(FAULTY).history(), FAULTY.concurrency());
    }

    @Test
    void faultRates_areRoughlyRespected_andInfoTxnsTakeEffectOnACoinFlip() {
        Generated generated = Generated.of(FAULTY);
        long txns = FAULTY.txnCount();
        assertEquals(0.10 * txns, generated.count(OpType.FAIL), 150);
        assertEquals(0.05 * txns, generated.count(OpType.INFO), 110);
        long infos = generated.count(OpType.INFO);
        long unknownApplied = generated.linearization().size() - generated.count(OpType.OK);
        assertEquals(infos / 2.0, unknownApplied, infos * 0.2);
    }

    @Test
    void noFaults_yieldsOnlyOkCompletions() {
        Generated generated = Generated.of(GeneratorOptions.defaults().toBuilder().seed(1).build());
        assertEquals(generated.options().txnCount(), generated.count(OpType.OK));
    }

    @Test
    void readProbability_isRoughlyRespected() {
        long reads = 0;
        long all = 0;
        for (Op op : RegisterGenerator.generate(GeneratorOptions.defaults().toBuilder().txnCount(10_000)
                .readProbability(0.8).seed(2).build())) {
            if (op.type() == OpType.INVOKE) {
                for (MicroOp m : op.value()) {
                    all++;
                    reads += m instanceof MicroOp.Read ? 1 : 0;
                }
            }
        }
        assertEquals(0.8, reads / (double) all, 0.02);
    }

    @Test
    void staleReads_returnOneOfTheThreeEarlierVersions_neverAfterAnOwnWrite() {
        GeneratorOptions options = FAULTY.toBuilder().keyCount(3).staleReadRate(0.2).seed(12).build();
        Generated generated = Generated.of(options);
        generated.assertWellFormed();
        int stale = generated.assertSerialReplay(true);
        assertTrue(stale > 500, "stale reads: " + stale);
    }

    @Test
    void transactions_overlapInTime() {
        int outstanding = 0;
        int mostOutstanding = 0;
        for (Op op : RegisterGenerator.generate(GeneratorOptions.defaults().toBuilder().seed(5).build())) {
            outstanding += op.type() == OpType.INVOKE ? 1 : -1;
            mostOutstanding = Math.max(mostOutstanding, outstanding);
        }
        assertEquals(GeneratorOptions.DEFAULT_CONCURRENCY, mostOutstanding);
    }

    @Test
    void zeroTxns_yieldsEmptyHistory() {
        assertTrue(RegisterGenerator.generate(GeneratorOptions.defaults().toBuilder().txnCount(0).build()).isEmpty());
    }

    @Test
    void next_afterLastEvent_throws() {
        RegisterGenerator generator = new RegisterGenerator(GeneratorOptions.defaults().toBuilder().txnCount(1)
                .build());
        generator.next();
        generator.next();
        assertFalse(generator.hasNext());
        assertThrows(NoSuchElementException.class, generator::next);
    }

    @Test
    void generate_tooManyTxnsForAList_pointsToTheIterator() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RegisterGenerator.generate(GeneratorOptions.defaults().toBuilder().txnCount(2_000_000_000L)
                        .build()));
        assertTrue(e.getMessage().contains("2000000000") && e.getMessage().contains("RegisterGenerator"),
                e.getMessage());
    }

    /** The value a completed register read returned; null for nil. */
    private static Long valueOf(MicroOp.Read read) {
        if (read.values() == null) {
            return null;
        }
        assertEquals(1, read.values().length, () -> "a register read returns one value: " + read);
        return read.values()[0];
    }

    /**
     * A generated history with the linearization the generator chose: for each transaction that
     * took effect, {@code [invokeIndex, eventsBefore]}.
     */
    private record Generated(GeneratorOptions options, List<Op> history, List<long[]> linearization) {

        static Generated of(GeneratorOptions options) {
            List<Op> history = new ArrayList<>();
            List<long[]> order = new ArrayList<>();
            RegisterGenerator generator = new RegisterGenerator(options,
                    invokeIndex -> order.add(new long[] {invokeIndex, history.size()}));
            generator.forEachRemaining(history::add);
            return new Generated(options, history, order);
        }

        long count(OpType type) {
            return history.stream().filter(op -> op.type() == type).count();
        }

        /** The shape every generated history has (shared with the list-append generator's tests). */
        void assertWellFormed() {
            new GeneratedHistory(options, history, linearization)
                    .assertWellFormed(r -> r.values() == null || r.values().length == 1);
            for (Op op : history) {
                for (MicroOp m : op.value()) {
                    assertFalse(m instanceof MicroOp.Append, () -> "a register history holds no appends: " + op);
                }
            }
        }

        /**
         * Replays the transactions that took effect, serially in linearization order, and checks
         * every ok read: equal to the replayed register, or, when {@code staleAllowed}, one of the
         * three versions before it (nil counting as the first version) on a key the transaction
         * has not written yet. Also checks that each linearization point lies within its
         * transaction and that ok transactions, and no failed one, took effect exactly once.
         *
         * @return how many reads were stale
         */
        int assertSerialReplay(boolean staleAllowed) {
            Map<Long, Op> completionOf = new HashMap<>();
            Map<Long, Long> outstanding = new HashMap<>();
            for (Op op : history) {
                if (op.type() == OpType.INVOKE) {
                    outstanding.put(op.process(), op.index());
                } else {
                    completionOf.put(outstanding.remove(op.process()), op);
                }
            }
            Map<Long, List<Long>> versions = new HashMap<>();
            Set<Long> applied = new HashSet<>();
            int stale = 0;
            for (long[] point : linearization) {
                Op invoke = history.get((int) point[0]);
                Op completion = completionOf.get(point[0]);
                assertTrue(applied.add(point[0]), () -> "took effect twice: " + invoke);
                assertNotEquals(OpType.FAIL, completion.type(), () -> "aborted txn took effect: " + completion);
                assertTrue(point[0] < point[1] && point[1] <= completion.index(),
                        () -> "linearization point outside " + invoke + " .. " + completion);
                Set<Long> written = new HashSet<>();
                for (int i = 0; i < invoke.value().size(); i++) {
                    MicroOp m = invoke.value().get(i);
                    List<Long> history = versions.computeIfAbsent(m.key(), k -> new ArrayList<>());
                    if (m instanceof MicroOp.Write w) {
                        history.add(w.value());
                        written.add(w.key());
                    } else if (completion.type() == OpType.OK) {
                        Long read = valueOf((MicroOp.Read) completion.value().get(i));
                        Long current = history.isEmpty() ? null : history.get(history.size() - 1);
                        if (!Objects.equals(current, read)) {
                            assertTrue(staleAllowed && !written.contains(m.key())
                                            && isOneOfTheThreeBefore(history, read),
                                    () -> "read of key " + m.key() + " in " + completion + " saw " + read
                                            + ", serial replay gives " + current);
                            stale++;
                        }
                    }
                }
            }
            for (Map.Entry<Long, Op> pair : completionOf.entrySet()) {
                if (pair.getValue().type() == OpType.OK) {
                    assertTrue(applied.contains(pair.getKey()), () -> "ok txn never took effect: " + pair.getValue());
                }
            }
            return stale;
        }

        /** True when {@code read} is one of the three versions before the last (null: nil, version 0). */
        private static boolean isOneOfTheThreeBefore(List<Long> history, Long read) {
            int current = history.size();
            for (int lag = 1; lag <= 3 && current - lag >= 0; lag++) {
                int version = current - lag;
                Long value = version == 0 ? null : history.get(version - 1);
                if (Objects.equals(value, read)) {
                    return true;
                }
            }
            return false;
        }
    }
}

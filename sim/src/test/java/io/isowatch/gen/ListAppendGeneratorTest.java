package io.isowatch.gen;

import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ListAppendGeneratorTest {

    private static final GeneratorOptions FAULTY = GeneratorOptions.defaults()
            .toBuilder().txnCount(10_000).faultRates(0.1, 0.05).seed(42).build();

    @Test
    void generate_sameSeed_yieldsIdenticalHistory() {
        GeneratedHistory.assertSameSeedSameHistory(ListAppendGenerator::generate, FAULTY.toBuilder().txnCount(2_000)
                .build());
    }

    @Test
    void generate_otherSeed_yieldsOtherHistory() {
        GeneratedHistory.assertOtherSeedOtherHistory(ListAppendGenerator::generate, FAULTY.toBuilder()
                .txnCount(2_000).build());
    }

    @Test
    void history_isWellFormed_denseIndicesIncreasingTimesOneTxnPerProcess() {
        GeneratedHistory.of(FAULTY).assertWellFormed();
        GeneratedHistory.of(GeneratorOptions.defaults().toBuilder().txnCount(10_000).seed(7).build())
                .assertWellFormed();
    }

    @Test
    void okReads_matchSerialReplayInLinearizationOrder() {
        GeneratedHistory.of(FAULTY).assertSerialReplayMatches();
        GeneratedHistory.of(FAULTY.toBuilder().keyDistribution(KeyDistribution.UNIFORM).keyCount(3)
                .txnLength(1, 8).seed(9).build()).assertSerialReplayMatches();
    }

    @Test
    void okReads_seeEarlierAppendsOfTheSameTxn() {
        GeneratedHistory generated = GeneratedHistory.of(GeneratorOptions.defaults().toBuilder().txnCount(5_000)
                .keyCount(1).txnLength(4, 4).seed(3).build());
        int seen = 0;
        for (Op op : generated.history()) {
            if (op.type() != OpType.OK) {
                continue;
            }
            Map<Long, Long> ownAppend = new HashMap<>();
            for (MicroOp m : op.value()) {
                if (m instanceof MicroOp.Append a) {
                    ownAppend.put(a.key(), a.value());
                } else if (ownAppend.containsKey(m.key())) {
                    long[] read = ((MicroOp.Read) m).values();
                    assertEquals(ownAppend.get(m.key()), read[read.length - 1], () -> "own append not last in " + op);
                    seen++;
                }
            }
        }
        assertTrue(seen > 100, "reads after an own append: " + seen);
    }

    @Test
    void transactions_overlapInTime() {
        List<Op> history = ListAppendGenerator.generate(GeneratorOptions.defaults().toBuilder().seed(5).build());
        int outstanding = 0;
        int mostOutstanding = 0;
        for (Op op : history) {
            outstanding += op.type() == OpType.INVOKE ? 1 : -1;
            mostOutstanding = Math.max(mostOutstanding, outstanding);
        }
        assertEquals(GeneratorOptions.DEFAULT_CONCURRENCY, mostOutstanding);
    }

    @Test
    void appendValues_areUniquePerKey_andKeysRetireAfterMaxWritesPerKey() {
        GeneratorOptions options = FAULTY.toBuilder().maxWritesPerKey(3).keyCount(2)
                .keyDistribution(KeyDistribution.UNIFORM).readProbability(0.3).build();
        GeneratedHistory generated = GeneratedHistory.of(options);
        generated.assertKeysRetire();
        Map<Long, Integer> appends = new HashMap<>();
        for (Op op : generated.history()) {
            if (op.type() == OpType.INVOKE) {
                for (MicroOp m : op.value()) {
                    if (m instanceof MicroOp.Append) {
                        appends.merge(m.key(), 1, Integer::sum);
                    }
                }
            }
        }
        long full = appends.values().stream().filter(n -> n == 3).count();
        assertTrue(full > 1_000, "keys that took all their appends: " + full);
        assertEquals(appends.size() - 1L, appends.keySet().stream().mapToLong(Long::longValue).max().orElseThrow()
                - appends.keySet().stream().mapToLong(Long::longValue).min().orElseThrow(),
                "fresh keys are consecutive integers");
        GeneratedHistory.of(GeneratorOptions.defaults().toBuilder().txnCount(10_000).seed(11).build())
                .assertKeysRetire();
    }

    @Test
    void infoProcesses_neverReappear_andTheirThreadContinuesAsProcessPlusConcurrency() {
        GeneratedHistory generated = GeneratedHistory.of(FAULTY);
        generated.assertWellFormed();
        GeneratedHistory.assertInfoProcessesRetire(generated.history(), FAULTY.concurrency());
    }

    @Test
    void faultRates_areRoughlyRespected() {
        GeneratedHistory generated = GeneratedHistory.of(FAULTY);
        long txns = FAULTY.txnCount();
        // 10k draws: the standard deviation is about 30 for fail and 22 for info.
        assertEquals(0.10 * txns, generated.count(OpType.FAIL), 150);
        assertEquals(0.05 * txns, generated.count(OpType.INFO), 110);
        long infos = generated.count(OpType.INFO);
        long applied = generated.linearization().size();
        long unknownApplied = applied - generated.count(OpType.OK);
        assertEquals(infos / 2.0, unknownApplied, infos * 0.2, "info txns take effect on a coin flip");
    }

    @Test
    void noFaults_yieldsOnlyOkCompletions() {
        GeneratedHistory generated = GeneratedHistory.of(GeneratorOptions.defaults().toBuilder().seed(1).build());
        assertEquals(generated.options().txnCount(), generated.count(OpType.OK));
    }

    @Test
    void readProbability_isRoughlyRespected() {
        List<Op> history = ListAppendGenerator.generate(GeneratorOptions.defaults().toBuilder().txnCount(10_000)
                .readProbability(0.8).seed(2).build());
        long reads = 0;
        long all = 0;
        for (Op op : history) {
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
    void zeroTxns_yieldsEmptyHistory() {
        assertTrue(ListAppendGenerator.generate(GeneratorOptions.defaults().toBuilder().txnCount(0).build()).isEmpty());
    }

    @Test
    void next_afterLastEvent_throws() {
        ListAppendGenerator generator = new ListAppendGenerator(GeneratorOptions.defaults().toBuilder().txnCount(1)
                .build());
        generator.next();
        generator.next();
        assertFalse(generator.hasNext());
        assertThrows(java.util.NoSuchElementException.class, generator::next);
    }

    @Test
    void generate_tooManyTxnsForAList_pointsToTheIterator() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ListAppendGenerator.generate(GeneratorOptions.defaults().toBuilder().txnCount(2_000_000_000L)
                        .build()));
        assertTrue(e.getMessage().contains("2000000000") && e.getMessage().contains("ListAppendGenerator"),
                e.getMessage());
    }

    @Test
    void singleProcess_runsTransactionsOneAfterAnother() {
        List<Op> history = ListAppendGenerator.generate(GeneratorOptions.defaults().toBuilder().concurrency(1)
                .seed(4).build());
        for (int i = 0; i < history.size(); i++) {
            assertEquals(i % 2 == 0, history.get(i).type() == OpType.INVOKE, "alternates at " + i);
        }
    }
}

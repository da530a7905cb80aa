package io.isowatch.gen;

import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A generated list-append history with the linearization the generator chose, and independent
 * checks of what the generator promises; the static checks hold for both generators. The checks share no code with the generator: the replay keeps
 * its own map of lists.
 *
 * @param history       the events, in order
 * @param linearization the transactions that took effect, in order: {@code [invokeIndex,
 *                      eventsBefore]}, where {@code eventsBefore} is how many events had been
 *                      handed out when it took effect
 * @param closingReads  the invocation indices of the closing reads, as the generator reported them
 */
record GeneratedHistory(GeneratorOptions options, List<Op> history, List<long[]> linearization,
                        Set<Long> closingReads) {

    GeneratedHistory(GeneratorOptions options, List<Op> history, List<long[]> linearization) {
        this(options, history, linearization, Set.of());
    }

    static GeneratedHistory of(GeneratorOptions options) {
        return of(options, false);
    }

    /** A list-append history, or with {@code registers} an rw-register one. */
    static GeneratedHistory of(GeneratorOptions options, boolean registers) {
        List<Op> history = new ArrayList<>();
        List<long[]> order = new ArrayList<>();
        Set<Long> closing = new HashSet<>();
        java.util.function.LongConsumer linearized = invokeIndex -> order.add(new long[] {invokeIndex, history.size()});
        StoreGenerator generator = registers ? new RegisterGenerator(options, linearized, closing::add)
                : new ListAppendGenerator(options, linearized, closing::add);
        while (generator.hasNext()) {
            history.add(generator.next());
        }
        return new GeneratedHistory(options, history, order, closing);
    }

    /** Dense indices, increasing times, one outstanding transaction per process, info processes retired. */
    void assertWellFormed() {
        assertWellFormed(MicroOp.Read::known);
    }

    /**
     * As {@link #assertWellFormed()}, with {@code okRead} saying what a read reported by an ok
     * completion must look like (a list for list-append; nil or one value for a register).
     */
    void assertWellFormed(java.util.function.Predicate<MicroOp.Read> okRead) {
        assertEquals(2 * (options.txnCount() + closingReads.size()), history.size(), "events");
        Map<Long, Op> outstanding = new HashMap<>();
        Set<Long> retired = new HashSet<>();
        long lastTime = 0;
        for (int i = 0; i < history.size(); i++) {
            Op op = history.get(i);
            assertEquals(i, op.index(), "index");
            assertTrue(op.time() > lastTime, () -> "time must increase at " + op);
            lastTime = op.time();
            assertFalse(retired.contains(op.process()), () -> "process reappeared after info: " + op);
            if (op.type() == OpType.INVOKE) {
                assertFalse(op.value().isEmpty(), "empty transaction");
                if (closingReads.contains(op.index())) {
                    assertTrue(op.value().size() == 1 && op.value().get(0) instanceof MicroOp.Read,
                            () -> "a closing read reads one key: " + op);
                } else {
                    assertTrue(op.value().size() >= options.minTxnLength()
                            && op.value().size() <= options.maxTxnLength(), () -> "length out of range: " + op);
                }
                for (MicroOp m : op.value()) {
                    if (m instanceof MicroOp.Read r) {
                        assertFalse(r.known(), () -> "invocation with a known read: " + op);
                    }
                }
                assertEquals(null, outstanding.put(op.process(), op), () -> "second outstanding txn: " + op);
            } else {
                Op invoke = outstanding.remove(op.process());
                assertNotNull(invoke, () -> "completion without invocation: " + op);
                assertCompletes(invoke, op, okRead);
                if (op.type() == OpType.INFO) {
                    retired.add(op.process());
                }
            }
        }
        assertTrue(outstanding.isEmpty(), () -> "never completed: " + outstanding.values());
    }

    private static void assertCompletes(Op invoke, Op completion, java.util.function.Predicate<MicroOp.Read> okRead) {
        if (completion.type() != OpType.OK) {
            assertEquals(invoke.value(), completion.value(), "fail and info completions carry the invocation");
            return;
        }
        assertEquals(invoke.value().size(), completion.value().size(), "ok completion length");
        for (int i = 0; i < invoke.value().size(); i++) {
            MicroOp asked = invoke.value().get(i);
            MicroOp got = completion.value().get(i);
            assertEquals(asked.key(), got.key(), "key of micro-op " + i);
            if (!(asked instanceof MicroOp.Read)) {
                assertEquals(asked, got, "write of micro-op " + i);
            } else {
                assertTrue(got instanceof MicroOp.Read r && okRead.test(r), () -> "ok read not reported: " + completion);
            }
        }
    }

    /**
     * Replays the transactions that took effect, serially in linearization order, and compares
     * every read of every ok completion; also checks that each linearization point lies between
     * its transaction's invocation and completion, that every ok transaction and no failed one
     * took effect, exactly once.
     */
    void assertSerialReplayMatches() {
        Map<Long, Op> completionOf = new HashMap<>();
        Map<Long, Long> outstanding = new HashMap<>();
        for (Op op : history) {
            if (op.type() == OpType.INVOKE) {
                outstanding.put(op.process(), op.index());
            } else {
                completionOf.put(outstanding.remove(op.process()), op);
            }
        }
        Map<Long, List<Long>> lists = new HashMap<>();
        Set<Long> applied = new HashSet<>();
        for (long[] point : linearization) {
            long invokeIndex = point[0];
            long eventsBefore = point[1];
            Op invoke = history.get((int) invokeIndex);
            Op completion = completionOf.get(invokeIndex);
            assertEquals(OpType.INVOKE, invoke.type(), "linearized event must be an invocation");
            assertTrue(applied.add(invokeIndex), () -> "took effect twice: " + invoke);
            assertTrue(completion.type() != OpType.FAIL, () -> "aborted txn took effect: " + completion);
            assertTrue(invokeIndex < eventsBefore && eventsBefore <= completion.index(),
                    () -> "linearization point " + eventsBefore + " outside " + invoke + " .. " + completion);
            for (int i = 0; i < invoke.value().size(); i++) {
                MicroOp m = invoke.value().get(i);
                List<Long> list = lists.computeIfAbsent(m.key(), k -> new ArrayList<>());
                if (m instanceof MicroOp.Append a) {
                    list.add(a.value());
                } else if (completion.type() == OpType.OK) {
                    long[] expected = list.stream().mapToLong(Long::longValue).toArray();
                    long[] read = ((MicroOp.Read) completion.value().get(i)).values();
                    int at = i;
                    assertTrue(Arrays.equals(expected, read), () -> "read " + at + " of " + completion + " saw "
                            + Arrays.toString(read) + ", serial replay gives " + Arrays.toString(expected));
                }
            }
        }
        for (Map.Entry<Long, Op> pair : completionOf.entrySet()) {
            if (pair.getValue().type() == OpType.OK) {
                assertTrue(applied.contains(pair.getKey()), () -> "ok txn never took effect: " + pair.getValue());
            }
        }
        long ok = completionOf.values().stream().filter(op -> op.type() == OpType.OK).count();
        long info = completionOf.values().stream().filter(op -> op.type() == OpType.INFO).count();
        assertTrue(applied.size() >= ok && applied.size() <= ok + info, "applied txns: ok plus some info");
    }

    /**
     * Append values run 1, 2, 3, ... per key in invocation order (so they are unique), no key
     * takes more than maxWritesPerKey appends, and at any micro-op at most keyCount keys are
     * between their first and last use: a retired key is never used again. (Micro-ops, not
     * invocations: a key may retire in the middle of planning a transaction.)
     */
    void assertKeysRetire() {
        Map<Long, Long> lastValue = new HashMap<>();
        TreeMap<Long, long[]> spans = new TreeMap<>();
        long ordinal = 0;
        for (Op op : history) {
            if (op.type() != OpType.INVOKE) {
                continue;
            }
            for (MicroOp m : op.value()) {
                long at = ordinal++;
                spans.computeIfAbsent(m.key(), k -> new long[] {at, at})[1] = at;
                if (m instanceof MicroOp.Append a) {
                    long expected = lastValue.getOrDefault(a.key(), 0L) + 1;
                    assertEquals(expected, a.value(), () -> "append values of key " + a.key() + " at " + op);
                    assertTrue(a.value() <= options.maxWritesPerKey(), () -> "key written too often: " + op);
                    lastValue.put(a.key(), a.value());
                }
            }
        }
        long[] delta = new long[(int) ordinal + 1];
        for (Map.Entry<Long, long[]> span : spans.entrySet()) {
            assertTrue(span.getKey() >= 0, "keys are natural numbers");
            delta[(int) span.getValue()[0]]++;
            delta[(int) span.getValue()[1] + 1]--;
        }
        long open = 0;
        for (int i = 0; i < ordinal; i++) {
            open += delta[i];
            if (open > options.keyCount()) {
                fail(open + " keys in use at micro-op " + i + " with keyCount " + options.keyCount());
            }
        }
    }

    /** The generator is a function of its options: the same seed gives the same history. */
    static void assertSameSeedSameHistory(Function<GeneratorOptions, List<Op>> generate, GeneratorOptions options) {
        assertEquals(generate.apply(options), generate.apply(options));
    }

    /** Another seed gives another history. */
    static void assertOtherSeedOtherHistory(Function<GeneratorOptions, List<Op>> generate, GeneratorOptions options) {
        assertNotEquals(generate.apply(options), generate.apply(options.toBuilder().seed(43).build()));
    }

    /**
     * A process that completed info never runs again, and its thread continues as process plus
     * concurrency; at least 300 info completions, so the check has something to see.
     */
    static void assertInfoProcessesRetire(List<Op> history, int concurrency) {
        Map<Long, Long> latestProcessOfThread = new HashMap<>();
        Set<Long> retired = new HashSet<>();
        for (Op op : history) {
            long thread = op.process() % concurrency;
            Long latest = latestProcessOfThread.put(thread, op.process());
            if (latest != null && latest != op.process()) {
                assertTrue(retired.contains(latest), () -> "thread changed process without info: " + op);
                assertEquals(latest + concurrency, op.process(), "successor process id");
            }
            if (op.type() == OpType.INFO) {
                retired.add(op.process());
            }
            assertFalse(op.type() == OpType.INVOKE && retired.contains(op.process()));
        }
        assertTrue(retired.size() > 300, "info completions: " + retired.size());
    }

    long count(OpType type) {
        return history.stream().filter(op -> op.type() == type).count();
    }
}

package io.isowatch.gen;

import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.NoSuchElementException;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Closing reads in the generator, by example; {@link ClosingReadsProperties} holds the general promises. */
class ClosingReadsTest {

    private static final GeneratorOptions CLOSING = GeneratorOptions.defaults().toBuilder().txnCount(10_000)
            .closingReads(true).seed(5).build();

    @Test
    void defaults_haveNoClosingReads_soEverySeedKeepsItsHistory() {
        assertFalse(GeneratorOptions.defaults().closingReads());
        GeneratedHistory plain = GeneratedHistory.of(GeneratorOptions.defaults().toBuilder().txnCount(2_000).build());
        assertTrue(plain.closingReads().isEmpty());
        assertEquals(4_000, plain.history().size());
    }

    @Test
    void retiredKeys_areClosedWhileTheHistoryRuns_andTheRestAtTheEnd() {
        GeneratedHistory generated = GeneratedHistory.of(CLOSING);
        generated.assertWellFormed();
        long lastOrdinaryInvoke = generated.history().stream()
                .filter(op -> op.type() == OpType.INVOKE && !generated.closingReads().contains(op.index()))
                .mapToLong(Op::index).max().orElseThrow();
        long live = generated.closingReads().stream().filter(i -> i < lastOrdinaryInvoke).count();
        long atEnd = generated.closingReads().size() - live;
        // 10,000 transactions of 2.5 micro-ops, half of them appends, retire a key every 32 appends.
        assertTrue(live > 300 && live < 450, "closing reads while running: " + live);
        assertTrue(atEnd >= 1 && atEnd <= CLOSING.keyCount(), "closing reads at the end: " + atEnd);
        assertEquals(2 * (CLOSING.txnCount() + generated.closingReads().size()), generated.history().size());
        assertEquals(CLOSING.txnCount() + generated.closingReads().size(), generated.count(OpType.OK),
                "no faults: every transaction, closing reads included, commits");
    }

    @Test
    void closingReads_runOnTheThreadsProcess_andAnInfoRetiresIt() {
        GeneratorOptions options = CLOSING.toBuilder().faultRates(0.1, 0.1).build();
        GeneratedHistory generated = GeneratedHistory.of(options);
        generated.assertWellFormed();
        GeneratedHistory.assertInfoProcessesRetire(generated.history(), options.concurrency());
        long closingInfos = generated.closingReads().stream()
                .map(i -> ClosingReadsProperties.Pairs.of(generated.history()).completionOf(generated.history()
                        .get(i.intValue())).type())
                .filter(t -> t == OpType.INFO).count();
        assertTrue(closingInfos > 0, "closing reads draw faults like any transaction");
    }

    @Test
    void registers_closingReadIsARegisterRead() {
        GeneratedHistory generated = GeneratedHistory.of(CLOSING.toBuilder().txnCount(2_000).build(), true);
        assertFalse(generated.closingReads().isEmpty());
        for (long i : generated.closingReads()) {
            List<MicroOp> txn = generated.history().get((int) i).value();
            assertEquals(List.of(new MicroOp.Read(txn.get(0).key(), null)), txn);
        }
        Set<Long> nonNil = new HashSet<>();
        for (Op op : generated.history()) {
            if (op.type() == OpType.OK && op.value().size() == 1 && op.value().get(0) instanceof MicroOp.Read r
                    && r.values() != null) {
                assertEquals(1, r.values().length, op::toString);
                nonNil.add(r.key());
            }
        }
        assertTrue(nonNil.size() > 10, "register reads with a value: " + nonNil.size());
    }

    @Test
    void endEarly_stopsInvokingAndEndsTheHistoryWithEveryWrittenKeyRead() {
        GeneratorOptions endless = CLOSING.toBuilder().txnCount(Long.MAX_VALUE / 4).build();
        java.util.List<Long> closing = new java.util.ArrayList<>();
        ListAppendGenerator generator = new ListAppendGenerator(endless, i -> { }, closing::add);
        java.util.List<Op> history = new java.util.ArrayList<>();
        for (int i = 0; i < 5_000; i++) {
            history.add(generator.next());
        }
        int closedWhileRunning = closing.size();
        generator.endEarly();
        generator.forEachRemaining(history::add);
        long invocations = history.stream().filter(op -> op.type() == OpType.INVOKE).count();
        assertEquals(2 * invocations, history.size(), "every invocation completed");
        assertTrue(closing.size() > closedWhileRunning, "the keys still in use were read at the end");
        assertTrue(history.size() < 5_000 + 4 * (CLOSING.concurrency() + CLOSING.keyCount()),
                "no ordinary transaction after endEarly(): " + history.size() + " events");
        // Every element an ok transaction appended is in some later ok read of its key.
        java.util.Map<Long, java.util.Set<Long>> read = new java.util.HashMap<>();
        for (Op op : history) {
            if (op.type() == OpType.OK) {
                for (io.isowatch.history.MicroOp m : op.value()) {
                    if (m instanceof io.isowatch.history.MicroOp.Read r && r.known()) {
                        for (long v : r.values()) {
                            read.computeIfAbsent(r.key(), k -> new java.util.HashSet<>()).add(v);
                        }
                    }
                }
            }
        }
        for (Op op : history) {
            if (op.type() == OpType.OK) {
                for (io.isowatch.history.MicroOp m : op.value()) {
                    if (m instanceof io.isowatch.history.MicroOp.Append a) {
                        assertTrue(read.getOrDefault(a.key(), java.util.Set.of()).contains(a.value()),
                                "append " + a + " left unread");
                    }
                }
            }
        }
    }

    @Test
    void hasNext_endsAfterTheLastClosingRead() {
        ListAppendGenerator generator = new ListAppendGenerator(GeneratorOptions.defaults().toBuilder().txnCount(1)
                .txnLength(1, 1).readProbability(0).closingReads(true).build());
        List<Op> events = new java.util.ArrayList<>();
        generator.forEachRemaining(events::add);
        assertEquals(4, events.size(), "one append, then the closing read of its key: " + events);
        assertEquals(List.of(new MicroOp.Read(events.get(0).value().get(0).key(), null)), events.get(2).value());
        assertArrayEqualsOne(((MicroOp.Read) events.get(3).value().get(0)).values());
        assertFalse(generator.hasNext());
        assertThrows(NoSuchElementException.class, generator::next);
        assertTrue(ListAppendGenerator.generate(GeneratorOptions.defaults().toBuilder().txnCount(0)
                .closingReads(true).build())
                .isEmpty());
    }

    private static void assertArrayEqualsOne(long[] values) {
        assertEquals(1, values.length);
        assertEquals(1, values[0]);
    }
}

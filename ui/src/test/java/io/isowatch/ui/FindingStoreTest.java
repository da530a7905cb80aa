package io.isowatch.ui;

import io.isowatch.sinks.Alert;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class FindingStoreTest {

    private static long base;

    /** A write skew of its own: ids depend on indices, so each gets fresh ones. */
    private static FindingView skew(String k, String history, long at) {
        base += 10;
        return FindingView.of(TestAlerts.writeSkewAlert(k + "1", k + "2", base, history, at));
    }

    @Test
    void add_repeatOfAnId_isDroppedAndCounted() {
        FindingStore store = new FindingStore(10);
        Alert a = TestAlerts.writeSkewAlert("x", "y", "agent-1", 1000);
        assertTrue(store.add(FindingView.of(a)));
        // The job restored from a checkpoint: the same finding again, detected later.
        Alert again = new Alert(a.id(), a.history(), a.type(), a.title(), a.models(), 2000, 3, a.explanation(),
                a.findingJson());
        assertFalse(store.add(FindingView.of(again)));
        assertEquals(1, store.size());
        assertEquals(1, store.repeats());
        assertEquals(1000, store.get(a.id()).alert().detectedAtMillis(), "the first report stays");
        assertEquals(Map.of("G2-item", 1L), store.countsByType());
    }

    @Test
    void add_pastCapacity_forgetsTheOldest_butCountsEveryFinding() {
        FindingStore store = new FindingStore(2);
        FindingView a = skew("a", "h", 1);
        FindingView b = skew("b", "h", 2);
        FindingView c = skew("c", "h", 3);
        store.add(a);
        store.add(b);
        store.add(c);
        assertEquals(List.of(c, b), store.newestFirst());
        assertNull(store.get(a.id()));
        assertEquals(Map.of("G2-item", 3L), store.countsByType());
        assertEquals(List.of(3L), store.after(2).stream().map(FindingStore.Entry::seq).toList());
        assertEquals(2, store.after(0).size(), "what is held, oldest first");
    }

    @Test
    void await_returnsWhenAFindingArrives_orAfterTheTimeout() throws InterruptedException {
        FindingStore store = new FindingStore(10);
        long start = System.nanoTime();
        assertEquals(0, store.await(0, 100));
        assertTrue(System.nanoTime() - start >= 90_000_000L, "waited for the timeout");
        Thread adder = new Thread(() -> store.add(skew("w", "h", 1)));
        start = System.nanoTime();
        adder.start();
        assertEquals(1, store.await(0, 10_000));
        assertTrue(System.nanoTime() - start < 5_000_000_000L, "woken by the add");
        adder.join();
    }

    @Test
    void histories_sayWhichModelsEachHistoryRulesOut_andByWhichFindings() {
        FindingStore store = new FindingStore(10);
        FindingView skew = skew("s", "agent-1", 5000);
        FindingView aborted = FindingView.of(TestAlerts.abortedReadAlert("z", "agent-1", 4000));
        FindingView other = skew("o", "agent-2", 7000);
        store.add(skew);
        store.add(aborted);
        store.add(other);
        List<FindingStore.HistorySummary> h = store.histories();
        assertEquals(List.of("agent-1", "agent-2"), h.stream().map(FindingStore.HistorySummary::history).toList());
        FindingStore.HistorySummary one = h.get(0);
        assertEquals(2, one.findings());
        assertEquals(Map.of("G1a", 1L, "G2-item", 1L), one.types());
        assertEquals(4000, one.firstDetectedAtMillis());
        assertEquals(5000, one.lastDetectedAtMillis());
        // G1a rules out read-committed, the weakest model either finding rules out.
        assertTrue(one.ruledOut().not().contains("read-committed"), one.ruledOut().toString());
        assertTrue(one.ruledOut().alsoNot().contains("serializable"), one.ruledOut().toString());
        assertEquals(List.of(aborted.id()), one.ruledOutBy().get("read-committed"));
        assertEquals(List.of(skew.id(), aborted.id()), one.ruledOutBy().get("serializable"));
        // Write skew alone: not repeatable-read (Elle's boundary for G2-item), snapshot isolation holds.
        FindingStore.HistorySummary two = h.get(1);
        assertEquals(List.of(other.id()), two.ruledOutBy().get("repeatable-read"));
        assertFalse(two.ruledOutBy().containsKey("snapshot-isolation"), two.ruledOutBy().toString());
        assertEquals(java.util.Set.of(), one.agents(), "one agent's histories name no agents");
    }

    @Test
    void histories_ofSeveralAgents_nameEveryAgentTheirFindingsName() {
        FindingStore store = new FindingStore(10);
        store.add(FindingView.of(TestAlerts.writeSkewAlert("a", "b", "shop", 1000).recordedBy(List.of("shop-0", "shop-1"))));
        store.add(FindingView.of(TestAlerts.writeSkewAlert("c", "d", 10, "shop", 2000).recordedBy(List.of("shop-2"))));
        assertEquals(List.of("shop-0", "shop-1", "shop-2"), List.copyOf(store.histories().get(0).agents()));
        assertTrue(ConsoleJson.overview(store).contains("\"agents\":[\"shop-0\",\"shop-1\",\"shop-2\"]"),
                ConsoleJson.overview(store));
    }

    @Test
    void view_knowsTheTransactionsKeysAndWhetherThereIsAPicture() {
        FindingView skew = skew("k", "h", 1);
        assertTrue(skew.picture());
        assertTrue(skew.svg().startsWith("<?xml"), "the cycle is drawn");
        assertEquals(List.of(base + 2, base + 3), skew.txns().stream().map(FindingView.TxnRow::index).toList());
        assertEquals(List.of("\"k2\"", "\"k1\""), skew.txns().get(0).keys());
        assertEquals(List.of("[\"r\",\"k2\",[]]", "[\"append\",\"k1\",1]"), skew.txns().get(0).mops());
        FindingView aborted = FindingView.of(TestAlerts.abortedReadAlert("z", "h", 1));
        assertFalse(aborted.picture());
        assertNull(aborted.svg());
        assertEquals(List.of(3L, 1L), aborted.txns().stream().map(FindingView.TxnRow::index).toList());
    }
}

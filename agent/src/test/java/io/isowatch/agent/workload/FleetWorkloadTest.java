package io.isowatch.agent.workload;

import io.isowatch.agent.client.EmbeddedStoreClient;
import io.isowatch.agent.recorder.HistoryMember;
import io.isowatch.agent.recorder.HistoryRecorder;
import io.isowatch.agent.recorder.InMemoryEventLog;
import io.isowatch.agent.store.EmbeddedStore;
import io.isowatch.agent.store.IsolationLevel;
import io.isowatch.agent.store.StoreOptions;
import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Validity;
import io.isowatch.checker.Verdict;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two agents of one history (issue 37) running side by side against one store, as a fleet of
 * client hosts runs against one database: each records with its own recorder, and the runner
 * numbers processes and values by the member rule, so the agents never share a process or write
 * the same element to the same key, and the merged history is a valid one.
 */
class FleetWorkloadTest {

    /** Few keys, retired quickly: both agents keep writing the same keys, where a collision would show. */
    private static final WorkloadOptions OPTIONS = WorkloadOptions.defaults().toBuilder().concurrency(3).txnLimit(600)
            .keyCount(3).maxWritesPerKey(5).duration(Duration.ZERO).build();

    @Test
    void twoMembers_ofOneHistory_haveDisjointProcessesAndElements_andTheMergedHistoryIsValid() throws Exception {
        EmbeddedStore store = new EmbeddedStore(StoreOptions.of(IsolationLevel.SERIALIZABLE));
        InMemoryEventLog a = new InMemoryEventLog();
        InMemoryEventLog b = new InMemoryEventLog();
        runSideBySide(store,
                HistoryRecorder.builder("orders-3", a).history("orders", 3).build(),
                HistoryRecorder.builder("orders-7", b).history("orders", 7).build(), 1, 2);

        assertTrue(a.events().stream().allMatch(e -> e.history().equals("orders") && e.source().equals("orders-3")));
        assertTrue(b.events().stream().allMatch(e -> e.history().equals("orders") && e.source().equals("orders-7")));
        HistoryMember three = new HistoryMember("orders", 3);
        HistoryMember seven = new HistoryMember("orders", 7);
        assertTrue(a.ops().stream().allMatch(op -> three.owns(op.process())), "member 3 numbers its processes");
        assertTrue(b.ops().stream().allMatch(op -> seven.owns(op.process())), "member 7 numbers its processes");
        Set<String> writtenByA = written(a.ops());
        Set<String> writtenByB = written(b.ops());
        assertTrue(writtenByA.stream().allMatch(w -> three.owns(Long.parseLong(w.split("=")[1]))), "member 3's values");
        Set<String> both = new HashSet<>(writtenByA);
        both.retainAll(writtenByB);
        assertEquals(Set.of(), both, "(key, element) pairs both agents appended");
        assertFalse(keys(writtenByA).stream().noneMatch(keys(writtenByB)::contains),
                "the agents wrote to the same keys, so a shared element would have shown");
        Set<String> shared = keys(writtenByA);
        shared.retainAll(keys(writtenByB));
        assertTrue(shared.size() * 2 >= keys(writtenByA).size(), "keys follow time's generations, not each agent's"
                + " count, so the members write the same keys: " + shared + " of " + keys(writtenByA));

        assertEquals(Validity.TRUE, checkMerged(a, b).valid());
    }

    /** Without the member rule the same two agents collide at once: the test above can fail. */
    @Test
    void twoAgentsWithoutMembers_writeTheSameElements_soTheTestAboveCanFail() throws Exception {
        EmbeddedStore store = new EmbeddedStore(StoreOptions.of(IsolationLevel.SERIALIZABLE));
        InMemoryEventLog a = new InMemoryEventLog();
        InMemoryEventLog b = new InMemoryEventLog();
        runSideBySide(store, new HistoryRecorder("a", a), new HistoryRecorder("b", b), 1, 2);
        Set<String> both = new HashSet<>(written(a.ops()));
        both.retainAll(written(b.ops()));
        assertFalse(both.isEmpty(), "two agents numbering alone append the same elements to the same keys");
        Set<Long> processes = new HashSet<>();
        a.ops().forEach(op -> processes.add(op.process()));
        assertTrue(b.ops().stream().anyMatch(op -> processes.contains(op.process())), "and share processes");
    }

    private static void runSideBySide(EmbeddedStore store, HistoryRecorder a, HistoryRecorder b, long seedA, long seedB)
            throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(2);
        try {
            Future<WorkloadResult> ra = pool.submit(() -> new WorkloadRunner(OPTIONS.toBuilder().seed(seedA).build(),
                    EmbeddedStoreClient.factory(store), a).run());
            Future<WorkloadResult> rb = pool.submit(() -> new WorkloadRunner(OPTIONS.toBuilder().seed(seedB).build(),
                    EmbeddedStoreClient.factory(store), b).run());
            ra.get();
            rb.get();
        } finally {
            pool.shutdownNow();
        }
    }

    /** Every {@code key=element} an invocation appends. */
    private static Set<String> written(List<Op> ops) {
        Set<String> out = new HashSet<>();
        for (Op op : ops) {
            if (op.type() == OpType.INVOKE) {
                for (MicroOp m : op.value()) {
                    if (m instanceof MicroOp.Append append) {
                        out.add(append.key() + "=" + append.value());
                    }
                }
            }
        }
        return out;
    }

    private static Set<String> keys(Set<String> written) {
        Set<String> keys = new HashSet<>();
        written.forEach(w -> keys.add(w.split("=")[0]));
        return keys;
    }

    /**
     * The two agents' events as one history, in time order and numbered afresh, checked for
     * serializability (not strict: the two recorders' clocks are anchored separately, to the
     * millisecond).
     */
    private static Verdict checkMerged(InMemoryEventLog a, InMemoryEventLog b) {
        List<HistoryEvent> all = new ArrayList<>(a.events());
        all.addAll(b.events());
        all.sort(Comparator.comparingLong((HistoryEvent e) -> e.op().time()).thenComparing(HistoryEvent::source)
                .thenComparingLong(HistoryEvent::sequence));
        IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults().toBuilder()
                .consistencyModels(Set.of(ConsistencyModel.of("serializable"))).build(), new AtomTable());
        long index = 0;
        for (HistoryEvent e : all) {
            Op op = e.op();
            checker.accept(new Op(index++, op.time(), op.type(), op.process(), op.value()));
        }
        return checker.finish();
    }
}

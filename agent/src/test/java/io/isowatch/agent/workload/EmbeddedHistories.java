package io.isowatch.agent.workload;

import io.isowatch.agent.client.EmbeddedStoreClient;
import io.isowatch.agent.recorder.HistoryRecorder;
import io.isowatch.agent.recorder.InMemoryEventLog;
import io.isowatch.agent.store.EmbeddedStore;
import io.isowatch.agent.store.StoreOptions;
import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Verdict;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;

import java.util.List;
import java.util.Set;

/** Runs workloads against the embedded store and judges the histories with the incremental checker. */
final class EmbeddedHistories {

    private EmbeddedHistories() {
    }

    /** A recorded history and what the run did. */
    record Run(List<Op> ops, WorkloadResult result, EmbeddedStore store) {
    }

    static Run run(StoreOptions store, WorkloadOptions workload) {
        EmbeddedStore s = new EmbeddedStore(store);
        InMemoryEventLog log = new InMemoryEventLog();
        HistoryRecorder recorder = new HistoryRecorder("test-agent", log);
        try {
            WorkloadResult result = new WorkloadRunner(workload, EmbeddedStoreClient.factory(s), recorder).run();
            return new Run(log.ops(), result, s);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    static Verdict check(List<Op> ops, String model) {
        IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults().toBuilder()
                .consistencyModels(Set.of(ConsistencyModel.of(model))).build(),
                new AtomTable());
        ops.forEach(checker::accept);
        return checker.finish();
    }
}

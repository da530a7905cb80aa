package io.isowatch.agent.workload;

import io.isowatch.agent.store.IsolationLevel;
import io.isowatch.agent.store.StoreOptions;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.graph.DependencyGraph;
import io.isowatch.graph.EdgeKind;
import io.isowatch.history.AtomTable;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Set;

class ExploreSiTest {
    @Test
    void explore() {
        for (int round = 0; round < 3; round++) {
            StoreOptions so = StoreOptions.of(IsolationLevel.SNAPSHOT_ISOLATION).withOperationDelayNanos(20_000);
            WorkloadOptions wo = WorkloadOptions.defaults().withConcurrency(8).withKeyCount(4)
                    .withTxnLimit(5000).withDuration(Duration.ofSeconds(20)).withSeed(round);
            EmbeddedHistories.Run run = EmbeddedHistories.run(so, wo);
            IncrementalChecker c = new IncrementalChecker(CheckerOptions.defaults().withModels(Set.of("snapshot-isolation")),
                    new AtomTable());
            run.ops().forEach(c::accept);
            var v = c.finish();
            DependencyGraph g = c.graph();
            int n = g.nodeCount();
            // product graph: state 0 = last edge base, 1 = last edge rw
            int[] indeg = new int[2 * n];
            for (int u = 0; u < n; u++) {
                for (int e = g.firstOut(u); e >= 0; e = g.nextOut(e)) {
                    int t = g.target(e);
                    EdgeKind k = g.kind(e);
                    if (k == EdgeKind.WW || k == EdgeKind.WR) { indeg[2 * t]++; indeg[2 * t]++; }
                    else if (k == EdgeKind.RW) { indeg[2 * t + 1]++; }
                }
            }
            ArrayDeque<Integer> q = new ArrayDeque<>();
            for (int i = 0; i < 2 * n; i++) if (indeg[i] == 0) q.add(i);
            int removed = 0;
            while (!q.isEmpty()) {
                int x = q.poll(); removed++;
                int u = x / 2; int st = x % 2;
                for (int e = g.firstOut(u); e >= 0; e = g.nextOut(e)) {
                    int t = g.target(e);
                    EdgeKind k = g.kind(e);
                    if (k == EdgeKind.WW || k == EdgeKind.WR) { if (--indeg[2 * t] == 0) q.add(2 * t); }
                    else if (k == EdgeKind.RW && st == 0) { if (--indeg[2 * t + 1] == 0) q.add(2 * t + 1); }
                }
            }
            System.out.println("SI round " + round + ": " + v.valid() + " " + v.anomalyTypes()
                    + " pathStateProductCycle=" + (removed < 2 * n) + " nodes=" + n);
        }
    }
}

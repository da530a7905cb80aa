package io.isowatch.agent.workload;

import io.isowatch.agent.store.IsolationLevel;
import io.isowatch.agent.store.StoreOptions;
import io.isowatch.checker.Verdict;
import org.junit.jupiter.api.Test;

import java.time.Duration;

class ExploreSiTest {
    @Test
    void explore() {
        int[][] combos = {{4, 4, 50}, {6, 4, 75}, {8, 4, 75}, {5, 3, 70}, {10, 4, 80}};
        for (int[] c : combos) {
            int g2 = 0, fallback = 0, invalid = 0;
            long t0 = System.nanoTime();
            for (int round = 0; round < 6; round++) {
                StoreOptions so = StoreOptions.of(IsolationLevel.SNAPSHOT_ISOLATION).withFaults(0.05, 0.01, 0);
                WorkloadOptions wo = WorkloadOptions.defaults().withConcurrency(8).withKeyCount(c[0])
                        .withTxnLength(2, c[1]).withReadProbability(c[2] / 100.0)
                        .withTxnLimit(5000).withDuration(Duration.ofSeconds(20)).withSeed(round);
                EmbeddedHistories.Run run = EmbeddedHistories.run(so, wo);
                Verdict si = EmbeddedHistories.check(run.ops(), "snapshot-isolation");
                Verdict ser = EmbeddedHistories.check(run.ops(), "serializable");
                if (ser.anomalyTypes().toString().contains("G2-item")) g2++;
                if (si.anomalyTypes().toString().contains("cycle-exists")) fallback++;
                if (si.valid() != io.isowatch.checker.Validity.TRUE) invalid++;
            }
            System.out.println("keys=" + c[0] + " len=2.." + c[1] + " read=" + c[2] + "%: G2 " + g2 + "/6, fallback " + fallback
                    + "/6 invalid " + invalid + " in " + (System.nanoTime() - t0) / 1_000_000 + "ms");
        }
    }
}

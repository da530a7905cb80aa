package io.isowatch.agent.workload;

import io.isowatch.agent.store.IsolationLevel;
import io.isowatch.agent.store.StoreOptions;
import io.isowatch.checker.Verdict;
import io.isowatch.gen.KeyDistribution;
import org.junit.jupiter.api.Test;

import java.time.Duration;

class ExploreLevelsTest {
    @Test
    void explore() {
        for (IsolationLevel level : IsolationLevel.values()) {
            for (long delay : new long[] {0, 20_000}) {
                long t0 = System.nanoTime();
                StoreOptions so = StoreOptions.of(level).withOperationDelayNanos(delay)
                        .withFaults(level == IsolationLevel.READ_UNCOMMITTED ? 0.2 : 0, 0.01, 0);
                WorkloadOptions wo = WorkloadOptions.defaults().withConcurrency(8).withKeyCount(4)
                        .withTxnLimit(5000).withDuration(Duration.ofSeconds(20)).withSeed(1)
                        .withReadProbability(0.5).withTxnLength(1, 4);
                EmbeddedHistories.Run run = EmbeddedHistories.run(so, wo);
                long t1 = System.nanoTime();
                StringBuilder sb = new StringBuilder(level + " delay=" + delay + " " + run.result()
                        + " run=" + (t1 - t0) / 1_000_000 + "ms");
                for (String m : new String[] {"strict-serializable", "serializable", "snapshot-isolation",
                        "read-committed", "read-uncommitted"}) {
                    Verdict v;
                    try {
                        v = EmbeddedHistories.check(run.ops(), m);
                    } catch (RuntimeException e) {
                        String f = "/tmp/crash-" + level + "-" + delay + "-" + m + ".jsonl";
                        try (var w = io.isowatch.agent.recorder.JsonLinesEventLog.open(java.nio.file.Path.of(f))) {
                            long seq = 0;
                            for (var op : run.ops()) w.append(new io.isowatch.history.HistoryEvent("x", seq++, op));
                        }
                        sb.append("\n   ").append(m).append(": CRASH ").append(e).append(" -> ").append(f);
                        continue;
                    }
                    sb.append("\n   ").append(m).append(": ").append(v.valid()).append(' ').append(v.anomalyTypes());
                }
                sb.append("\n   check=").append((System.nanoTime() - t1) / 1_000_000).append("ms");
                System.out.println(sb);
            }
        }
    }
}

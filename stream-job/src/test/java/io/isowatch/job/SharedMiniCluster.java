package io.isowatch.job;

import org.apache.flink.runtime.testutils.MiniClusterResourceConfiguration;
import org.apache.flink.test.junit5.MiniClusterExtension;

/**
 * The Flink MiniCluster of the job's integration tests: one task manager with two slots, so
 * jobs run at parallelism 2 and records cross the network (and its serializers) at keyBy.
 * Register {@link #EXTENSION} with {@code @RegisterExtension} in a static field.
 */
public final class SharedMiniCluster {

    public static final MiniClusterExtension EXTENSION = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(1)
                    .setNumberSlotsPerTaskManager(2)
                    .build());

    private SharedMiniCluster() {
    }
}

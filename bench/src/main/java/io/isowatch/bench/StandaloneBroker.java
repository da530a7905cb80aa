package io.isowatch.bench;

import io.isowatch.localkafka.InJvmKafka;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A KRaft broker in a process of its own, for runs whose job and agent are killed and restarted
 * around it ({@code bench/soak-job-kill.sh}). Usage: {@code StandaloneBroker BOOTSTRAP_FILE
 * TOPIC:PARTITIONS...}; writes the bootstrap address to the file once the topics exist, then runs
 * until the process is stopped.
 */
public final class StandaloneBroker {

    private StandaloneBroker() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: StandaloneBroker BOOTSTRAP_FILE [TOPIC:PARTITIONS ...]");
            System.exit(255);
        }
        InJvmKafka kafka = InJvmKafka.startDedicated();
        for (int i = 1; i < args.length; i++) {
            String[] topic = args[i].split(":");
            kafka.createTopic(topic[0], topic.length > 1 ? Integer.parseInt(topic[1]) : 1);
        }
        Path ready = Path.of(args[0]);
        Path partial = ready.resolveSibling(ready.getFileName() + ".tmp");
        Files.writeString(partial, kafka.bootstrapServers());
        Files.move(partial, ready);
        Thread.currentThread().join();
    }
}

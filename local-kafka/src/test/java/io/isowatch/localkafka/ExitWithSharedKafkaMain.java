package io.isowatch.localkafka;

/**
 * The child JVM of {@link InJvmKafkaExitTest}: starts the shared cluster, uses it, prints the
 * cluster's bootstrap address and exits with the cluster still running, as a test JVM does.
 */
public final class ExitWithSharedKafkaMain {

    private ExitWithSharedKafkaMain() {
    }

    public static void main(String[] args) {
        InJvmKafka kafka = InJvmKafka.shared();
        kafka.createTopic("exit-test", 1);
        System.out.println("running at " + kafka.bootstrapServers());
        System.exit(0);
    }
}

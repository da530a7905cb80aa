package io.isowatch.agentcli;

import io.isowatch.agent.client.jdbc.JdbcTarget;
import io.isowatch.agent.store.StoreOptions;
import io.isowatch.config.OptionDeclaration;
import io.isowatch.config.Topics;
import io.isowatch.config.ValueType;
import io.isowatch.config.ValueTypes;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * The run flags of the commands that make transactions, declared once (decision 0018): {@code agent
 * run} (against a database), {@code demo} (the embedded store, checked live) and {@code gen}
 * (simulated, written as a history). Where a command's default differs, the declaration says so
 * and why. The transaction shape's flags are {@code TxnShapeDeclarations}'.
 */
public final class RunDeclarations {

    private static final String AGENT_RUN = "agent run";
    private static final String DEMO = "demo";
    private static final String JOB = "job";
    private static final String GEN = "gen";
    private static final ValueType<Integer> POSITIVE = ValueTypes.integer(1, Integer.MAX_VALUE);
    private static final ValueType<Double> PROBABILITY = ValueTypes.decimal(0, 1);

    public static final OptionDeclaration<String> WORKLOAD = OptionDeclaration
            .key("workload", ValueTypes.oneOf("list-append", "rw-register")).defaultValue("list-append")
            .doc("the workload the clients run")
            .flags(List.of("--workload"), AGENT_RUN, GEN).build();

    /** The demo's embedded store; {@code agent run} names its embedded level in {@code --target}. */
    public static final OptionDeclaration<String> DEMO_ISOLATION = OptionDeclaration
            .key("isolation", ValueTypes.oneOf("strict-serializable", "serializable", "snapshot-isolation",
                    "read-committed", "read-uncommitted")).defaultValue("snapshot-isolation")
            .doc("the embedded store's isolation level")
            .flags(List.of("--isolation"), DEMO).build();

    public static final OptionDeclaration<String> DEMO_ALERTS_FILE = OptionDeclaration
            .key("alerts-file", ValueTypes.text("file"))
            .doc("also append each alert to this file as JSON lines (stable id, type, models, detection time and "
                    + "delay, the finding with its explanation)")
            .flags(List.of("--alerts-file"), DEMO).build();

    public static final OptionDeclaration<Integer> CONCURRENCY = OptionDeclaration.key("concurrency", POSITIVE)
            .defaultValue(10)
            .doc("client threads (`gen`: simulated client processes running at once)")
            .flags(List.of("--concurrency"), AGENT_RUN, DEMO, GEN)
            .commandDefault(DEMO, 8, "so that the demo leaves cores to its broker and Flink cluster")
            .build();

    public static final OptionDeclaration<Double> RATE = OptionDeclaration
            .key("rate", ValueTypes.decimal(0, Double.MAX_VALUE)).defaultValue(1000.0)
            .doc("transactions per second over all clients; `0` for as fast as possible (`agent run`)")
            .flags(List.of("--rate"), AGENT_RUN, DEMO)
            .commandDefault(DEMO, 2000.0, "so that an anomaly shows within its ten seconds")
            .build();

    public static final OptionDeclaration<Duration> DURATION = OptionDeclaration
            .key("duration", ValueTypes.duration(ChronoUnit.SECONDS)).defaultValue(Duration.ofSeconds(10))
            .doc("how long the clients run; `0` (`agent run`) until interrupted or `--txns`")
            .flags(List.of("--duration"), AGENT_RUN, DEMO).build();

    public static final OptionDeclaration<Long> TXNS = OptionDeclaration
            .key("txns", ValueTypes.wholeNumber(0, Long.MAX_VALUE)).defaultValue(0L)
            .doc("transactions: `gen` makes this many, `agent run` stops after this many (`0` for no limit). "
                    + "Closing reads (a read of each key when it retires, once its writers have completed, and of "
                    + "every key written at the end) come on top")
            .flags(List.of("-n", "--txns"), AGENT_RUN, GEN)
            .commandDefault(GEN, 1000L, "a history to check needs an end")
            .build();

    public static final OptionDeclaration<Long> SEED = OptionDeclaration
            .key("seed", ValueTypes.wholeNumber(Long.MIN_VALUE, Long.MAX_VALUE)).defaultValue(0L)
            .doc("random seed: of the workload, and of `agent run`'s embedded store faults; equal options and seed "
                    + "give the same `gen` history")
            .flags(List.of("--seed"), AGENT_RUN, DEMO, GEN).build();

    public static final OptionDeclaration<String> TABLE_PREFIX = OptionDeclaration
            .key("table-prefix", ValueTypes.text("name")).defaultValue(JdbcTarget.DEFAULT_TABLE_PREFIX)
            .doc("JDBC: tables `<prefix>_append` and `<prefix>_register`, created if missing and emptied at start")
            .flags(List.of("--table-prefix"), AGENT_RUN).build();

    public static final OptionDeclaration<String> TOPIC = OptionDeclaration
            .key("topic", ValueTypes.text("Kafka topic")).defaultValue(Topics.HISTORY)
            .doc("the Kafka topic the spool ships history events to (with `--bootstrap-servers`)")
            .flags(List.of("--topic"), AGENT_RUN).build();

    public static final OptionDeclaration<String> RECORD_FORMAT = OptionDeclaration
            .key("record-format", ValueTypes.oneOf("binary", "json")).defaultValue("binary")
            .doc("how each event goes into its Kafka record: `binary`, the spool's compact form, or `json`, one "
                    + "Jepsen op map with `agent` and `seq` fields, readable with any Kafka tool; the job reads both")
            .flags(List.of("--record-format"), AGENT_RUN).build();

    public static final OptionDeclaration<Duration> DRAIN_TIMEOUT = OptionDeclaration
            .key("drain-timeout", ValueTypes.duration(ChronoUnit.SECONDS)).defaultValue(Duration.ofSeconds(30))
            .doc("at the end, how long to wait for the spool to be shipped; events still unshipped then end the "
                    + "run with exit code 3 and stay in the spool for the next run")
            .flags(List.of("--drain-timeout"), AGENT_RUN).build();

    public static final OptionDeclaration<Double> FAIL_RATE = OptionDeclaration.key("fail-rate", PROBABILITY)
            .defaultValue(0.0)
            .doc("fault: chance a transaction's commit is refused and it completes `:fail` (`agent run`: the "
                    + "embedded store's)")
            .flags(List.of("--fail-rate"), AGENT_RUN, GEN).build();

    public static final OptionDeclaration<Double> LOST_ACK_RATE = OptionDeclaration.key("lost-ack-rate", PROBABILITY)
            .defaultValue(0.0)
            .doc("embedded store fault: chance a commit's acknowledgement is lost (`:info`)")
            .flags(List.of("--lost-ack-rate"), AGENT_RUN).build();

    public static final OptionDeclaration<Double> STALE_READ_RATE = OptionDeclaration
            .key("stale-read-rate", PROBABILITY).defaultValue(0.0)
            .doc("fault: chance a read returns one of the three previous versions of its key, as a lagging "
                    + "replica would (`agent run`: the embedded store's)")
            .flags(List.of("--stale-read-rate"), AGENT_RUN, GEN).build();

    public static final OptionDeclaration<Double> INFO_RATE = OptionDeclaration.key("info-rate", PROBABILITY)
            .defaultValue(0.0)
            .doc("chance a transaction's outcome is unknown (`:info`)")
            .flags(List.of("--info-rate"), GEN).build();

    public static final OptionDeclaration<Boolean> NO_CLOSING_READS = OptionDeclaration
            .key("no-closing-reads", ValueTypes.bool()).defaultValue(false)
            .doc("do not read a key once more when it retires (after its last writer completes), nor every key "
                    + "written at the end; without them, appends nobody read are placed only when the history ends")
            .flags(List.of("--no-closing-reads"), GEN).build();

    public static final OptionDeclaration<String> GEN_FORMAT = OptionDeclaration
            .key("format", ValueTypes.oneOf("json", "edn")).defaultValue("json")
            .doc("`json` (JSON lines) or `edn` (Jepsen's `history.edn`: one op map a line, as Elle prints ops)")
            .flags(List.of("--format"), GEN).build();

    public static final OptionDeclaration<String> GEN_OUTPUT = OptionDeclaration
            .key("output", ValueTypes.text("file")).noDefault("stdout")
            .doc("where to write the history (created or truncated)")
            .flags(List.of("-o", "--output"), GEN, "agent export").build();

    public static final OptionDeclaration<Integer> READ_ONLY_LAG = OptionDeclaration
            .key("read-only-lag", ValueTypes.integer(0, Integer.MAX_VALUE))
            .defaultValue(StoreOptions.DEFAULT_READ_ONLY_LAG)
            .doc("embedded serializable: read-only transactions may read a snapshot this many commits old")
            .flags(List.of("--read-only-lag"), AGENT_RUN).build();

    /** No default: the flag's annotation keeps {@code -1}, "off", for the code. */
    public static final OptionDeclaration<Integer> METRICS_PORT = OptionDeclaration
            .key("metrics-port", ValueTypes.integer(0, 65535)).noDefault("off")
            .doc("serve Prometheus metrics on this port (`agent run`: `/metrics`, `0` for any free port; `demo` and "
                    + "`job`: the local Flink cluster's, the checker's among them); `--bind-address` chooses the address")
            .flags(List.of("--metrics-port"), AGENT_RUN, DEMO, JOB).build();

    public static final OptionDeclaration<String> BIND_ADDRESS = OptionDeclaration
            .key("bind-address", ValueTypes.text("address")).defaultValue(BindAddressFlag.DEFAULT)
            .doc("address the command's ports listen on: the metrics port, `demo`'s in-JVM Kafka broker, and the "
                    + "local Flink cluster (REST, blob server) of `demo` and `job`; `0.0.0.0` for every interface. "
                    + "The findings console has `--ui-bind`")
            .flags(List.of("--bind-address"), AGENT_RUN, DEMO, JOB).build();

    /** The run flags, in the docs' order. */
    public static final List<OptionDeclaration<?>> ALL = List.of(DEMO_ISOLATION, WORKLOAD, CONCURRENCY, RATE, DURATION, TXNS, SEED,
            TABLE_PREFIX, TOPIC, RECORD_FORMAT, DRAIN_TIMEOUT, FAIL_RATE, INFO_RATE, LOST_ACK_RATE,
            STALE_READ_RATE, NO_CLOSING_READS, READ_ONLY_LAG, METRICS_PORT, BIND_ADDRESS, GEN_FORMAT, GEN_OUTPUT, DEMO_ALERTS_FILE);

    private RunDeclarations() {
    }
}

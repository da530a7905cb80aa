package io.isowatch.agentcli;

import io.isowatch.agent.AgentOptions;
import io.isowatch.agent.AgentRuntime;
import io.isowatch.agent.client.ClientFactory;
import io.isowatch.agent.client.EmbeddedStoreClient;
import io.isowatch.agent.client.jdbc.JdbcClientFactory;
import io.isowatch.agent.client.jdbc.JdbcIsolation;
import io.isowatch.agent.client.jdbc.JdbcTarget;
import io.isowatch.agent.client.jdbc.JdbcTopology;
import io.isowatch.agent.recorder.HistoryMember;
import io.isowatch.agent.store.EmbeddedStore;
import io.isowatch.agent.store.IsolationLevel;
import io.isowatch.agent.store.StoreOptions;
import io.isowatch.agent.transport.ChronicleHistoryLog;
import io.isowatch.agent.transport.RecordFormat;
import io.isowatch.checker.Workload;
import io.isowatch.agent.workload.WorkloadOptions;
import io.isowatch.agent.workload.WorkloadProgress;
import io.isowatch.agent.workload.WorkloadResult;
import io.isowatch.agent.workload.WorkloadRunner;
import io.isowatch.config.Durations;
import io.isowatch.gen.KeyDistribution;
import io.isowatch.config.Topics;
import io.isowatch.history.codec.HistoryEventJson;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.stream.Collectors;

/**
 * {@code isowatch agent run}: runs an Elle-style workload against a target database, recording
 * every transaction through the agent's recorder into a Jepsen JSON-lines file, the durable
 * spool (shipped to Kafka when a broker is given), or both, with progress on stderr and
 * Prometheus metrics. The agent's faults print on stderr even with {@code -q}; a run that ends
 * with events unshipped exits {@link ExitCodes#UNSHIPPED}.
 */
@Command(name = "run", mixinStandardHelpOptions = true, addMethodSubcommands = false,
        description = {"Runs a list-append (or rw-register) workload against a database and records the history.",
                "Example: isowatch agent run --target embedded:snapshot-isolation --duration 10s "
                        + "--history-out h.jsonl && isowatch check -c snapshot-isolation h.jsonl"})
final class AgentRunCommand implements Callable<Integer> {

    private static final String EMBEDDED = "embedded:";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--target", required = true, descriptionKey = "target", paramLabel = "TARGET")
    List<String> targets;

    @Option(names = "--isolation", descriptionKey = "isolation", paramLabel = "LEVEL")
    String isolation;

    @Option(names = "--read-target", descriptionKey = "read-target", paramLabel = "URL")
    String readTarget;

    @Option(names = "--read-isolation", descriptionKey = "read-isolation", paramLabel = "LEVEL")
    String readIsolation;

    @Option(names = "--user", descriptionKey = "user", paramLabel = "USER")
    String user;

    @Option(names = "--password", descriptionKey = "password", paramLabel = "PASSWORD")
    String password;

    @Option(names = "--table-prefix", descriptionKey = "table-prefix", paramLabel = "NAME")
    String tablePrefix;

    @Option(names = "--workload", descriptionKey = "workload", paramLabel = "W")
    String workload;

    @Option(names = "--concurrency", descriptionKey = "concurrency", paramLabel = "N")
    int concurrency;

    @Option(names = "--rate", descriptionKey = "rate", paramLabel = "TXN_PER_S")
    double rate;

    @Option(names = "--duration", descriptionKey = "duration", paramLabel = "D")
    String duration;

    @Option(names = {"-n", "--txns"}, descriptionKey = "txns", paramLabel = "N")
    long txns;

    @Mixin
    TxnShapeFlags shape;

    @Option(names = "--seed", descriptionKey = "seed", paramLabel = "S")
    long seed;

    @Option(names = "--fail-rate", descriptionKey = "fail-rate", paramLabel = "P")
    double failRate;

    @Option(names = "--lost-ack-rate", descriptionKey = "lost-ack-rate", paramLabel = "P")
    double lostAckRate;

    @Option(names = "--stale-read-rate", descriptionKey = "stale-read-rate", paramLabel = "P")
    double staleReadRate;

    @Option(names = "--read-only-lag", descriptionKey = "read-only-lag", paramLabel = "N")
    int readOnlyLag;

    @Option(names = "--history-out", descriptionKey = "history-out", paramLabel = "FILE")
    Path historyOut;

    @Option(names = "--spool-dir", descriptionKey = "spool-dir", paramLabel = "DIR")
    Path spoolDir;

    @Option(names = "--bootstrap-servers", descriptionKey = "bootstrap-servers", paramLabel = "HOST:PORT,...")
    String bootstrapServers;

    @Option(names = "--topic", descriptionKey = "topic", paramLabel = "TOPIC")
    String topic;

    @Option(names = "--record-format", descriptionKey = "record-format", paramLabel = "F")
    String recordFormat;

    @Option(names = "--drain-timeout", descriptionKey = "drain-timeout", paramLabel = "D")
    String drainTimeout;

    /** Declared without a default ("off"); {@code -1} is off to the code. */
    @Option(names = "--metrics-port", descriptionKey = "metrics-port", defaultValue = "-1", paramLabel = "P")
    int metricsPort;

    @Mixin
    BindAddressFlag bind;

    @Option(names = "--agent-id", descriptionKey = "agent-id", paramLabel = "ID")
    String agentId;

    @Option(names = "--history", descriptionKey = "history", paramLabel = "NAME")
    String history;

    /** Declared without a default: required with --history, refused without it. */
    @Option(names = "--member", descriptionKey = "member", paramLabel = "M")
    Integer member;

    @Option(names = "--clock-offset", descriptionKey = "clock-offset", paramLabel = "D")
    String clockOffset;

    @Option(names = {"-q", "--quiet"}, descriptionKey = "quiet")
    boolean quiet;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        HistoryMember shared = historyMember();
        Duration offset;
        try {
            offset = AgentDeclarations.CLOCK_OFFSET.type().parse("--clock-offset", clockOffset);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        WorkloadOptions options = workloadOptions(shared);
        ClientFactory clients = clients(options);
        JdbcClientFactory jdbc = clients instanceof JdbcClientFactory j ? j : null;
        if (jdbc != null && !quiet) {
            JdbcTopology t = jdbc.topology();
            err.printf("isowatch: connected to %s%s, isolation %s (the server reports %s); tables %s and %s %s%n",
                    jdbc.serverDescription(), t.nodes().size() == 1 ? "" : " (" + t.nodes().size() + " nodes)",
                    jdbc.target().isolation().cliName(), jdbc.serverIsolation(), jdbc.target().appendTable(),
                    jdbc.target().registerTable(), history == null ? "emptied"
                            : "kept, shared by the agents of history " + history + " (begin a history on tables "
                            + "without another run's rows: a new --table-prefix, or empty them first)");
            if (t.readNode() != null) {
                err.printf("isowatch: read-only transactions on %s, isolation %s (the server reports %s)%n",
                        t.readNode().redactedUrl(), t.readNode().isolation().cliName(), jdbc.readServerIsolation());
            }
            err.flush();
        }
        Duration drain;
        try {
            drain = Durations.parse("--drain-timeout", drainTimeout);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        if (bootstrapServers != null && spoolDir == null) {
            throw usage("--bootstrap-servers ships from the durable spool: give --spool-dir too");
        }
        RecordFormat format;
        try {
            format = RecordFormat.parse(recordFormat);
        } catch (IllegalArgumentException e) {
            throw usage("--record-format: " + e.getMessage());
        }
        AgentOptions agentOptions;
        try {
            agentOptions = new AgentOptions(agentId, spoolDir, historyOut, bootstrapServers, topic, metricsPort,
                    format, bind.address(), shared, offset);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        AgentRuntime agent;
        try {
            // Faults and recoveries print whatever -q says: a quiet run must not fail silently.
            agent = AgentRuntime.start(agentOptions, notice -> {
                err.println("isowatch: " + notice);
                err.flush();
            });
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage()); // the spool belongs to another agent id
        }
        try (agent) {
            printStart(err, agent.agentId(), options, agent.metricsPort());
            String large = largeHistoryWarning(options);
            if (large != null) {
                err.println("isowatch agent " + agent.agentId() + ": " + large);
                err.flush();
            }
            WorkloadRunner runner = agent.runner(options, clients);
            if (!quiet) {
                runner.onProgress(p -> progress(err, p), Duration.ofSeconds(1), agent.backlog());
            }
            WorkloadResult result = agent.run(runner);
            long left = bootstrapServers == null ? 0 : agent.drain(drain);
            if (left > 0) {
                String problem = agent.shipperProblem();
                err.printf(Locale.ROOT, "isowatch: %,d event(s) not shipped to topic '%s' at %s: %s; they stay in the"
                        + " spool %s and ship on the next run on it (exit code %d)%n", left, topic, bootstrapServers,
                        problem != null ? problem : "the --drain-timeout of " + drainTimeout + " passed while shipping",
                        spoolDir, ExitCodes.UNSHIPPED);
                err.flush();
            }
            printResult(out, result, agent.spool());
            if (jdbc != null) {
                printFailures(out, jdbc);
            }
            return left > 0 ? ExitCodes.UNSHIPPED : ExitCodes.VALID;
        }
    }

    private ClientFactory clients(WorkloadOptions options) {
        String target = targets.get(0);
        if (target.startsWith("jdbc:")) {
            return jdbcClients(options);
        }
        if (!target.startsWith(EMBEDDED)) {
            throw usage("--target must be embedded:<isolation> or a JDBC URL, got '" + JdbcTarget.redact(target) + "'");
        }
        if (targets.size() > 1 || readTarget != null) {
            throw usage("--target " + target + " is the embedded store, a single node: several --target and "
                    + "--read-target apply to JDBC targets");
        }
        if (isolation != null || user != null || password != null || readIsolation != null) {
            throw usage("--isolation, --read-isolation, --user and --password apply to JDBC targets; an embedded "
                    + "target names its isolation itself, e.g. embedded:snapshot-isolation");
        }
        try {
            IsolationLevel level = IsolationLevel.fromName(target.substring(EMBEDDED.length()));
            StoreOptions store = StoreOptions.of(level).toBuilder().faults(failRate, lostAckRate, staleReadRate)
                    .readOnlyLag(readOnlyLag).seed(seed).build();
            return EmbeddedStoreClient.factory(new EmbeddedStore(store));
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    /**
     * Connects to the JDBC targets (which checks reachability, credentials and privileges of each
     * and prepares the tables); a failure ends the run with the factory's one-line message.
     */
    private ClientFactory jdbcClients(WorkloadOptions options) {
        if (failRate != 0 || lostAckRate != 0 || staleReadRate != 0) {
            throw usage("--fail-rate, --lost-ack-rate and --stale-read-rate inject faults into the embedded store; "
                    + "a JDBC target's faults are its own");
        }
        if (readIsolation != null && readTarget == null) {
            throw usage("--read-isolation sets the level of the --read-target, and there is none");
        }
        JdbcTopology topology;
        try {
            JdbcIsolation level = isolation == null ? JdbcIsolation.SERIALIZABLE : JdbcIsolation.fromName(isolation);
            JdbcIsolation readLevel = readIsolation == null ? null : JdbcIsolation.fromName(readIsolation);
            JdbcTarget first = JdbcTarget.of(targets.get(0), level, options.workload()).withCredentials(user, password)
                    .withTablePrefix(tablePrefix).withCredentialsFrom(System.getenv());
            topology = JdbcTopology.of(first, targets, readTarget, readLevel);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
        // The agents of one history share the tables: none may empty them under the others (see connect).
        return JdbcClientFactory.connect(topology, history == null);
    }

    private static void printFailures(PrintWriter out, JdbcClientFactory jdbc) {
        jdbc.failureCounts().forEach((reason, count) -> out.printf(Locale.ROOT, "  %-22s %,9d  e.g. %s%n", reason,
                count, jdbc.failureExamples().get(reason)));
        out.flush();
    }
    private WorkloadOptions workloadOptions(HistoryMember shared) {
        try {
            return WorkloadOptions.defaults().toBuilder()
                    .workload(workloadNamed(workload))
                    .concurrency(concurrency)
                    .rate(rate)
                    .duration(Durations.parse("--duration", duration))
                    .txnLimit(txns)
                    .shape(shape.toShape())
                    .seed(seed)
                    .firstKey(shared != null && targets.get(0).startsWith(EMBEDDED) ? embeddedFirstKey(shared) : 0)
                    .build();
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    /** The agent's place in the {@code --history}, or null without one; refuses a --member without it, or the reverse. */
    private HistoryMember historyMember() {
        if (history == null) {
            if (member != null) {
                throw usage("--member numbers this agent within a --history; give the history's name too");
            }
            return null;
        }
        if (member == null) {
            throw usage("--history " + history + " needs --member M, this agent's own number in the history (0 to "
                    + HistoryMember.MAX_MEMBER + ", distinct per agent), which keeps its processes and values apart "
                    + "from the other agents'");
        }
        try {
            return new HistoryMember(history, member);
        } catch (IllegalArgumentException e) {
            throw usage("--history/--member: " + e.getMessage());
        }
    }

    /**
     * The first key of a member whose target is the embedded store. Each agent's embedded store is
     * its own, so agents of one history cannot share keys there: a key read on one store would
     * lack the elements the others appended to theirs, which the checker rightly calls an anomaly.
     * Member M's keys start at M × 2^52; a resumed agent's shift ({@code AgentRuntime#firstKey},
     * 2^16 per earlier event) stays below 2^52 for 2^36 earlier events.
     */
    static long embeddedFirstKey(HistoryMember shared) {
        return (long) shared.member() << 52;
    }

    private static Workload workloadNamed(String name) {
        Workload w = Workload.byElleName(name.trim());
        if (w == null) {
            throw new IllegalArgumentException("unknown workload '" + name + "'; expected list-append or rw-register");
        }
        return w;
    }

    /**
     * The line that warns of a very large history: clients that run as fast as the target allows
     * (no --rate) with no --txns bound make as many transactions as the run's time lets them,
     * hundreds of thousands in seconds against an embedded database, and without --duration
     * without end. Null for a bounded run. Said even with --quiet: it is no progress line.
     */
    static String largeHistoryWarning(WorkloadOptions o) {
        if (o.rate() != 0 || o.txnLimit() != 0) {
            return null;
        }
        return "no --rate limit and no --txns bound: the clients run as fast as the target allows, "
                + (o.duration().isZero() ? "until interrupted" : "for the whole --duration")
                + ", and the history may be very large (hundreds of thousands of transactions in seconds against an "
                + "embedded database); bound it with --txns N or --rate TXN_PER_S";
    }

    private void printStart(PrintWriter err, String id, WorkloadOptions o, int metricsPort) {
        if (quiet) {
            return;
        }
        err.printf("isowatch agent %s%s: %s against %s, %d clients, %s txn/s, %s%s%n", id,
                history == null ? "" : " (member " + member + " of history " + history + ")", o.workload().elleName(),
                targets.stream().map(JdbcTarget::redact).collect(Collectors.joining(", "))
                        + (readTarget == null ? "" : " (reads on " + JdbcTarget.redact(readTarget) + ")"),
                o.concurrency(), o.rate() == 0 ? "unlimited" : String.format(Locale.ROOT, "%,.0f", o.rate()),
                o.duration().isZero() ? "no time limit" : "for " + o.duration().toString().substring(2).toLowerCase(
                        Locale.ROOT), metricsPort < 0 ? "" : "; metrics at http://" + bind.urlHost() + ":"
                        + metricsPort + "/metrics");
        err.flush();
    }

    private static void progress(PrintWriter err, WorkloadProgress p) {
        if (p.finished()) {
            return;
        }
        err.printf(Locale.ROOT, "  [%6.1f s] %,8.0f txn/s  ok %,d  fail %,d  info %,d%s%n",
                p.elapsed().toMillis() / 1000.0, p.txnPerSecond(), p.ok(), p.fail(), p.info(),
                p.backlog() < 0 ? "" : String.format(Locale.ROOT, "  spool backlog %,d", p.backlog()));
        err.flush();
    }

    private void printResult(PrintWriter out, WorkloadResult r, ChronicleHistoryLog spool) {
        out.printf(Locale.ROOT, "%,d transactions in %.1f s, and %,d closing reads (%,.0f txn/s in all): %,d ok, "
                        + "%,d fail, %,d info; %,d processes%n", r.txns() - r.closingReads(),
                r.elapsed().toMillis() / 1000.0, r.closingReads(), r.txnPerSecond(), r.ok(), r.fail(), r.info(),
                r.processes());
        if (historyOut != null) {
            out.println("history: " + historyOut);
        }
        if (spool != null) {
            out.printf("spool: %s (%,d event(s) not shipped)%n", spool.directory(), spool.backlog());
        }
        out.flush();
    }
    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}

package io.isowatch.cli;

import io.isowatch.agent.client.ClientFactory;
import io.isowatch.agent.client.EmbeddedStoreClient;
import io.isowatch.agent.client.jdbc.JdbcClientFactory;
import io.isowatch.agent.client.jdbc.JdbcIsolation;
import io.isowatch.agent.client.jdbc.JdbcTarget;
import io.isowatch.agent.client.jdbc.JdbcTopology;
import io.isowatch.agent.metrics.AgentMetrics;
import io.isowatch.agent.recorder.EventLog;
import io.isowatch.agent.recorder.HistoryRecorder;
import io.isowatch.agent.recorder.JsonLinesEventLog;
import io.isowatch.agent.recorder.TeeEventLog;
import io.isowatch.agent.store.EmbeddedStore;
import io.isowatch.agent.store.IsolationLevel;
import io.isowatch.agent.store.StoreOptions;
import io.isowatch.agent.transport.ChronicleHistoryLog;
import io.isowatch.agent.transport.KafkaShipper;
import io.isowatch.checker.Workload;
import io.isowatch.agent.workload.WorkloadOptions;
import io.isowatch.agent.workload.WorkloadProgress;
import io.isowatch.agent.workload.WorkloadResult;
import io.isowatch.agent.workload.WorkloadRunner;
import io.isowatch.config.Durations;
import io.isowatch.gen.KeyDistribution;
import io.isowatch.history.HistoryEvent;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;
import java.util.stream.Collectors;

/**
 * {@code isowatch agent run}: runs an Elle-style workload against a target database, recording
 * every transaction through the agent's recorder into a Jepsen JSON-lines file, the durable
 * spool (shipped to Kafka when a broker is given), or both, with progress on stderr and
 * Prometheus metrics.
 */
@Command(name = "run", mixinStandardHelpOptions = true,
        description = {"Runs a list-append (or rw-register) workload against a database and records the history.",
                "Example: isowatch agent run --target embedded:snapshot-isolation --duration 10s "
                        + "--history-out h.jsonl && isowatch check -c snapshot-isolation h.jsonl"})
final class AgentRunCommand implements Callable<Integer> {

    private static final String EMBEDDED = "embedded:";

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--target", required = true, paramLabel = "TARGET",
            description = "embedded:<isolation> (strict-serializable, serializable, snapshot-isolation, "
                    + "read-committed, read-uncommitted), or a JDBC URL: jdbc:postgresql://HOST[:PORT]/DB, "
                    + "jdbc:mariadb://HOST[:PORT]/DB, jdbc:mysql://HOST[:PORT]/DB, jdbc:h2:{mem|file|tcp}:…, "
                    + "jdbc:hsqldb:{mem|file|hsql}:…, jdbc:derby:{memory:NAME|DIR}[;create=true] or "
                    + "jdbc:sqlite:FILE[?journal_mode=WAL&busy_timeout=MS]. Repeat it for the nodes of one JDBC database (same engine): "
                    + "clients are spread over them round-robin, each on one node for the whole run; the first "
                    + "creates and empties the tables. Commas do not separate targets (a JDBC URL may hold them).")
    List<String> targets;

    @Option(names = "--isolation", paramLabel = "LEVEL",
            description = "JDBC targets: serializable (default), repeatable-read, read-committed or read-uncommitted, "
                    + "mapped to the database's own level of that name; snapshot for H2's SNAPSHOT.")
    String isolation;

    @Option(names = "--read-target", paramLabel = "URL",
            description = "JDBC targets: run transactions that only read on this server (a replica) instead; "
                    + "it must be the same engine and show what the first --target writes.")
    String readTarget;

    @Option(names = "--read-isolation", paramLabel = "LEVEL",
            description = "The --read-target's isolation level (default: --isolation). A PostgreSQL hot standby "
                    + "refuses serializable: use repeatable-read.")
    String readIsolation;

    @Option(names = "--user", paramLabel = "USER",
            description = "JDBC targets: the database user (default: $ISOWATCH_DB_USER, for PostgreSQL also $PGUSER, "
                    + "else the URL's).")
    String user;

    @Option(names = "--password", paramLabel = "PASSWORD",
            description = "JDBC targets: the password (default: $ISOWATCH_DB_PASSWORD, for PostgreSQL also "
                    + "$PGPASSWORD). Never logged; prefer the environment, which stays out of the process list.")
    String password;

    @Option(names = "--table-prefix", defaultValue = JdbcTarget.DEFAULT_TABLE_PREFIX, paramLabel = "NAME",
            description = "JDBC targets: isowatch creates and empties NAME_append and NAME_register "
                    + "(default: ${DEFAULT-VALUE}).")
    String tablePrefix;

    @Option(names = "--workload", defaultValue = "list-append", paramLabel = "W",
            description = "list-append or rw-register (default: ${DEFAULT-VALUE}).")
    String workload;

    @Option(names = "--concurrency", defaultValue = "10", paramLabel = "N",
            description = "Client threads (default: ${DEFAULT-VALUE}).")
    int concurrency;

    @Option(names = "--rate", defaultValue = "1000", paramLabel = "TXN_PER_S",
            description = "Transactions per second over all clients; 0 for as fast as possible "
                    + "(default: ${DEFAULT-VALUE}).")
    double rate;

    @Option(names = "--duration", defaultValue = "10s", paramLabel = "D",
            description = "How long to run: 30 (seconds), 500ms, 10s, 5m, 2h or ISO-8601 (PT1M); 0 runs until "
                    + "interrupted or --txns (default: ${DEFAULT-VALUE}).")
    String duration;

    @Option(names = {"-n", "--txns"}, defaultValue = "0", paramLabel = "N",
            description = "Stop after this many transactions; 0 for no limit (default: ${DEFAULT-VALUE}).")
    long txns;







    @Mixin
    TxnShapeFlags shape;

    @Option(names = "--seed", defaultValue = "0", paramLabel = "S",
            description = "Seeds the workload generator and the embedded store's faults (default: ${DEFAULT-VALUE}).")
    long seed;

    @Option(names = "--fail-rate", defaultValue = "0", paramLabel = "P",
            description = "Embedded store fault: chance a commit is refused (:fail) (default: ${DEFAULT-VALUE}).")
    double failRate;

    @Option(names = "--lost-ack-rate", defaultValue = "0", paramLabel = "P",
            description = "Embedded store fault: chance a commit's acknowledgement is lost (:info) "
                    + "(default: ${DEFAULT-VALUE}).")
    double lostAckRate;

    @Option(names = "--stale-read-rate", defaultValue = "0", paramLabel = "P",
            description = "Embedded store fault: chance a read returns one of the three previous versions, "
                    + "breaking the isolation level (default: ${DEFAULT-VALUE}).")
    double staleReadRate;

    @Option(names = "--read-only-lag", defaultValue = "" + StoreOptions.DEFAULT_READ_ONLY_LAG, paramLabel = "N",
            description = "Embedded serializable: read-only transactions read a snapshot up to N commits old "
                    + "(default: ${DEFAULT-VALUE}).")
    int readOnlyLag;

    @Option(names = "--history-out", paramLabel = "FILE",
            description = "Write the history here as Jepsen JSON lines (for isowatch check or elle-cli).")
    Path historyOut;

    @Option(names = "--spool-dir", paramLabel = "DIR",
            description = "Record into a durable Chronicle Queue spool in DIR (resumed if it exists).")
    Path spoolDir;

    @Option(names = "--bootstrap-servers", paramLabel = "HOST:PORT,...",
            description = "Ship the spool to Kafka (needs --spool-dir).")
    String bootstrapServers;

    @Option(names = "--topic", defaultValue = "isowatch.history", paramLabel = "TOPIC",
            description = "Kafka topic for history events (default: ${DEFAULT-VALUE}).")
    String topic;

    @Option(names = "--drain-timeout", defaultValue = "30s", paramLabel = "D",
            description = "At the end, wait this long for the spool to be shipped (default: ${DEFAULT-VALUE}).")
    String drainTimeout;

    @Option(names = "--metrics-port", defaultValue = "-1", paramLabel = "P",
            description = "Serve Prometheus metrics at http://0.0.0.0:P/metrics (0: any free port); off by default.")
    int metricsPort;

    @Option(names = "--agent-id", paramLabel = "ID",
            description = "This agent's id in every event (default: the spool's, else <host>-<pid>-<start second>).")
    String agentId;

    @Option(names = {"-q", "--quiet"}, description = "No progress on stderr.")
    boolean quiet;

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        WorkloadOptions options = workloadOptions();
        ClientFactory clients = clients(options);
        JdbcClientFactory jdbc = clients instanceof JdbcClientFactory j ? j : null;
        if (jdbc != null && !quiet) {
            JdbcTopology t = jdbc.topology();
            err.printf("isowatch: connected to %s%s, isolation %s (the server reports %s); tables %s and %s emptied%n",
                    jdbc.serverDescription(), t.nodes().size() == 1 ? "" : " (" + t.nodes().size() + " nodes)",
                    jdbc.target().isolation().cliName(), jdbc.serverIsolation(), jdbc.target().appendTable(),
                    jdbc.target().registerTable());
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
        PrometheusRegistry registry = new PrometheusRegistry();
        AgentMetrics metrics = new AgentMetrics(registry);
        List<AutoCloseable> resources = new ArrayList<>();
        try {
            HTTPServer server = null;
            if (metricsPort >= 0) {
                server = AgentMetrics.serve(registry, metricsPort);
                resources.add(server);
            }
            List<EventLog> logs = new ArrayList<>();
            ChronicleHistoryLog spool = null;
            if (spoolDir != null) {
                spool = openSpool(metrics);
                logs.add(spool);
            }
            if (historyOut != null) {
                logs.add(JsonLinesEventLog.open(historyOut));
            }
            EventLog log = logs.isEmpty() ? new Discard() : logs.size() == 1 ? logs.get(0) : new TeeEventLog(logs);
            HistoryEvent last = spool == null ? null : spool.lastEvent();
            String id = agentId(last);
            HistoryRecorder recorder = HistoryRecorder.builder(id, log).metrics(metrics)
                    .firstSequence(last == null ? 0 : last.sequence() + 1).build();
            resources.add(0, recorder);
            KafkaShipper shipper = null;
            if (bootstrapServers != null) {
                shipper = KafkaShipper.start(spool, bootstrapServers, topic, metrics);
                resources.add(0, shipper);
            }
            LongSupplier backlog = spool == null ? null : spool::backlog;
            printStart(err, id, options, server);
            // Process ids start past every id an earlier run of this spool can have used (each
            // process recorded at least one event), so no process invokes again after an info.
            long earlierEvents = last == null ? 0 : last.sequence() + 1;
            WorkloadRunner runner = new WorkloadRunner(options.withFirstKey(firstKey(earlierEvents)), clients, recorder)
                    .firstProcess(earlierEvents);
            if (!quiet) {
                runner.onProgress(p -> progress(err, p), Duration.ofSeconds(1), backlog);
            }
            WorkloadResult result = runWithShutdownHook(runner);
            if (shipper != null) {
                drain(err, spool, shipper, drain);
            }
            printResult(out, result, spool);
            if (jdbc != null) {
                printFailures(out, jdbc);
            }
            return ExitCodes.VALID;
        } finally {
            closeAll(resources);
        }
    }

    /**
     * The first key of a run that continues a spool holding {@code earlierEvents} events. The
     * store is fresh, so its keys must be new to the history: an earlier run used keys below its
     * key count plus its retirements, at most its key count plus its events. Shifting by 16 bits
     * per earlier event clears that unless an earlier run had over 65,535 keys per event it
     * recorded; it overflows only past 2^47 events.
     */
    static long firstKey(long earlierEvents) {
        return earlierEvents << 16;
    }

    /** Opens the spool, naming the fix when Chronicle cannot run for want of the JVM's module flags. */
    private ChronicleHistoryLog openSpool(AgentMetrics metrics) {
        try {
            return ChronicleHistoryLog.open(spoolDir, metrics);
        } catch (AssertionError | LinkageError e) {
            // Chronicle reports missing --add-opens/--add-exports as an Error from its static setup.
            throw new IllegalStateException("cannot open the Chronicle spool in " + spoolDir + " (" + e
                    + "). Chronicle needs the JVM flags of the isowatch.jvm.flags property in the parent pom; "
                    + "run with JAVA_OPTS set to them", e);
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
            StoreOptions store = StoreOptions.of(level).withFaults(failRate, lostAckRate, staleReadRate)
                    .withReadOnlyLag(readOnlyLag).withSeed(seed);
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
        return JdbcClientFactory.connect(topology);
    }

    private static void printFailures(PrintWriter out, JdbcClientFactory jdbc) {
        jdbc.failureCounts().forEach((reason, count) -> out.printf(Locale.ROOT, "  %-22s %,9d  e.g. %s%n", reason,
                count, jdbc.failureExamples().get(reason)));
        out.flush();
    }

    private WorkloadOptions workloadOptions() {
        try {
            return WorkloadOptions.defaults()
                    .withWorkload(workloadNamed(workload))
                    .withConcurrency(concurrency)
                    .withRate(rate)
                    .withDuration(Durations.parse("--duration", duration))
                    .withTxnLimit(txns)
                    .withKeyCount(shape.keys)
                    .withMaxWritesPerKey(shape.maxWritesPerKey)
                    .withTxnLength(shape.minTxnLength, shape.maxTxnLength)
                    .withReadProbability(shape.readProbability)
                    .withKeyDistribution(KeyDistribution.fromElleName(shape.keyDistribution))
                    .withSeed(seed);
        } catch (IllegalArgumentException e) {
            throw usage(e.getMessage());
        }
    }

    private static Workload workloadNamed(String name) {
        Workload w = Workload.byElleName(name.trim());
        if (w == null) {
            throw new IllegalArgumentException("unknown workload '" + name + "'; expected list-append or rw-register");
        }
        return w;
    }

    private String agentId(HistoryEvent last) {
        if (last != null && agentId != null && !agentId.equals(last.source())) {
            throw usage("the spool in " + spoolDir + " belongs to agent '" + last.source() + "', not '" + agentId
                    + "': drop --agent-id to continue it, or use another --spool-dir");
        }
        if (agentId != null) {
            if (agentId.isEmpty()) {
                throw usage("--agent-id must not be empty");
            }
            return agentId;
        }
        if (last != null) {
            return last.source();
        }
        String host;
        try {
            host = InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            host = "agent";
        }
        return host + "-" + ProcessHandle.current().pid() + "-"
                + ManagementFactory.getRuntimeMXBean().getStartTime() / 1000;
    }

    /** Runs the workload; Ctrl-C stops it gracefully so that the files are closed properly. */
    private static WorkloadResult runWithShutdownHook(WorkloadRunner runner) throws InterruptedException {
        CountDownLatch finished = new CountDownLatch(1);
        Thread hook = new Thread(() -> {
            runner.stop();
            try {
                finished.await(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "isowatch-agent-shutdown");
        Runtime.getRuntime().addShutdownHook(hook);
        try {
            return runner.run();
        } finally {
            finished.countDown();
            try {
                Runtime.getRuntime().removeShutdownHook(hook);
            } catch (IllegalStateException e) {
                // Already shutting down: the hook is running and waits for the cleanup below.
            }
        }
    }

    private static void drain(PrintWriter err, ChronicleHistoryLog spool, KafkaShipper shipper, Duration timeout)
            throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (spool.backlog() > 0 && shipper.isRunning() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        if (spool.backlog() > 0) {
            err.printf("isowatch: %,d event(s) not shipped yet; they stay in the spool and ship on the next run%s%n",
                    spool.backlog(), shipper.failure() == null ? "" : " (shipper failed: "
                            + shipper.failure().getMessage() + ")");
        }
    }

    private void printStart(PrintWriter err, String id, WorkloadOptions o, HTTPServer server) {
        if (quiet) {
            return;
        }
        err.printf("isowatch agent %s: %s against %s, %d clients, %s txn/s, %s%s%n", id, o.workload().elleName(),
                targets.stream().map(JdbcTarget::redact).collect(Collectors.joining(", "))
                        + (readTarget == null ? "" : " (reads on " + JdbcTarget.redact(readTarget) + ")"),
                o.concurrency(), o.rate() == 0 ? "unlimited" : String.format(Locale.ROOT, "%,.0f", o.rate()),
                o.duration().isZero() ? "no time limit" : "for " + o.duration().toString().substring(2).toLowerCase(
                        Locale.ROOT), server == null ? "" : "; metrics at http://localhost:" + server.getPort()
                        + "/metrics");
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
        out.printf(Locale.ROOT, "%,d transactions in %.1f s (%,.0f txn/s): %,d ok, %,d fail, %,d info; %,d processes%n",
                r.txns(), r.elapsed().toMillis() / 1000.0, r.txnPerSecond(), r.ok(), r.fail(), r.info(), r.processes());
        if (historyOut != null) {
            out.println("history: " + historyOut);
        }
        if (spool != null) {
            out.printf("spool: %s (%,d event(s) not shipped)%n", spool.directory(), spool.backlog());
        }
        out.flush();
    }

    private static void closeAll(List<AutoCloseable> resources) throws Exception {
        Exception first = null;
        for (AutoCloseable r : resources) {
            try {
                r.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        if (first != null) {
            throw first;
        }
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    /** The event log when neither a file nor a spool is wanted (metrics and progress only). */
    private static final class Discard implements EventLog {
        @Override
        public void append(HistoryEvent event) {
        }

        @Override
        public void close() {
        }
    }
}

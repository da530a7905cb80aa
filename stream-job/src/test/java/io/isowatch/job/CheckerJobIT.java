package io.isowatch.job;

import io.isowatch.history.codec.BinaryEventCodec;
import io.isowatch.history.codec.HistoryEventJson;
import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.FindingId;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.CheckerOptionsReader;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Verdict;
import io.isowatch.explain.VerdictJson;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.history.AtomTable;
import io.isowatch.history.EventTimes;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.Op;
import io.isowatch.history.codec.HistoryReader;
import io.isowatch.job.PairingJobIT.Raw;
import io.isowatch.job.PairingJobIT.Replay;
import io.isowatch.job.serde.JobTypes;
import io.isowatch.sinks.Alert;
import io.isowatch.testing.Golden;
import io.isowatch.testing.Json;

import org.apache.flink.connector.datagen.source.DataGeneratorSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.test.junit5.MiniClusterExtension;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The whole job on Flink's MiniCluster with RocksDB and Kryo off, against {@code isowatch check}'s
 * engine run offline: every golden history, and generated histories, delivered shuffled through
 * parallel tasks as records of both forms the job reads (binary and JSON, alternately), give the
 * offline verdict (check's JSON, field for field) and stream the same findings, each once.
 */
class CheckerJobIT {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = SharedMiniCluster.EXTENSION;

    /** One history to replay: its agent id (the job's history key) and its ops. */
    record History(String agent, List<Op> ops, AtomTable atoms) {
    }

    /** What the offline engine says: the verdict JSON and the ids of the findings it streamed. */
    record Offline(Map<String, Object> verdict, Set<String> streamed) {
    }

    @Test
    void goldenHistories_shuffled_parallel_matchOfflineVerdicts() throws Exception {
        // One job per distinct set of checker options; each history is its own agent.
        Map<CheckerOptions, List<History>> groups = new LinkedHashMap<>();
        for (Golden.Case c : Golden.cases()) {
            groups.computeIfAbsent(c.checkerOptions(), o -> new ArrayList<>()).add(read(c));
        }
        int checked = 0;
        for (Map.Entry<CheckerOptions, List<History>> g : groups.entrySet()) {
            runAndCompare(g.getKey(), g.getValue(), new Random(g.getValue().size()), Integer.MAX_VALUE, "1h");
            checked += g.getValue().size();
        }
        assertEquals(Golden.cases().size(), checked);
    }

    @Test
    void generatedHistories_reorderedWithinTheBound_matchOfflineVerdicts() throws Exception {
        CheckerOptions options = CheckerOptions.defaults().toBuilder()
                .consistencyModels(Set.of(ConsistencyModel.of("serializable"))).build();
        List<History> histories = new ArrayList<>();
        for (long seed = 1; seed <= 4; seed++) {
            // Stale reads make real anomalies; 1 ms between events lets the watermark release
            // them batch by batch while later events are still arriving out of order.
            GeneratorOptions gen = GeneratorOptions.defaults().toBuilder().txnCount(1_500).seed(seed)
                    .staleReadRate(seed % 2 == 0 ? 0.0 : 0.02).build();
            List<Op> ops = new ArrayList<>();
            for (Op op : ListAppendGenerator.generate(gen)) {
                ops.add(new Op(op.index(), (op.index() + 1) * 1_000_000L, op.type(), op.process(), op.value()));
            }
            histories.add(new History("generated-" + seed, ops, new AtomTable()));
        }
        // Events move up to 40 ms of event time; the bound is 100 ms.
        runAndCompare(options, histories, new Random(7), 40, "100ms");
    }

    /**
     * The options golden histories do not exercise, read by the job as {@code check} reads them and
     * honoured alike: a cycle-search budget that runs out (the verdict becomes unknown), no model
     * with named anomalies ({@code -c none -a ...}), and rw-register with every version-order
     * source. Each run first makes sure the option changes check's own verdict, so the comparison
     * could fail.
     */
    @Test
    void generatedHistories_optionsGoldensLack_matchOfflineVerdicts() throws Exception {
        List<History> listAppend = generated("list-append", ListAppendGenerator::generate);
        CheckerOptions budget = CheckerOptions.defaults().toBuilder().cycleSearchBudget(2).build();
        assertChangesVerdict(budget, listAppend, "cycle-search-timeout");
        runAndCompare(budget, listAppend, new Random(11), 40, "100ms");

        CheckerOptions anomaliesOnly = CheckerOptions.defaults().toBuilder().consistencyModels(Set.of())
                .anomalies(Set.of("G1c")).build();
        assertChangesVerdict(anomaliesOnly, listAppend, null);
        runAndCompare(anomaliesOnly, listAppend, new Random(12), 40, "100ms");

        List<History> registers = generated("rw-register", io.isowatch.gen.RegisterGenerator::generate);
        CheckerOptions allSources = CheckerOptions.defaults().toBuilder()
                .workload(io.isowatch.checker.Workload.RW_REGISTER)
                .registers(new io.isowatch.checker.RegisterOptions(true, true, true)).build();
        assertChangesVerdict(allSources, registers, null);
        runAndCompare(allSources, registers, new Random(13), 40, "100ms");
    }

    /** Two generated histories with stale reads (so anomalies), one event per millisecond. */
    private static List<History> generated(String name, java.util.function.Function<GeneratorOptions, List<Op>> generator) {
        List<History> histories = new ArrayList<>();
        for (long seed = 21; seed <= 22; seed++) {
            GeneratorOptions gen = GeneratorOptions.defaults().toBuilder().txnCount(600).seed(seed)
                    .staleReadRate(0.05).build();
            List<Op> ops = new ArrayList<>();
            for (Op op : generator.apply(gen)) {
                ops.add(new Op(op.index(), (op.index() + 1) * 1_000_000L, op.type(), op.process(), op.value()));
            }
            histories.add(new History(name + "-" + seed, ops, new AtomTable()));
        }
        return histories;
    }

    /**
     * Check's verdict under {@code options} differs from its verdict under the defaults (for the
     * workload) for at least one of the histories, and, when {@code type} is given, names it.
     */
    private static void assertChangesVerdict(CheckerOptions options, List<History> histories, String type) {
        CheckerOptions plain = CheckerOptions.defaults().toBuilder().workload(options.workload()).build();
        boolean changed = false;
        for (History h : histories) {
            Map<String, Object> with = offline(options, h).verdict();
            changed |= !with.equals(offline(plain, h).verdict());
            if (type != null) {
                assertTrue(String.valueOf(with.get("anomaly-types")).contains(type), () -> h.agent() + ": " + with);
            }
        }
        assertTrue(changed, () -> "the options " + options + " change no verdict of these histories");
    }

    private void runAndCompare(CheckerOptions checks, List<History> histories, Random random, int displacement,
                               String maxOutOfOrderness) throws Exception {
        HistoryEventJson json = new HistoryEventJson();
        List<HistoryEvent> all = new ArrayList<>();
        Map<String, AtomTable> atomsOf = new java.util.HashMap<>();
        for (History h : histories) {
            atomsOf.put(h.agent(), h.atoms());
            for (Op op : h.ops()) {
                all.add(new HistoryEvent(h.agent(), op.index(), op));
            }
        }
        // Every other record in the agent's binary form, the rest as JSON: one topic may hold both.
        Map<String, BinaryEventCodec> binaryOf = new java.util.HashMap<>();
        atomsOf.forEach((agent, atoms) -> binaryOf.put(agent, new BinaryEventCodec(atoms)));
        List<Raw> raw = new ArrayList<>();
        for (HistoryEvent e : shuffle(all, random, displacement)) {
            raw.add(new Raw(0, raw.size(), raw.size() % 2 == 0 ? binaryOf.get(e.source()).encode(e)
                    : json.render(e, atomsOf.get(e.source()))));
        }
        // The checker's options travel as the job's own options, read as a deployed job reads them.
        Map<String, String> given = new LinkedHashMap<>(CheckerOptionsReader.write(checks));
        given.remove(CheckerOptionsReader.REORDER_WINDOW);
        given.putAll(Map.of(
                "parallelism", "2",
                "max-parallelism", "16",
                "checkpoint-interval", "0",
                "state-backend", "rocksdb",
                "max-out-of-orderness", maxOutOfOrderness));
        JobOptions options = JobOptions.parse(given);
        assertEquals(checks, options.checkerOptions());
        CollectingSink<Alert> alerts = new CollectingSink<>();
        CollectingSink<DeadLetter> deadLetters = new CollectingSink<>();
        CollectingSink<HistoryVerdict> verdicts = new CollectingSink<>();
        DataGeneratorSource<org.apache.flink.types.Either<DeadLetter, HistoryEvent>> source =
                new DataGeneratorSource<>(new Replay(raw), raw.size(), JobTypes.DECODED);
        StreamExecutionEnvironment env =
                StreamExecutionEnvironment.getExecutionEnvironment(CheckerJob.flinkConfiguration(options));
        new CheckerJob(options, source,
                JobSinks.of(List.of(alerts), deadLetters).withVerdicts(verdicts))
                .execute(env, "checker-it");

        assertTrue(deadLetters.values().isEmpty(), () -> deadLetters.values().toString());
        Map<String, String> byHistory = new TreeMap<>();
        for (HistoryVerdict v : verdicts.values()) {
            assertEquals(null, byHistory.put(v.history(), VerdictJson.toJson(v.verdict(), v.atoms(), Double.NaN)),
                    "one verdict per history: " + v.history());
        }
        assertEquals(histories.stream().map(History::agent).collect(Collectors.toCollection(TreeSet::new)),
                byHistory.keySet());
        Map<String, List<Alert>> alertsByHistory = new TreeMap<>();
        for (Alert a : alerts.values()) {
            alertsByHistory.computeIfAbsent(a.history(), k -> new ArrayList<>()).add(a);
        }
        assertTrue(byHistory.keySet().containsAll(alertsByHistory.keySet()), alertsByHistory::toString);
        for (History h : histories) {
            Offline offline = offline(checks, h);
            Map<String, Object> got = withoutSeconds(Json.object(byHistory.get(h.agent())));
            assertEquals(offline.verdict(), got, h.agent() + ": the job's verdict differs from check's");
            List<Alert> streamed = alertsByHistory.getOrDefault(h.agent(), List.of());
            Set<String> ids = streamed.stream().map(Alert::id).collect(Collectors.toSet());
            assertFalse(ids.isEmpty() && !offline.streamed().isEmpty(), h.agent());
            assertEquals(streamed.size(), ids.size(), h.agent() + ": a finding was alerted twice");
            assertEquals(offline.streamed(), ids, h.agent() + ": the job streamed other findings than check");
        }
    }

    /** The offline engine over the history in index order, as {@code isowatch check} runs it. */
    private static Offline offline(CheckerOptions checks, History h) {
        {
            AtomTable atoms = h.atoms();
            Set<String> streamed = new HashSet<>();
            List<Finding> found = new ArrayList<>();
            IncrementalChecker checker = new IncrementalChecker(checks, atoms, found::add);
            for (Op op : h.ops()) {
                checker.accept(op);
                found.forEach(f -> streamed.add(FindingId.of(f, atoms, h.agent())));
                found.clear();
            }
            Verdict v = checker.finish();
            found.forEach(f -> streamed.add(FindingId.of(f, atoms, h.agent())));
            return new Offline(withoutSeconds(Json.object(VerdictJson.toJson(v, atoms, Double.NaN))), streamed);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> withoutSeconds(Map<String, Object> verdict) {
        ((Map<String, Object>) verdict.get("stats")).remove("seconds");
        return verdict;
    }

    /**
     * All events in a random order (unbounded displacement), or in time order with each event
     * moved by at most {@code displacement} ms of event time: the histories interleave as
     * agents' events do in one topic.
     */
    private static List<HistoryEvent> shuffle(List<HistoryEvent> events, Random random, int displacement) {
        List<HistoryEvent> out = new ArrayList<>(events);
        if (displacement == Integer.MAX_VALUE) {
            Collections.shuffle(out, random);
            return out;
        }
        Map<HistoryEvent, Long> lagged = new java.util.IdentityHashMap<>();
        for (HistoryEvent e : out) {
            lagged.put(e, e.op().time() + random.nextInt(displacement + 1) * 1_000_000L);
        }
        out.sort(java.util.Comparator.comparingLong(lagged::get));
        return out;
    }

    /**
     * A golden history as the job meets it: each op shipped as the agent's JSON and read back, so
     * the offline check and the job see the same ops (an EDN golden's keywords arrive as strings,
     * since JSON has no keywords; ops without a time get one, as {@code replay} gives them).
     */
    private static History read(Golden.Case c) {
        AtomTable asWritten = new AtomTable();
        AtomTable atoms = new AtomTable();
        HistoryEventJson json = new HistoryEventJson();
        List<Op> ops = new ArrayList<>();
        for (Op op : EventTimes.filledIn(c.ops(asWritten))) {
            byte[] shipped = json.render(new HistoryEvent(c.name(), op.index(), op), asWritten);
            try (HistoryReader reader = HistoryReader.ofJson(c.name(), shipped, atoms)) {
                ops.add(reader.next());
            }
        }
        return new History(c.name(), ops, atoms);
    }
}

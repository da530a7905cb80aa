package io.isowatch.agent;

import io.isowatch.agent.client.EmbeddedStoreClient;
import io.isowatch.agent.store.EmbeddedStore;
import io.isowatch.agent.store.IsolationLevel;
import io.isowatch.agent.store.StoreOptions;
import io.isowatch.agent.transport.ChronicleHistoryLog;
import io.isowatch.agent.transport.SpoolScan;
import io.isowatch.agent.workload.WorkloadOptions;
import io.isowatch.agent.workload.WorkloadResult;
import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Validity;
import io.isowatch.checker.Verdict;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import io.isowatch.history.codec.HistoryReader;
import io.isowatch.testkit.ListeningSockets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class AgentRuntimeTest {

    private static final String TOPIC = "isowatch.history";
    private static final WorkloadOptions WORKLOAD = WorkloadOptions.defaults().toBuilder().concurrency(3).txnLimit(300)
            .duration(Duration.ZERO).rate(0).keyCount(4).build();

    @Test
    void resumedSpool_continuesIdSequenceProcessesAndKeys_soBothRunsCheckAsOneHistory(@TempDir Path dir)
            throws Exception {
        Path spool = dir.resolve("spool");
        Path first = dir.resolve("first.jsonl");
        Path second = dir.resolve("second.jsonl");
        WorkloadResult one;
        try (AgentRuntime agent = AgentRuntime.start(new AgentOptions("agent-7", spool, first, null, TOPIC, -1))) {
            one = agent.run(agent.runner(WORKLOAD, EmbeddedStoreClient.factory(store())));
            assertEquals(0, agent.drain(Duration.ofSeconds(1)), "nothing ships without Kafka");
            assertEquals(-1, agent.metricsPort());
        }
        try (AgentRuntime agent = AgentRuntime.start(new AgentOptions(null, spool, second, null, TOPIC, -1))) {
            assertEquals("agent-7", agent.agentId(), "a resumed spool keeps its agent's id");
            agent.run(agent.runner(WORKLOAD, EmbeddedStoreClient.factory(store())));
        }
        List<Op> before = read(first);
        List<Op> whole = read(second);
        long earlier = before.size();
        assertEquals(2 * one.txns(), earlier, "each transaction is an invocation and a completion");
        assertEquals(before, whole.subList(0, before.size()), "a new history file gets the spool's earlier events first");
        List<Op> after = whole.subList(before.size(), whole.size());
        assertEquals(earlier, after.get(0).index(), "sequence numbers continue where the spool ended");
        assertTrue(after.stream().allMatch(op -> op.process() >= earlier), "no process of the first run is reused");
        Set<Long> firstKeys = keys(before);
        assertFalse(keys(after).stream().anyMatch(firstKeys::contains), "a fresh store's keys are new to the history");

        IncrementalChecker checker = new IncrementalChecker(
                CheckerOptions.defaults().toBuilder()
                        .consistencyModels(Set.of(ConsistencyModel.of("snapshot-isolation"))).build(), new AtomTable());
        whole.forEach(checker::accept);
        assertEquals(Validity.TRUE, checker.finish().valid(), "the two runs make one valid history");
    }

    @Test
    void restart_afterACrash_completesTheTornHistoryFileAndTheOpenTransactions(@TempDir Path dir) throws Exception {
        Path spool = dir.resolve("spool");
        Path history = dir.resolve("h.jsonl");
        List<MicroOp> leftOpen = List.of(new MicroOp.Append(1L << 40, 1), new MicroOp.Read(1L << 40, null));
        try (AgentRuntime agent = AgentRuntime.start(new AgentOptions("crash", spool, history, null, TOPIC, -1))) {
            agent.run(agent.runner(WORKLOAD, EmbeddedStoreClient.factory(store())));
            agent.recorder().invoke(999, leftOpen); // never completed: the agent "dies" here
        }
        byte[] written = Files.readAllBytes(history);
        int cut = written.length * 2 / 3;
        while (cut > 1 && written[cut - 1] == '\n') {
            cut--; // never at a line's end, whatever the run's sizes: the cut must tear a line
        }
        try (FileChannel ch = FileChannel.open(history, StandardOpenOption.WRITE)) {
            ch.truncate(cut); // SIGKILL: the buffered tail is lost, a line is torn
        }
        List<String> notices = new ArrayList<>();
        try (AgentRuntime agent = AgentRuntime.start(new AgentOptions(null, spool, history, null, TOPIC, -1),
                notices::add)) {
            agent.run(agent.runner(WORKLOAD.toBuilder().txnLimit(30).build(), EmbeddedStoreClient.factory(store())));
        }
        assertTrue(notices.stream().anyMatch(n -> n.contains("torn line") && n.contains("completed it from the spool")),
                notices.toString());
        assertTrue(notices.stream().anyMatch(n -> n.startsWith("1 transaction(s) were open") && n.contains("999")),
                notices.toString());

        List<Op> file = read(history);
        List<Op> spooled = new ArrayList<>();
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(spool, null)) {
            SpoolScan.read(log, e -> spooled.add(e.op()), e -> { });
        }
        assertEquals(spooled.size(), file.size(), "as many events in the history file as in the spool");
        for (int i = 0; i < file.size(); i++) {
            assertEquals(plain(spooled.get(i)), plain(file.get(i)), "the history file holds exactly what the spool does");
        }
        for (int i = 0; i < file.size(); i++) {
            assertEquals(i, file.get(i).index(), "dense");
        }
        int invoke = indexOf(file, 999, OpType.INVOKE);
        int info = indexOf(file, 999, OpType.INFO);
        assertEquals(invoke + 1, info, "the open transaction is the first thing the restarted agent completes");
        assertEquals(leftOpen, file.get(info).value());
        assertTrue(file.subList(info + 1, file.size()).stream().allMatch(op -> op.process() > 999),
                "the new run's processes are past every process of the spool");

        IncrementalChecker checker = new IncrementalChecker(
                CheckerOptions.defaults().toBuilder()
                        .consistencyModels(Set.of(ConsistencyModel.of("snapshot-isolation"))).build(), new AtomTable());
        file.forEach(checker::accept);
        Verdict verdict = checker.finish();
        assertEquals(Validity.TRUE, verdict.valid());
        long invokes = file.stream().filter(op -> op.type() == OpType.INVOKE).count();
        assertEquals(invokes, verdict.stats().txns(), "every transaction is counted, the one left open as info");
        assertEquals(1, verdict.stats().info());
    }

    @Test
    void restart_afterACleanStop_needNotReadTheSpool_afterACrashItDoes(@TempDir Path dir) throws Exception {
        Path spool = dir.resolve("spool");
        Path history = dir.resolve("h.jsonl");
        long maxProcess;
        long txns;
        try (AgentRuntime agent = AgentRuntime.start(new AgentOptions("a", spool, history, null, TOPIC, -1))) {
            // 50 transactions, plus the closing reads of the keys they wrote.
            txns = agent.run(agent.runner(WORKLOAD.toBuilder().txnLimit(50)
                    .build(), EmbeddedStoreClient.factory(store()))).txns();
            maxProcess = agent.recorder().maxProcess();
        }
        assertTrue(Files.exists(spool.resolve(CleanStop.FILE_NAME)), "a clean stop leaves its mark");
        try (ChronicleHistoryLog log = ChronicleHistoryLog.open(spool, null)) {
            SpoolResume.Result clean = SpoolResume.run(log, history, CleanStop.take(spool));
            assertFalse(clean.read(), "nothing open, nothing missing: the spool is not read");
            assertEquals(2 * txns - 1, clean.spool().last().sequence());
            assertEquals(maxProcess, clean.spool().maxProcess());
            assertFalse(Files.exists(spool.resolve(CleanStop.FILE_NAME)), "the mark is taken at start");
            SpoolResume.Result afterCrash = SpoolResume.run(log, history, CleanStop.take(spool));
            assertTrue(afterCrash.read(), "no mark: the spool is read");
            assertEquals(clean.spool().last(), afterCrash.spool().last());
            assertEquals(maxProcess, afterCrash.spool().maxProcess());
        }
    }

    @Test
    void historyFileOfAnotherHistory_isRefusedNamingTheFix(@TempDir Path dir) throws Exception {
        Path spool = dir.resolve("spool");
        Path history = dir.resolve("h.jsonl");
        try (AgentRuntime agent = AgentRuntime.start(new AgentOptions("a", spool, null, null, TOPIC, -1))) {
            agent.run(agent.runner(WORKLOAD.toBuilder().txnLimit(5).build(), EmbeddedStoreClient.factory(store())));
        }
        Files.writeString(history, "{\"index\":3,\"type\":\"invoke\",\"process\":0,\"f\":\"txn\",\"value\":[[\"r\",7,null]]}\n");
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AgentRuntime.start(new AgentOptions(null, spool, history, null, TOPIC, -1)));
        assertTrue(e.getMessage().contains("ends at index 3") && e.getMessage().contains("is a different op")
                && e.getMessage().contains("give a new --history-out"), e.getMessage());
        assertEquals(1, Files.readAllLines(history).size(), "left as it was");
    }

    /** The op without the line it was read from. */
    private static Op plain(Op op) {
        return new Op(op.index(), op.time(), op.type(), op.process(), op.value());
    }

    private static int indexOf(List<Op> ops, long process, OpType type) {
        for (int i = 0; i < ops.size(); i++) {
            if (ops.get(i).process() == process && ops.get(i).type() == type) {
                return i;
            }
        }
        throw new AssertionError("no " + type + " of process " + process);
    }

    @Test
    void spoolOfAnotherAgent_isRefusedNamingBoth(@TempDir Path dir) throws Exception {
        Path spool = dir.resolve("spool");
        try (AgentRuntime agent = AgentRuntime.start(new AgentOptions("a", spool, null, null, TOPIC, -1))) {
            agent.run(agent.runner(WORKLOAD.toBuilder().txnLimit(5).build(), EmbeddedStoreClient.factory(store())));
        }
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> AgentRuntime.start(new AgentOptions("b", spool, null, null, TOPIC, -1)));
        assertTrue(e.getMessage().contains("'a'") && e.getMessage().contains("'b'"), e.getMessage());
    }

    @Test
    void noSpool_defaultIdAndNoBacklog() throws Exception {
        try (AgentRuntime agent = AgentRuntime.start(new AgentOptions(null, null, null, null, TOPIC, 0))) {
            assertFalse(agent.agentId().isEmpty());
            assertEquals(null, agent.backlog());
            assertTrue(agent.metricsPort() > 0, "port 0 serves metrics on a free port");
            WorkloadResult r = agent.run(agent.runner(WORKLOAD.toBuilder().txnLimit(10)
                    .build(), EmbeddedStoreClient.factory(store())));
            assertEquals(10, r.txns() - r.closingReads(), "the limit counts ordinary transactions");
        }
    }

    @Test
    void metrics_byDefault_listenOnLoopbackOnly() throws Exception {
        Set<ListeningSockets.Listener> before = ListeningSockets.ofThisProcess();
        try (AgentRuntime agent = AgentRuntime.start(new AgentOptions(null, null, null, null, TOPIC, 0))) {
            Set<ListeningSockets.Listener> opened = new HashSet<>(ListeningSockets.ofThisProcess());
            opened.removeAll(before);
            assertEquals(Set.of(new ListeningSockets.Listener(InetAddress.getLoopbackAddress(), agent.metricsPort())),
                    opened, "the agent's only listener is its exporter, on 127.0.0.1");
        }
    }

    @Test
    void options_kafkaWithoutSpool_isRefused() {
        assertThrows(IllegalArgumentException.class, () -> new AgentOptions(null, null, null, "localhost:9092", TOPIC, -1));
        assertThrows(IllegalArgumentException.class, () -> new AgentOptions("", null, null, null, TOPIC, -1));
    }

    private static EmbeddedStore store() {
        return new EmbeddedStore(StoreOptions.of(IsolationLevel.SNAPSHOT_ISOLATION));
    }

    private static List<Op> read(Path file) {
        List<Op> ops = new ArrayList<>();
        try (HistoryReader reader = HistoryReader.open(file, new AtomTable())) {
            for (Op op = reader.next(); op != null; op = reader.next()) {
                ops.add(op);
            }
        }
        return ops;
    }

    private static Set<Long> keys(List<Op> ops) {
        Set<Long> keys = new java.util.HashSet<>();
        for (Op op : ops) {
            for (MicroOp m : op.value()) {
                keys.add(m.key());
            }
        }
        return keys;
    }
}

package io.isowatch.agent;

import io.isowatch.agent.client.EmbeddedStoreClient;
import io.isowatch.agent.store.EmbeddedStore;
import io.isowatch.agent.store.IsolationLevel;
import io.isowatch.agent.store.StoreOptions;
import io.isowatch.agent.workload.WorkloadOptions;
import io.isowatch.agent.workload.WorkloadResult;
import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Validity;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.codec.HistoryReader;
import io.isowatch.testkit.ListeningSockets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.nio.file.Path;
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
    private static final WorkloadOptions WORKLOAD = WorkloadOptions.defaults().withConcurrency(3).withTxnLimit(300)
            .withDuration(Duration.ZERO).withRate(0).withKeyCount(4);

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
        List<Op> after = read(second);
        long earlier = before.size();
        assertEquals(2 * one.txns(), earlier, "each transaction is an invocation and a completion");
        assertEquals(earlier, after.get(0).index(), "sequence numbers continue where the spool ended");
        assertTrue(after.stream().allMatch(op -> op.process() >= earlier), "no process of the first run is reused");
        Set<Long> firstKeys = keys(before);
        assertFalse(keys(after).stream().anyMatch(firstKeys::contains), "a fresh store's keys are new to the history");

        List<Op> whole = new ArrayList<>(before);
        whole.addAll(after);
        IncrementalChecker checker = new IncrementalChecker(
                CheckerOptions.defaults().withModels(Set.of(ConsistencyModel.of("snapshot-isolation"))), new AtomTable());
        whole.forEach(checker::accept);
        assertEquals(Validity.TRUE, checker.finish().valid(), "the two runs make one valid history");
    }

    @Test
    void spoolOfAnotherAgent_isRefusedNamingBoth(@TempDir Path dir) throws Exception {
        Path spool = dir.resolve("spool");
        try (AgentRuntime agent = AgentRuntime.start(new AgentOptions("a", spool, null, null, TOPIC, -1))) {
            agent.run(agent.runner(WORKLOAD.withTxnLimit(5), EmbeddedStoreClient.factory(store())));
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
            WorkloadResult r = agent.run(agent.runner(WORKLOAD.withTxnLimit(10), EmbeddedStoreClient.factory(store())));
            assertEquals(10, r.txns());
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

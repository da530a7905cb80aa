package io.isowatch.agent.client.jdbc;

import io.isowatch.agent.client.DatabaseClient;
import io.isowatch.checker.Workload;
import io.isowatch.history.MicroOp;
import org.junit.jupiter.api.Test;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.stream.IntStream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Which server each client and each transaction uses; the routing end to end on in-memory H2 databases. */
class JdbcTopologyTest {

    private static final JdbcTarget TEMPLATE = JdbcTarget.of("jdbc:postgresql://n1/db", JdbcIsolation.SERIALIZABLE,
            Workload.LIST_APPEND).withCredentials("bob", "hunter2");
    private static final List<MicroOp> READS = List.of(new MicroOp.Read(1, null), new MicroOp.Read(2, null));
    private static final List<MicroOp> MIXED = List.of(new MicroOp.Read(1, null), new MicroOp.Append(2, 7));

    @Test
    void node_spreadsWorkersRoundRobin_andKeepsEachOnOne() {
        JdbcTopology t = JdbcTopology.of(TEMPLATE, List.of("jdbc:postgresql://n1/db", "jdbc:postgresql://n2/db",
                "jdbc:postgresql://n3/db"), null, null);
        assertEquals(List.of("n1", "n2", "n3", "n1", "n2", "n3", "n1"), IntStream.range(0, 7)
                .mapToObj(w -> t.node(w).url().substring("jdbc:postgresql://".length(), 20)).toList());
        assertEquals("jdbc:postgresql://n1/db", t.primary().url());
        assertEquals(t.node(4), t.serverFor(4, READS), "without a read target, reads stay on the worker's node");
    }

    @Test
    void serverFor_sendsOnlyReadOnlyTransactionsToTheReadTarget() {
        JdbcTopology t = JdbcTopology.of(TEMPLATE, List.of("jdbc:postgresql://n1/db", "jdbc:postgresql://n2/db"),
                "jdbc:postgresql://replica/db", JdbcIsolation.REPEATABLE_READ);
        assertEquals("jdbc:postgresql://replica/db", t.serverFor(1, READS).url());
        assertEquals(JdbcIsolation.REPEATABLE_READ, t.serverFor(1, READS).isolation());
        assertEquals("jdbc:postgresql://n2/db", t.serverFor(1, MIXED).url());
        assertEquals("jdbc:postgresql://n1/db", t.serverFor(2, List.of(new MicroOp.Write(3, 1))).url());
        assertEquals(JdbcIsolation.SERIALIZABLE, t.serverFor(1, MIXED).isolation());
    }

    @Test
    void readTarget_sharesTheLoginAndRunsAtTheRunsLevelUnlessTold() {
        JdbcTopology t = JdbcTopology.of(TEMPLATE, List.of("jdbc:postgresql://n1/db"), "jdbc:postgresql://r/db", null);
        assertEquals(JdbcIsolation.SERIALIZABLE, t.readNode().isolation());
        assertEquals("bob", t.readNode().user());
        assertNull(JdbcTopology.single(TEMPLATE).readNode());
    }

    @Test
    void mixedEngines_areRejectedNamingTheOptionAndTheRedactedUrl() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JdbcTopology.of(TEMPLATE,
                List.of("jdbc:postgresql://n1/db", "jdbc:mariadb://n2/db?password=s3cret"), null, null));
        assertTrue(e.getMessage().startsWith("--target jdbc:mariadb://n2/db?password=*** is MariaDB/MySQL but the first "
                + "--target jdbc:postgresql://n1/db is PostgreSQL"), e.getMessage());
        assertFalse(e.getMessage().contains("s3cret"), e.getMessage());
        IllegalArgumentException r = assertThrows(IllegalArgumentException.class, () -> JdbcTopology.of(TEMPLATE,
                List.of("jdbc:postgresql://n1/db"), "jdbc:h2:mem:x", null));
        assertTrue(r.getMessage().startsWith("--read-target jdbc:h2:mem:x is H2"), r.getMessage());
    }

    @Test
    void unsupportedUrl_namesItsOption() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> JdbcTopology.of(TEMPLATE,
                List.of("jdbc:postgresql://n1/db", "jdbc:oracle:thin:scott/tiger@h:1521:x"), null, null));
        assertTrue(e.getMessage().startsWith("--target jdbc:oracle:thin:scott/tiger@h:1521:x: unsupported JDBC URL"),
                e.getMessage());
        IllegalArgumentException r = assertThrows(IllegalArgumentException.class, () -> JdbcTopology.of(TEMPLATE,
                List.of("jdbc:postgresql://n1/db"), "postgres://r/db", null));
        assertTrue(r.getMessage().startsWith("--read-target postgres://r/db: unsupported JDBC URL"), r.getMessage());
        assertThrows(IllegalArgumentException.class, () -> JdbcTopology.of(TEMPLATE, List.of(), null, null));
    }

    @Test
    void nodesAtDifferentLevels_areRejected() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new JdbcTopology(List.of(
                TEMPLATE, TEMPLATE.withUrl("jdbc:postgresql://n2/db").withIsolation(JdbcIsolation.READ_COMMITTED)), null));
        assertTrue(e.getMessage().contains("serializable, not read-committed"), e.getMessage());
    }

    /**
     * Two in-memory H2 databases stand in for two nodes and a third for a replica: each client
     * writes to its worker's node, and read-only transactions read the "replica", here a
     * database nobody writes to, so they see nothing.
     */
    @Test
    void clients_writeToTheirNodeAndReadOnlyTransactionsReadTheReadTarget() throws Exception {
        String a = "jdbc:h2:mem:topology-a;DB_CLOSE_DELAY=-1";
        String b = "jdbc:h2:mem:topology-b;DB_CLOSE_DELAY=-1";
        String replica = "jdbc:h2:mem:topology-r;DB_CLOSE_DELAY=-1";
        JdbcTarget first = JdbcTarget.of(a, JdbcIsolation.SERIALIZABLE, Workload.LIST_APPEND).withCredentials("sa", "")
                .withTablePrefix("topo");
        for (String url : List.of(b, replica)) {
            // The other nodes and the replica of a real cluster would replicate the first's tables.
            try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement()) {
                s.execute(Dialect.H2.createAppendTable("topo_append"));
                s.execute(Dialect.H2.createRegisterTable("topo_register"));
            }
        }
        JdbcClientFactory factory = JdbcClientFactory.connect(JdbcTopology.of(first, List.of(a, b), replica, null));
        try (DatabaseClient w0 = factory.open(0, 0); DatabaseClient w1 = factory.open(1, 1);
             DatabaseClient w2 = factory.open(2, 18)) {
            w0.execute(List.of(new MicroOp.Append(1, 10)));
            w1.execute(List.of(new MicroOp.Append(1, 11), new MicroOp.Read(1, null)));
            w2.execute(List.of(new MicroOp.Append(1, 12)));
            List<MicroOp> read = w1.execute(List.of(new MicroOp.Read(1, null)));
            assertArrayEquals(new long[0], ((MicroOp.Read) read.get(0)).values(), "read-only: on the replica");
        }
        assertEquals("10,12", list(a, 1), "workers 0 and 2 on the first node");
        assertEquals("11", list(b, 1), "worker 1 on the second");
        assertNull(list(replica, 1));
    }

    @Test
    void connect_replicaThatNeverShowsTheTables_namesIt() {
        JdbcTarget first = JdbcTarget.of("jdbc:h2:mem:topology-c;DB_CLOSE_DELAY=-1", JdbcIsolation.SERIALIZABLE,
                Workload.LIST_APPEND).withCredentials("sa", "").withTablePrefix("lonely");
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> JdbcClientFactory.connect(
                JdbcTopology.of(first, List.of(first.url()), "jdbc:h2:mem:topology-empty;DB_CLOSE_DELAY=-1", null),
                Duration.ofMillis(200)));
        assertTrue(e.getMessage().startsWith("cannot see the tables the first --target created and emptied as user 'sa' "
                + "at jdbc:h2:mem:topology-empty"), e.getMessage());
    }

    private static String list(String url, long key) throws Exception {
        try (Connection c = DriverManager.getConnection(url, "sa", ""); Statement s = c.createStatement();
             ResultSet rs = s.executeQuery("SELECT v FROM topo_append WHERE k = " + key)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }
}

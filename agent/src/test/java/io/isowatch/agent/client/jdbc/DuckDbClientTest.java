package io.isowatch.agent.client.jdbc;

import io.isowatch.agent.client.DatabaseClient;
import io.isowatch.agent.client.DefinitelyAbortedException;
import io.isowatch.checker.Workload;
import io.isowatch.history.MicroOp;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The JDBC client on DuckDB, whose driver closes a connection's statements with a failed transaction. */
class DuckDbClientTest {

    @Test
    void afterAWriteConflict_theClientsNextTransactionRuns(@TempDir Path dir) throws Exception {
        JdbcTarget target = JdbcTarget.of("jdbc:duckdb:" + dir.resolve("isowatch.db"), JdbcIsolation.REPEATABLE_READ,
                Workload.LIST_APPEND);
        JdbcClientFactory factory = JdbcClientFactory.connect(target);
        try (DatabaseClient client = factory.open(0, 0)) {
            client.execute(List.of(new MicroOp.Append(1, 1)));
            try (Connection other = factory.workConnection(target); Statement s = other.createStatement()) {
                // Another transaction changes the row and stays open: the client's append conflicts.
                s.executeUpdate("UPDATE " + target.appendTable() + " SET v = v || ',2' WHERE k = 1");
                assertThrows(DefinitelyAbortedException.class, () -> client.execute(List.of(new MicroOp.Append(1, 3))));
                other.commit();
            }
            List<MicroOp> done = client.execute(List.of(new MicroOp.Append(1, 4), new MicroOp.Read(1, null)));
            assertArrayEquals(new long[] {1, 2, 4}, ((MicroOp.Read) done.get(1)).values());
        }
        assertEquals(1, factory.failureCounts().size(), factory.failureCounts()::toString);
        assertEquals(Map.of(), Map.copyOf(factory.failureCounts()).entrySet().stream()
                .filter(e -> e.getKey().contains("08003")).collect(java.util.stream.Collectors.toMap(
                        Map.Entry::getKey, Map.Entry::getValue)), "no transaction failed on a closed statement");
    }
}

package io.isowatch.agent.client.jdbc;

import io.isowatch.agent.client.DatabaseClient;
import io.isowatch.checker.Workload;
import io.isowatch.history.MicroOp;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/**
 * The agents of one history (issue 37) share a database's tables: an agent that starts, or
 * restarts, while the others run must keep their rows, where a run of its own empties the tables.
 */
class SharedTablesTest {

    private static final JdbcTarget TARGET = JdbcTarget.of("jdbc:h2:mem:shared-tables;DB_CLOSE_DELAY=-1",
            JdbcIsolation.SERIALIZABLE, Workload.LIST_APPEND).withCredentials("sa", "").withTablePrefix("fleet");

    @Test
    void aSecondAgentOfTheHistory_keepsTheFirstOnesRows_whileARunOfItsOwnEmptiesThem() throws Exception {
        JdbcClientFactory first = JdbcClientFactory.connect(JdbcTopology.single(TARGET), false);
        try (DatabaseClient c = first.open(0, 0)) {
            c.execute(List.of(new MicroOp.Append(1, 1_000_000_001L)));
        }
        JdbcClientFactory second = JdbcClientFactory.connect(JdbcTopology.single(TARGET), false);
        assertArrayEquals(new long[] {1_000_000_001L}, read(second), "kept for the history's other agents");

        JdbcClientFactory alone = JdbcClientFactory.connect(JdbcTopology.single(TARGET));
        assertArrayEquals(new long[0], read(alone), "emptied for an agent's own history, as before");
    }

    private static long[] read(JdbcClientFactory factory) throws Exception {
        try (DatabaseClient c = factory.open(0, 0)) {
            return ((MicroOp.Read) c.execute(List.of(new MicroOp.Read(1, null))).get(0)).values();
        }
    }
}

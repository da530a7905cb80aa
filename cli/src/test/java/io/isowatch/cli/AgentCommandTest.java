package io.isowatch.cli;

import io.isowatch.agentcli.ExitCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code isowatch agent run} end to end: the embedded store, a history file, and the checker's verdict on it. */
class AgentCommandTest {

    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(code, out.toString(), err.toString());
    }

    @Test
    void agentRun_snapshotIsolation_historyPassesCheckUnderSnapshotIsolation(@TempDir Path dir) throws Exception {
        Path history = dir.resolve("si.jsonl");
        Run agent = run("agent", "run", "--target", "embedded:snapshot-isolation", "--duration", "2",
                "--history-out", history.toString());
        assertEquals(ExitCodes.VALID, agent.code(), agent.err());
        assertTrue(agent.out().contains("transactions in"), agent.out());
        assertTrue(agent.err().contains("txn/s"), "progress every second on stderr: " + agent.err());
        List<String> lines = Files.readAllLines(history);
        assertTrue(lines.size() > 1_000, "about 1,000 txn/s for 2 s: " + lines.size() + " events");
        assertTrue(lines.get(0).startsWith("{\"index\":0,"), lines.get(0));

        Run check = run("check", "-q", "-c", "snapshot-isolation", history.toString());
        assertEquals(ExitCodes.VALID, check.code(), check.out() + check.err());
    }

    @Test
    void agentRun_readCommittedWithFaults_historyIsInvalidUnderSerializable(@TempDir Path dir) {
        Path history = dir.resolve("rc.jsonl");
        Run agent = run("agent", "run", "--target", "embedded:read-committed", "--rate", "0", "--txns", "20000",
                "--duration", "0", "--keys", "4", "--concurrency", "8", "--fail-rate", "0.05", "--lost-ack-rate",
                "0.01", "-q", "--history-out", history.toString());
        assertEquals(ExitCodes.VALID, agent.code(), agent.err());
        assertTrue(agent.out().contains("20,000 transactions"), agent.out());
        assertEquals(ExitCodes.VALID, run("check", "-q", "-c", "read-committed", history.toString()).code());
        assertEquals(ExitCodes.INVALID, run("check", "-q", "-c", "serializable", history.toString()).code());
    }

    @Test
    void agentRun_unreachableJdbcTarget_stopsWithOneLineAndNoPassword() {
        Run r = run("agent", "run", "--target", "jdbc:postgresql://127.0.0.1:1/test", "--user", "alice",
                "--password", "s3cret", "--duration", "1");
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().startsWith("isowatch: cannot reach the database at jdbc:postgresql://127.0.0.1:1/test"),
                r.err());
        assertEquals(1, r.err().strip().lines().count(), "one line, no stack trace: " + r.err());
        assertTrue(!r.err().contains("s3cret") && !r.out().contains("s3cret"), r.err());
    }

    @Test
    void agentRun_mariaDbUrlWithPasswordParameter_isRedacted() {
        Run r = run("agent", "run", "--target", "jdbc:mariadb://127.0.0.1:1/test?user=bob&password=s3cret",
                "--duration", "1");
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("cannot reach the database at jdbc:mariadb://127.0.0.1:1/test?user=bob&password=***"),
                r.err());
        assertTrue(!r.err().contains("s3cret"), r.err());
    }

    @Test
    void agentRun_jdbcUnknownIsolation_namesTheKnownLevels() {
        Run r = run("agent", "run", "--target", "jdbc:postgresql://127.0.0.1:1/test", "--isolation", "snapshot-isolation");
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("repeatable-read, read-committed, read-uncommitted, snapshot"), r.err());
    }

    @Test
    void agentRun_snapshotOnAnotherEngineThanH2_saysWhoseLevelItIs() {
        Run r = run("agent", "run", "--target", "jdbc:postgresql://127.0.0.1:1/test", "--isolation", "snapshot");
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("'snapshot' is H2's own level; PostgreSQL has no level of that name"), r.err());
    }

    @Test
    void agentRun_unsupportedJdbcUrl_namesTheSupportedOnes() {
        Run r = run("agent", "run", "--target", "jdbc:oracle:thin:@host:1521:x");
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("jdbc:postgresql://, jdbc:mariadb://, jdbc:mysql://, jdbc:h2:, jdbc:hsqldb:, jdbc:derby:, jdbc:sqlite: or jdbc:duckdb:"), r.err());
    }

    @Test
    void agentRun_isolationFlagWithEmbeddedTarget_isAnError() {
        Run r = run("agent", "run", "--target", "embedded:serializable", "--isolation", "serializable");
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("apply to JDBC targets"), r.err());
    }

    @Test
    void agentRun_unknownIsolation_namesTheKnownOnes() {
        Run r = run("agent", "run", "--target", "embedded:linearizable");
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("snapshot-isolation"), r.err());
    }

    @Test
    void agentRun_kafkaWithoutSpool_isAnError() {
        Run r = run("agent", "run", "--target", "embedded:serializable", "--bootstrap-servers", "localhost:9092");
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("--spool-dir"), r.err());
    }

    @Test
    void agentRun_unknownRecordFormat_namesTheFlagAndTheKnownOnes() {
        Run r = run("agent", "run", "--target", "embedded:serializable", "--record-format", "avro");
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("--record-format: expected binary or json, got \"avro\""), r.err());
    }

    @Test
    void agentRun_severalTargetsAndReadTarget_runOnTheNodesOfOneDatabase(@TempDir Path dir) {
        // Three names for one in-memory H2 database: a cluster whose replication is instant.
        String node = "jdbc:h2:mem:agent-nodes;DB_CLOSE_DELAY=-1";
        Path history = dir.resolve("nodes.jsonl");
        Run r = run("agent", "run", "--target", node, "--target", node, "--read-target", node, "--read-isolation",
                "repeatable-read", "--user", "sa", "--rate", "0", "--txns", "2000", "--duration", "0",
                "--concurrency", "4", "--history-out", history.toString());
        assertEquals(ExitCodes.VALID, r.code(), r.err());
        assertTrue(r.err().contains("(2 nodes), isolation serializable"), r.err());
        assertTrue(r.err().contains("read-only transactions on jdbc:h2:mem:agent-nodes;DB_CLOSE_DELAY=-1, isolation "
                + "repeatable-read"), r.err());
        assertTrue(r.out().contains("2,000 transactions"), r.out());
        assertEquals(ExitCodes.VALID, run("check", "-q", "-c", "read-committed", history.toString()).code());
    }

    @Test
    void agentRun_targetsOfDifferentEngines_nameTheOptionWithoutThePassword() {
        Run r = run("agent", "run", "--target", "jdbc:postgresql://127.0.0.1:1/test", "--target",
                "jdbc:mariadb://127.0.0.1:1/test?password=s3cret", "--duration", "1");
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("--target jdbc:mariadb://127.0.0.1:1/test?password=*** is MariaDB/MySQL but the "
                + "first --target jdbc:postgresql://127.0.0.1:1/test is PostgreSQL"), r.err());
        assertTrue(!r.err().contains("s3cret"), r.err());
    }

    @Test
    void agentRun_readTargetOptionsOutsideTheirPlace_areErrors() {
        Run embedded = run("agent", "run", "--target", "embedded:serializable", "--read-target",
                "jdbc:postgresql://127.0.0.1:1/test");
        assertEquals(ExitCodes.ERROR, embedded.code());
        assertTrue(embedded.err().contains("several --target and --read-target apply to JDBC targets"), embedded.err());
        Run noReadTarget = run("agent", "run", "--target", "jdbc:postgresql://127.0.0.1:1/test", "--read-isolation",
                "repeatable-read");
        assertEquals(ExitCodes.ERROR, noReadTarget.code());
        assertTrue(noReadTarget.err().contains("--read-isolation sets the level of the --read-target, and there is none"),
                noReadTarget.err());
    }
}

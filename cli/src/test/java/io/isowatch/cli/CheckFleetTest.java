package io.isowatch.cli;

import io.isowatch.agentcli.ExitCodes;
import io.isowatch.testing.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code check --clock-uncertainty D a b}: the files are one history, one agent each (decision
 * 0021). Agent a appends 1 to x, completing at 1.000 s; agent b reads x empty, invoked at
 * 1.050 s; agent a then reads [1]. The read is stale exactly when the 50 ms gap is beyond the
 * clock uncertainty.
 */
class CheckFleetTest {

    private static Path[] fleet(Path dir) throws IOException {
        Path a = dir.resolve("a.jsonl");
        Path b = dir.resolve("b.jsonl");
        Files.write(a, List.of(
                "{\"index\":0,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[[\"append\",\"x\",1]],\"time\":990000000}",
                "{\"index\":1,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[[\"append\",\"x\",1]],\"time\":1000000000}",
                "{\"index\":2,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[[\"r\",\"x\",null]],\"time\":1060000000}",
                "{\"index\":3,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[[\"r\",\"x\",[1]]],\"time\":1061000000}"));
        Files.write(b, List.of(
                "{\"index\":0,\"type\":\"invoke\",\"process\":2,\"f\":\"txn\",\"value\":[[\"r\",\"x\",null]],\"time\":1050000000}",
                "{\"index\":1,\"type\":\"ok\",\"process\":2,\"f\":\"txn\",\"value\":[[\"r\",\"x\",[]]],\"time\":1051000000}"));
        return new Path[] {a, b};
    }

    @Test
    void aGapBeyondTheUncertainty_isARealtimeAnomaly_namingBothAgents(@TempDir Path dir) throws IOException {
        Path[] f = fleet(dir);
        CheckCommandTest.Run r = CheckCommandTest.run("check", "-q", "--clock-uncertainty", "10ms",
                f[0].toString(), f[1].toString());
        assertEquals(ExitCodes.INVALID, r.code(), r.out() + r.err());
        assertTrue(r.out().startsWith(f[0] + "," + f[1] + "\tfalse"), r.out());
        assertTrue(r.out().contains("realtime"), r.out());
        assertTrue(r.out().contains("on agent a.jsonl, 0.050 seconds before the invocation of"), r.out());
        assertTrue(r.out().contains("on agent b.jsonl: more than the clock uncertainty of 10 ms"), r.out());
    }

    @Test
    void aGapWithinTheUncertainty_isNoAnomaly(@TempDir Path dir) throws IOException {
        Path[] f = fleet(dir);
        CheckCommandTest.Run r = CheckCommandTest.run("check", "-q", "--clock-uncertainty", "100ms",
                f[0].toString(), f[1].toString());
        assertEquals(ExitCodes.VALID, r.code(), r.out() + r.err());
        assertTrue(r.out().contains("\ttrue"), r.out());
    }

    @Test
    void json_namesTheAgentsOfTheRealtimeStep(@TempDir Path dir) throws IOException {
        Path[] f = fleet(dir);
        CheckCommandTest.Run r = CheckCommandTest.run("check", "-q", "--format", "json", "--clock-uncertainty", "10ms",
                f[0].toString(), f[1].toString());
        assertEquals(ExitCodes.INVALID, r.code(), r.err());
        Map<String, Object> v = Json.object(r.out().trim());
        assertEquals(f[0] + "," + f[1], v.get("file"));
        assertTrue(r.out().contains("\"a-agent\":\"a.jsonl\""), r.out());
        assertTrue(r.out().contains("\"b-agent\":\"b.jsonl\""), r.out());
        assertTrue(r.out().contains("\"clock-uncertainty-ns\":10000000"), r.out());
    }

    @Test
    void withoutTheFlag_severalFiles_areSeveralHistories_asInElleCli(@TempDir Path dir) throws IOException {
        Path[] f = fleet(dir);
        CheckCommandTest.Run r = CheckCommandTest.run("check", "-q", f[0].toString(), f[1].toString());
        assertEquals(2, r.out().lines().filter(l -> l.contains("\t")).filter(l -> l.endsWith("true")
                || l.contains("\ttrue") || l.contains("\tunknown")).count(), r.out());
        assertFalse(r.out().contains("agent"), r.out());
    }

    @Test
    void oneFile_withTheFlag_isCheckedAsEver(@TempDir Path dir) throws IOException {
        Path file = CheckCommandTest.golden("G2-item-write-skew");
        CheckCommandTest.Run plain = CheckCommandTest.run("check", "-q", "--format", "json", file.toString());
        CheckCommandTest.Run flagged = CheckCommandTest.run("check", "-q", "--format", "json", "--clock-uncertainty",
                "10ms", file.toString());
        assertEquals(plain.code(), flagged.code());
        assertEquals(CheckCommandTest.jsonWithoutSeconds(plain.out()), CheckCommandTest.jsonWithoutSeconds(flagged.out()));
    }

    @Test
    void linearizableKeys_isAUsageErrorForAFleet(@TempDir Path dir) throws IOException {
        Path[] f = fleet(dir);
        CheckCommandTest.Run r = CheckCommandTest.run("check", "-q", "-m", "rw-register", "--linearizable-keys",
                "--clock-uncertainty", "10ms", f[0].toString(), f[1].toString());
        assertEquals(ExitCodes.ERROR, r.code(), r.out() + r.err()); // a usage error, as elle-cli
        assertTrue(r.err().contains("--linearizable-keys cannot check several agents' files"), r.err());
    }

    @Test
    void aFileWithoutTimes_isRefused_namingTheFile(@TempDir Path dir) throws IOException {
        Path[] f = fleet(dir);
        Path untimed = dir.resolve("c.jsonl");
        Files.write(untimed, List.of(
                "{\"index\":0,\"type\":\"invoke\",\"process\":3,\"f\":\"txn\",\"value\":[[\"append\",\"y\",1]]}"));
        CheckCommandTest.Run r = CheckCommandTest.run("check", "-q", "--clock-uncertainty", "10ms",
                f[0].toString(), f[1].toString(), untimed.toString());
        assertEquals(ExitCodes.ERROR, r.code(), r.out() + r.err());
        assertTrue(r.err().contains("isowatch check: " + untimed + ": line 1"), r.err());
        assertTrue(r.err().contains("no :time"), r.err());
    }
}

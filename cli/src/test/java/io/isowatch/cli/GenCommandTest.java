package io.isowatch.cli;

import io.isowatch.agentcli.ExitCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** gen writes histories that check as the simulated store promises. */
class GenCommandTest {

    @Test
    void gen_thenCheck_correctStoreIsValid(@TempDir Path dir) throws IOException {
        Path h = dir.resolve("h.jsonl");
        CheckCommandTest.Run g = CheckCommandTest.run("gen", "-n", "3000", "--fail-rate", "0.05", "--info-rate", "0.02",
                "--seed", "7", "-o", h.toString());
        assertEquals(0, g.code(), g.err());
        assertEquals(6000, Files.readAllLines(h).size());
        CheckCommandTest.Run c = CheckCommandTest.run("check", "-q", h.toString());
        assertEquals(ExitCodes.VALID, c.code(), c.out());
    }

    @Test
    void gen_staleReads_areCaught(@TempDir Path dir) {
        Path h = dir.resolve("stale.jsonl");
        CheckCommandTest.Run g = CheckCommandTest.run("gen", "-n", "3000", "--stale-read-rate", "0.05", "--seed", "7",
                "-o", h.toString());
        assertEquals(0, g.code(), g.err());
        CheckCommandTest.Run c = CheckCommandTest.run("check", "-q", h.toString());
        assertEquals(ExitCodes.INVALID, c.code(), c.out());
    }

    @Test
    void gen_rwRegister_thenCheck_correctStoreIsValidUnderEveryInferenceOption(@TempDir Path dir) throws IOException {
        Path h = dir.resolve("r.jsonl");
        CheckCommandTest.Run g = CheckCommandTest.run("gen", "--workload", "rw-register", "-n", "3000",
                "--fail-rate", "0.05", "--info-rate", "0.02", "--seed", "7", "-o", h.toString());
        assertEquals(0, g.code(), g.err());
        List<String> lines = Files.readAllLines(h);
        assertEquals(6000, lines.size());
        assertTrue(lines.stream().anyMatch(l -> l.contains("[\"w\",")), "register writes");
        assertTrue(lines.stream().noneMatch(l -> l.contains("append")), "no appends");
        CheckCommandTest.Run plain = CheckCommandTest.run("check", "-q", "-m", "rw-register", h.toString());
        assertEquals(ExitCodes.VALID, plain.code(), plain.out() + plain.err());
        CheckCommandTest.Run all = CheckCommandTest.run("check", "-q", "-m", "rw-register", "--wfr-keys",
                "--sequential-keys", "--linearizable-keys", h.toString());
        assertEquals(ExitCodes.VALID, all.code(), all.out() + all.err());
    }

    @Test
    void gen_rwRegister_staleReads_areCaught(@TempDir Path dir) {
        Path h = dir.resolve("stale.jsonl");
        CheckCommandTest.Run g = CheckCommandTest.run("gen", "--workload", "rw-register", "-n", "3000",
                "--stale-read-rate", "0.05", "--seed", "7", "-o", h.toString());
        assertEquals(0, g.code(), g.err());
        CheckCommandTest.Run c = CheckCommandTest.run("check", "-q", "-m", "rw-register", "--linearizable-keys",
                h.toString());
        assertEquals(ExitCodes.INVALID, c.code(), c.out() + c.err());
    }

    @Test
    void gen_unknownWorkload_exits255NamingBoth() {
        CheckCommandTest.Run g = CheckCommandTest.run("gen", "--workload", "set");
        assertEquals(ExitCodes.ERROR, g.code());
        assertTrue(g.err().contains("list-append") && g.err().contains("rw-register"), g.err());
    }

    @Test
    void gen_badOption_exits255NamingIt() {
        CheckCommandTest.Run g = CheckCommandTest.run("gen", "--concurrency", "0");
        assertEquals(ExitCodes.ERROR, g.code());
        assertTrue(g.err().contains("concurrency"), g.err());
    }
}

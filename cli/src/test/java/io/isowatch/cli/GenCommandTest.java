package io.isowatch.cli;

import io.isowatch.agentcli.ExitCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
        assertClosingReadsOnTop(Files.readAllLines(h), 3000);
        CheckCommandTest.Run c = CheckCommandTest.run("check", "-q", h.toString());
        assertEquals(ExitCodes.VALID, c.code(), c.out());
    }

    @Test
    void gen_noClosingReads_writesTwoEventsPerTransaction(@TempDir Path dir) throws IOException {
        Path h = dir.resolve("h.jsonl");
        CheckCommandTest.Run g = CheckCommandTest.run("gen", "-n", "3000", "--no-closing-reads", "--seed", "7",
                "-o", h.toString());
        assertEquals(0, g.code(), g.err());
        assertEquals(6000, Files.readAllLines(h).size());
    }

    /** Closing reads come on top of the transactions: two events each, about one per 25 transactions by default. */
    private static void assertClosingReadsOnTop(List<String> lines, int txns) {
        int extra = lines.size() - 2 * txns;
        assertTrue(extra % 2 == 0 && extra > 2 * txns / 50 && extra < 2 * txns / 10,
                lines.size() + " events for " + txns + " transactions");
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
        assertClosingReadsOnTop(lines, 3000);
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

    /**
     * The same seed written as EDN (Jepsen's history.edn shape) and as JSON lines is the same
     * history: each workload's check gives the same verdict, anomalies and all, from either.
     */
    @Test
    void gen_edn_checksAsTheJsonLinesOfTheSameSeed(@TempDir Path dir) throws IOException {
        for (String workload : List.of("list-append", "rw-register")) {
            Path json = dir.resolve(workload + ".jsonl");
            Path edn = dir.resolve(workload + ".edn");
            List<String> gen = List.of("gen", "--workload", workload, "-n", "2000", "--fail-rate", "0.05",
                    "--info-rate", "0.02", "--stale-read-rate", "0.05", "--seed", "11");
            assertEquals(0, CheckCommandTest.run(with(gen, "-o", json.toString())).code());
            CheckCommandTest.Run g = CheckCommandTest.run(with(gen, "--format", "edn", "-o", edn.toString()));
            assertEquals(0, g.code(), g.err());
            List<String> lines = Files.readAllLines(edn);
            assertTrue(lines.get(0).startsWith("{:index 0, :time "), lines.get(0));
            // Reads in the workload's notation, as Jepsen writes them: a list, or a register's one value.
            String read = workload.equals("rw-register") ? ".*\\[:r \\d+ \\d+\\].*" : ".*\\[:r \\d+ \\[\\d+.*";
            assertTrue(lines.stream().anyMatch(l -> l.matches(read)), () -> "no completed read like " + read);
            List<String> check = new ArrayList<>(List.of("check", "-q", "--format", "json", "-m", workload));
            if (workload.equals("rw-register")) {
                check.add("--linearizable-keys"); // the stale reads are G-single only against these orders
            }
            CheckCommandTest.Run fromJson = CheckCommandTest.run(with(check, json.toString()));
            CheckCommandTest.Run fromEdn = CheckCommandTest.run(with(check, edn.toString()));
            assertEquals(ExitCodes.INVALID, fromJson.code(), fromJson.err());
            assertEquals(fromJson.code(), fromEdn.code(), fromEdn.err());
            List<Map<String, Object>> expected = CheckCommandTest.jsonWithoutSeconds(fromJson.out());
            List<Map<String, Object>> actual = CheckCommandTest.jsonWithoutSeconds(fromEdn.out());
            expected.get(0).remove("file");
            actual.get(0).remove("file");
            assertEquals(expected, actual);
        }
    }

    @Test
    void gen_unknownFormat_exits255NamingBoth() {
        CheckCommandTest.Run g = CheckCommandTest.run("gen", "--format", "csv");
        assertEquals(ExitCodes.ERROR, g.code());
        assertTrue(g.err().contains("json") && g.err().contains("edn"), g.err());
    }

    private static String[] with(List<String> args, String... more) {
        List<String> all = new ArrayList<>(args);
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
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

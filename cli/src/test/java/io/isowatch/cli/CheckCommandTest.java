package io.isowatch.cli;

import io.isowatch.agentcli.ExitCodes;
import io.isowatch.testing.Golden;
import io.isowatch.testing.Json;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The check command end to end: real files in, exit codes, text, JSON and pictures out. */
class CheckCommandTest {

    /** What one run printed and returned. */
    record Run(int code, String out, String err) {
    }

    static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        int code = Main.run(new PrintWriter(out, true), new PrintWriter(err, true), args);
        return new Run(code, out.toString(), err.toString());
    }

    static Path golden(String name) {
        return Golden.cases().stream().filter(c -> c.name().equals(name)).findFirst().orElseThrow().history();
    }

    /** Each JSON verdict line as a map, without the one field that varies from run to run (its seconds). */
    @SuppressWarnings("unchecked")
    static List<Map<String, Object>> jsonWithoutSeconds(String jsonLines) {
        List<Map<String, Object>> out = new ArrayList<>();
        for (String line : jsonLines.trim().split("\n")) {
            Map<String, Object> m = Json.object(line);
            ((Map<String, Object>) m.get("stats")).remove("seconds");
            out.add(m);
        }
        return out;
    }

    @Test
    void checkJson_namesAnyPathAsAJsonString(@TempDir Path dir) throws IOException {
        Path file = dir.resolve("dir \"x\"\\y\u0001\t\u00e9.jsonl");
        Files.copy(golden("valid-concurrent"), file);

        Run r = run("check", "-q", "--format", "json", file.toString());

        assertEquals(ExitCodes.VALID, r.code(), r.err());
        assertEquals(file.toString(), Json.object(r.out().trim()).get("file"));
    }

    @Test
    void check_validHistory_exitsZeroAndSaysTrue() {
        Run r = run("check", "-q", golden("valid-concurrent").toString());
        assertEquals(ExitCodes.VALID, r.code(), r.err());
        assertTrue(r.out().contains("\ttrue"), r.out());
    }

    @Test
    void check_writeSkew_exitsOneAndExplainsTheCycle() {
        Run r = run("check", "-q", golden("G2-item-write-skew").toString());
        assertEquals(ExitCodes.INVALID, r.code());
        assertTrue(r.out().contains("\tfalse"), r.out());
        assertTrue(r.out().contains("G2-item"), r.out());
        assertTrue(r.out().contains("a contradiction!"), r.out());
    }

    @Test
    void check_writeSkewUnderSnapshotIsolation_isValid() {
        Run r = run("check", "-q", "-c", "snapshot-isolation", golden("G2-item-write-skew").toString());
        assertEquals(ExitCodes.VALID, r.code(), r.out());
    }

    @Test
    void check_noModelsButG1aProhibited_reportsG1a() {
        Run r = run("check", "-q", "-c", "none", "-a", "G1a", "--format", "json", golden("G1a-aborted-read").toString());
        assertEquals(ExitCodes.INVALID, r.code(), r.err());
        Map<String, Object> json = Json.object(r.out().trim());
        assertEquals(false, json.get("valid"));
        assertEquals(List.of("G1a"), json.get("anomaly-types"));
    }

    @Test
    void check_jsonFormat_printsOneObjectPerFileWithStats() {
        Run r = run("check", "-q", "--format", "json", golden("G-single-item-read-skew").toString(),
                golden("valid-serial").toString());
        String[] lines = r.out().trim().split("\n");
        assertEquals(2, lines.length, r.out());
        Map<String, Object> first = Json.object(lines[0]);
        assertEquals(false, first.get("valid"));
        assertEquals(List.of("G-single-item"), first.get("anomaly-types"));
        assertTrue(first.containsKey("not") && first.containsKey("also-not"), lines[0]);
        @SuppressWarnings("unchecked")
        Map<String, Object> stats = (Map<String, Object>) first.get("stats");
        assertTrue((Long) stats.get("txns") > 0, lines[0]);
        assertTrue(((String) first.get("file")).endsWith("G-single-item-read-skew.jsonl"));
        assertEquals(true, Json.object(lines[1]).get("valid"));
        assertEquals(ExitCodes.INVALID, r.code());
    }

    @Test
    void check_directory_writesExplanationsAndPicturesPerCycle(@TempDir Path dir) throws IOException {
        Run r = run("check", "-q", "-o", dir.toString(), golden("G2-item-write-skew").toString());
        assertEquals(ExitCodes.INVALID, r.code());
        assertTrue(Files.readString(dir.resolve("G2-item.txt")).contains("Let:"));
        String svg = Files.readString(dir.resolve("G2-item").resolve("0.svg"));
        assertTrue(svg.startsWith("<?xml") || svg.startsWith("<svg"), svg.substring(0, 40));
        assertTrue(Files.readString(dir.resolve("G2-item").resolve("0.dot")).contains("digraph"));
    }

    @Test
    void check_directory_writesTheConsolesStaticReport_withEveryFindingAndItsPicture(@TempDir Path dir)
            throws IOException {
        Run r = run("check", "-q", "-c", "serializable", "-o", dir.toString(),
                golden("G-single-item-read-skew").toString());
        assertEquals(ExitCodes.INVALID, r.code(), r.err());
        String page = Files.readString(dir.resolve("index.html"));
        assertTrue(page.startsWith("<!DOCTYPE html>"));
        assertTrue(page.contains("http-equiv=\"Content-Security-Policy\""), "the report's own policy");
        Map<String, Object> data = reportData(page);
        Map<?, ?> report = (Map<?, ?>) data.get("report");
        assertEquals("G-single-item-read-skew.jsonl", report.get("source"));
        assertEquals("false", report.get("valid"));
        assertEquals(List.of("serializable"), report.get("models"));
        List<?> findings = (List<?>) data.get("findings");
        assertEquals(1, findings.size());
        Map<?, ?> finding = (Map<?, ?>) findings.get(0);
        assertEquals("G-single-item", finding.get("type"));
        assertEquals(Files.readString(dir.resolve("G-single-item").resolve("0.svg")), finding.get("svg"),
                "the report's picture is the .svg file's");
        assertTrue(Files.readString(dir.resolve("G-single-item.txt")).contains((String) finding.get("explanation")));
    }

    /** The JSON the report page carries for its script. */
    static Map<String, Object> reportData(String page) {
        String open = "<script type=\"application/json\" id=\"isowatch-data\">";
        int start = page.indexOf(open) + open.length();
        return Json.object(page.substring(start, page.indexOf("</script>", start)));
    }

    @Test
    void check_elleCliPlotAndTimeoutOptions_areAccepted(@TempDir Path dir) throws IOException {
        // elle-cli's own test.sh runs its paper example with each of these and expects exit 1.
        for (String[] option : List.of(new String[] {"--plot-format", "svg"}, new String[] {"-s", "1000"},
                new String[] {"--cycle-search-timeout", "1000"}, new String[] {"--plot-timeout", "5000"},
                new String[] {"-t", "5000"}, new String[] {"--max-plot-bytes", "65536"}, new String[] {"-b", "65536"})) {
            Run r = run("check", "-q", option[0], option[1], "-o", dir.toString(), golden("G2-item-write-skew").toString());
            assertEquals(ExitCodes.INVALID, r.code(), String.join(" ", option) + ": " + r.err());
            assertTrue(Files.exists(dir.resolve("G2-item").resolve("0.svg")), String.join(" ", option));
        }
    }

    @Test
    void check_maxPlotBytes_skipsLargerSvgsButWritesTheirDot(@TempDir Path dir) throws IOException {
        Run r = run("check", "-q", "-o", dir.toString(), "--max-plot-bytes", "10", golden("G2-item-write-skew").toString());
        assertEquals(ExitCodes.INVALID, r.code(), r.err());
        assertTrue(Files.exists(dir.resolve("G2-item").resolve("0.dot")));
        assertFalse(Files.exists(dir.resolve("G2-item").resolve("0.svg")));
        Map<?, ?> finding = (Map<?, ?>) ((List<?>) reportData(Files.readString(dir.resolve("index.html")))
                .get("findings")).get(0);
        assertFalse(finding.containsKey("svg"), "the report follows the same limit");
        assertTrue(r.err().contains("1 cycle picture(s) not drawn: DOT larger than --max-plot-bytes 10"), r.err());
    }

    @Test
    void check_plotFormatPng_isAUsageErrorSayingHowToGetOne() {
        Run r = run("check", "-q", "-p", "png", golden("G2-item-write-skew").toString());
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("isowatch draws cycles as SVG") && r.err().contains("dot -Tpng"), r.err());
    }

    @Test
    void check_listAppendHistoryWithRegisterWrites_exits255NamingTheMicroOp(@TempDir Path dir) throws IOException {
        // elle-cli's rw-register example checked without -m rw-register: Elle's list-append throws
        // :unexpected-txn-micro-op-types, and elle-cli exits 255.
        Path registers = dir.resolve("registers.jsonl");
        Files.writeString(registers, "{\"index\":0,\"type\":\"invoke\",\"process\":0,\"value\":[[\"w\",\"x\",2]]}\n"
                + "{\"index\":1,\"type\":\"ok\",\"process\":0,\"value\":[[\"w\",\"x\",2]]}\n");
        Run r = run("check", "-q", registers.toString());
        assertEquals(ExitCodes.ERROR, r.code(), r.out());
        assertTrue(r.err().contains("line 1 (index 0): micro-op 1 is [:w \"x\" 2], a register write;"), r.err());
        assertEquals(ExitCodes.VALID, run("check", "-q", "-m", "rw-register", registers.toString()).code());
    }

    @Test
    void check_parseOnly_readsWithoutChecking_andRefusesWhatDoesNotRead(@TempDir Path dir) throws IOException {
        Run r = run("check", "-q", "--parse-only", golden("G2-item-write-skew").toString());
        assertEquals(ExitCodes.VALID, r.code(), "an invalid history that reads is fine: " + r.err());
        assertTrue(r.out().contains("\t6 events read in "), r.out());
        assertFalse(r.out().contains("anomaly types") || r.out().contains("\tfalse"), r.out());
        Path bad = dir.resolve("bad.jsonl");
        Files.writeString(bad, "{\"index\":0,\"type\":\"okay\",\"process\":0,\"value\":[]}\n");
        Run b = run("check", "-q", "--parse-only", bad.toString());
        assertEquals(ExitCodes.ERROR, b.code());
        assertTrue(b.err().contains("okay"), b.err());
    }

    @Test
    void check_missingFile_saysSo(@TempDir Path dir) {
        Run r = run("check", "-q", dir.resolve("nonexistent.edn").toString());
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("nonexistent.edn: no such file"), r.err());
    }

    @Test
    void check_malformedJson_exits255NamingFileAndLine(@TempDir Path dir) throws IOException {
        Path bad = dir.resolve("bad.jsonl");
        Files.writeString(bad, "{\"index\":0,\"type\":\"invoke\",\"process\":0,\"f\":\"txn\",\"value\":[]}\n"
                + "{\"index\":1,\"type\":\"okay\",\"process\":0,\"f\":\"txn\",\"value\":[]}\n");
        Run r = run("check", "-q", bad.toString());
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("bad.jsonl") && r.err().contains(":2") && r.err().contains("okay"), r.err());
        assertFalse(r.out().contains("true") || r.out().contains("false"), "no verdict for a broken file: " + r.out());
    }

    /** Process 3 invokes again at line 2 without completing its first transaction. */
    private static final String DOUBLE_INVOKE =
            "{\"index\":0,\"type\":\"invoke\",\"process\":3,\"f\":\"txn\",\"value\":[[\"append\",1,1]]}\n"
            + "{\"index\":1,\"type\":\"invoke\",\"process\":3,\"f\":\"txn\",\"value\":[[\"append\",1,2]]}\n";

    @Test
    void check_doubleInvoke_exits255NamingTheLine(@TempDir Path dir) throws IOException {
        Path bad = dir.resolve("double.jsonl");
        Files.writeString(bad, DOUBLE_INVOKE);
        Run r = run("check", "-q", bad.toString());
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("line 2") && r.err().contains("process 3"), r.err());
    }

    /** The first problem in file order is the one reported, although another thread reads the file. */
    @Test
    void check_violationBeforeABrokenLine_reportsTheViolation(@TempDir Path dir) throws IOException {
        Path bad = dir.resolve("double-then-broken.jsonl");
        Files.writeString(bad, DOUBLE_INVOKE + "{\"index\":2,\"type\":\"okay\",\"process\":3,\"f\":\"txn\",\"value\":[]}\n");
        Run r = run("check", "-q", bad.toString());
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("line 2") && r.err().contains("process 3"), r.err());
        assertFalse(r.err().contains("okay"), "the broken line comes after the violation: " + r.err());
    }

    @Test
    void check_duplicateAppendValue_exits255NamingKeyAndValue(@TempDir Path dir) throws IOException {
        Path bad = dir.resolve("dup.jsonl");
        Files.writeString(bad, "{\"index\":0,\"type\":\"invoke\",\"process\":0,\"f\":\"txn\",\"value\":[[\"append\",7,1]]}\n"
                + "{\"index\":1,\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[[\"append\",7,1]]}\n"
                + "{\"index\":2,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[[\"append\",7,1]]}\n");
        Run r = run("check", "-q", bad.toString());
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("line 3") && r.err().contains("value 1") && r.err().contains("key 7"), r.err());
    }

    @Test
    void check_completionChangingItsInvocationsAppends_exits255NamingBoth(@TempDir Path dir) throws IOException {
        Path bad = dir.resolve("changed.jsonl");
        Files.writeString(bad, "{\"index\":0,\"type\":\"invoke\",\"process\":0,\"f\":\"txn\",\"value\":[[\"append\",7,1],[\"r\",8,null]]}\n"
                + "{\"index\":1,\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[[\"append\",7,2],[\"r\",8,[]]]}\n");
        Run r = run("check", "-q", bad.toString());
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("line 2") && r.err().contains("writes [:append 7 2]")
                && r.err().contains("invocation at index 0 writes [:append 7 1]"), r.err());
    }

    @Test
    void check_registerReadOfAList_exits255(@TempDir Path dir) throws IOException {
        Path bad = dir.resolve("list.jsonl");
        Files.writeString(bad, "{\"index\":0,\"type\":\"invoke\",\"process\":0,\"f\":\"txn\",\"value\":[[\"r\",8,null]]}\n"
                + "{\"index\":1,\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[[\"r\",8,[1,2]]]}\n");
        Run r = run("check", "-q", "-m", "rw-register", bad.toString());
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("line 2") && r.err().contains("reads key 8 as the list [1 2]"), r.err());
    }

    /** Issue 14's example: Jepsen writes a completed read of an empty key as nil. */
    @Test
    void check_writeSkewWithNilReads_reportsG2Item(@TempDir Path dir) throws IOException {
        Path h = dir.resolve("nil-reads.jsonl");
        Files.writeString(h, """
                {"index":0,"type":"invoke","process":3,"f":"txn","value":[["r",12,null],["append",11,5]]}
                {"index":1,"type":"invoke","process":4,"f":"txn","value":[["r",11,null],["append",12,7]]}
                {"index":2,"type":"ok","process":3,"f":"txn","value":[["r",12,null],["append",11,5]]}
                {"index":3,"type":"ok","process":4,"f":"txn","value":[["r",11,null],["append",12,7]]}
                """);
        Run r = run("check", "-q", "-c", "serializable", "--format", "json", h.toString());
        assertEquals(ExitCodes.INVALID, r.code(), r.err());
        assertEquals(List.of("G2-item"), Json.object(r.out().strip()).get("anomaly-types"), r.out());
    }

    @Test
    void check_unknownModel_exits255ListingKnownModels() {
        Run r = run("check", "-c", "serialisable", golden("valid-serial").toString());
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("serialisable") && r.err().contains("serializable"), r.err());
    }

    @Test
    void check_missingFile_exits255() {
        Run r = run("check", "-q", "/no/such/history.jsonl");
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("/no/such/history.jsonl"), r.err());
    }
}

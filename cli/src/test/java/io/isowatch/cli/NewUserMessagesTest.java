package io.isowatch.cli;

import io.isowatch.agentcli.ExitCodes;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The messages a new user meets first (issue 39), each through the picocli entry point on real
 * files: what was left out and why, "did you mean", and the fix an error names.
 */
class NewUserMessagesTest {

    /** Elle's paper example has this shape: EDN ops with :index, :type and :value, and no :process. */
    private static final String NO_PROCESS = """
            {:index 0 :type :invoke :value [[:append 1 1] [:append 2 1]]}
            {:index 1 :type :ok     :value [[:append 1 1] [:append 2 1]]}
            {:index 2 :type :invoke :value [[:append 2 2] [:r 1 nil]]}
            {:index 3 :type :ok     :value [[:append 2 2] [:r 1 [1]]]}
            {:index 4 :type :invoke :value [[:r 2 nil] [:append 1 2]]}
            {:index 5 :type :ok     :value [[:r 2 [1 2]] [:append 1 2]]}
            {:index 6 :type :invoke :value [[:r 1 nil]]}
            {:index 7 :type :ok     :value [[:r 1 [1 2]]]}
            """;

    private static Path write(Path dir, String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.writeString(file, text);
        return file;
    }

    @Test
    void check_opsWithoutProcess_saysHowManyWereLeftOutAndWhy_andTheHintNamesItFirst(@TempDir Path dir)
            throws IOException {
        Path file = write(dir, "paper-shape.edn", NO_PROCESS);

        CheckCommandTest.Run r = CheckCommandTest.run("check", "-q", file.toString());

        assertEquals(ExitCodes.VALID, r.code(), r.err());
        assertTrue(r.err().contains(file + ": 8 ops left out: no integer :process"), r.err());
        assertEquals(1, r.err().lines().filter(l -> l.contains("left out")).count(), r.err());
        assertTrue(r.out().contains("unknown"), r.out());
        String hint = r.out().substring(r.out().indexOf("No dependency"));
        assertTrue(hint.startsWith("No dependency between transactions could be inferred: 8 ops were left out: "
                + "no integer :process"), r.out());
    }

    @Test
    void parseOnly_opsWithoutProcess_saysHowManyWereLeftOutAndWhy(@TempDir Path dir) throws IOException {
        Path file = write(dir, "paper-shape.edn", NO_PROCESS);

        CheckCommandTest.Run r = CheckCommandTest.run("check", "--parse-only", file.toString());

        assertEquals(ExitCodes.VALID, r.code(), r.err());
        assertTrue(r.out().matches("(?s).*\\t0 events read in [0-9.]+ s; 8 ops left out: no integer :process.*"),
                r.out());
    }

    @Test
    void check_nothingLeftOut_saysNothingOfIt() {
        CheckCommandTest.Run r = CheckCommandTest.run("check", "-q",
                CheckCommandTest.golden("valid-concurrent").toString());
        assertFalse(r.err().contains("left out"), r.err());
        assertFalse(r.out().contains("left out"), r.out());
    }

    @Test
    void check_misspelledModel_suggestsTheNearestName() {
        CheckCommandTest.Run r = CheckCommandTest.run("check", "-c", "serialisable",
                CheckCommandTest.golden("valid-concurrent").toString());
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("unknown consistency model \"serialisable\"; did you mean serializable?"), r.err());
        assertFalse(r.err().contains("PL-SS"), "no list of every model when one is near: " + r.err());
    }

    @Test
    void check_misspelledAnomaly_suggestsTheNearestName() {
        CheckCommandTest.Run r = CheckCommandTest.run("check", "-a", "G2item",
                CheckCommandTest.golden("valid-concurrent").toString());
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("unknown anomaly \"G2item\"; did you mean G2-item?"), r.err());
    }

    @Test
    void misspelledCommand_suggestsTheNearestOne() {
        CheckCommandTest.Run r = CheckCommandTest.run("chek", "x");
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().startsWith("isowatch: unknown command 'chek'; did you mean check?\n"), r.err());
    }

    @Test
    void unknownCommandNearNothing_listsTheCommands() {
        CheckCommandTest.Run r = CheckCommandTest.run("frobnicate");
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("unknown command 'frobnicate'; the commands are: agent, check, demo"), r.err());
    }

    @Test
    void agentRun_duckDbAtTheDefaultLevel_namesItsOneLevelAndTheFlag(@TempDir Path dir) {
        CheckCommandTest.Run r = CheckCommandTest.run("agent", "run", "--target", "jdbc:duckdb:" + dir.resolve("db"),
                "--duration", "1s", "--history-out", dir.resolve("h.jsonl").toString());
        assertEquals(ExitCodes.ERROR, r.code(), r.err());
        assertTrue(r.err().contains("DuckDB offers one level, snapshot isolation, which its driver calls "
                + "repeatable-read: pass --isolation repeatable-read"), r.err());
        assertEquals(1, r.err().lines().filter(l -> l.startsWith("isowatch:")).count(), r.err());
    }

    @Test
    void agentRun_noRateAndNoTxnBound_warnsOfAVeryLargeHistoryAtStart(@TempDir Path dir) {
        CheckCommandTest.Run r = CheckCommandTest.run("agent", "run", "--target", "embedded:serializable",
                "--rate", "0", "--duration", "200ms", "--history-out", dir.resolve("h.jsonl").toString());
        assertEquals(ExitCodes.VALID, r.code(), r.err());
        assertEquals(1, r.err().lines().filter(l -> l.contains("no --rate limit and no --txns bound")).count(), r.err());
        assertTrue(r.err().contains("bound it with --txns N or --rate TXN_PER_S"), r.err());

        CheckCommandTest.Run bounded = CheckCommandTest.run("agent", "run", "--target", "embedded:serializable",
                "--rate", "0", "--txns", "50", "--history-out", dir.resolve("b.jsonl").toString());
        assertFalse(bounded.err().contains("no --rate limit"), bounded.err());
    }

    @Test
    void check_registerGarbageRead_isWrittenInRegisterWords(@TempDir Path dir) throws IOException {
        Path file = write(dir, "register.edn", """
                {:index 0 :type :invoke :process 0 :value [[:r "x" nil]]}
                {:index 1 :type :ok     :process 0 :value [[:r "x" 2]]}
                """);

        CheckCommandTest.Run text = CheckCommandTest.run("check", "-q", "-m", "rw-register", file.toString());
        CheckCommandTest.Run json = CheckCommandTest.run("check", "-q", "-m", "rw-register", "--format", "json",
                file.toString());

        assertTrue(text.out().contains("T1 read register \"x\" = 2, a value no transaction ever wrote:"), text.out());
        assertTrue(text.out().contains(":value [[:r \"x\" 2]]"), text.out());
        assertFalse(text.out().contains("[2]"), "no list words: " + text.out());
        assertTrue(json.out().contains("\"mop\":[\"r\",\"x\",2]"), json.out());
    }

    @Test
    void check_registerReadOfNilThenAValue_isInternal_asElleReportsIt(@TempDir Path dir) throws IOException {
        Path file = write(dir, "nil-then-value.edn", """
                {:index 0 :type :invoke :process 1 :value [[:r "x" nil] [:r "x" nil]]}
                {:index 1 :type :invoke :process 0 :value [[:w "x" 2]]}
                {:index 2 :type :ok     :process 0 :value [[:w "x" 2]]}
                {:index 3 :type :ok     :process 1 :value [[:r "x" nil] [:r "x" 2]]}
                """);

        CheckCommandTest.Run r = CheckCommandTest.run("check", "-q", "-m", "rw-register", file.toString());

        assertEquals(ExitCodes.INVALID, r.code(), r.err());
        assertTrue(r.out().contains("anomaly types: internal\n"), r.out());
        assertTrue(r.out().contains("T1 read register \"x\" = 2, but its own earlier steps imply it should have seen nil"),
                r.out());
    }
}

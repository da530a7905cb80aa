package io.isowatch.cli;

import io.isowatch.agentcli.ExitCodes;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The one line a check prints for a bug or for running out of memory, in place of a stack trace. */
class FatalErrorsTest {

    private static final Pattern TRACE_FILE = Pattern.compile("stack trace in (\\S+);");

    @Test
    void bug_isOneLine_namingWhereAndTheBug_withItsStackTraceInAFile() throws IOException {
        IllegalStateException bug = new IllegalStateException("no evidence for ww edge\nfrom 3 to 4");

        String line = FatalErrors.bug("at line 12 (index 11)", bug);

        assertFalse(line.contains("\n"), line);
        assertTrue(line.startsWith("internal error at line 12 (index 11): IllegalStateException: "
                + "no evidence for ww edge from 3 to 4; this is a bug in isowatch (stack trace in "), line);
        Matcher m = TRACE_FILE.matcher(line);
        assertTrue(m.find(), line);
        Path trace = Path.of(m.group(1));
        try {
            String saved = Files.readString(trace);
            assertTrue(saved.contains("java.lang.IllegalStateException: no evidence for ww edge"), saved);
            assertTrue(saved.contains("at io.isowatch.cli.FatalErrorsTest."), saved);
        } finally {
            Files.deleteIfExists(trace);
        }
    }

    @Test
    void bug_withAMessageQuotingAWholeRead_isCutShort() {
        String line = FatalErrors.bug("at the end of the history", new IllegalArgumentException("x".repeat(100_000)));
        assertTrue(line.length() < 1_000, () -> line.length() + " characters");
        deleteTraceOf(line);
    }

    @Test
    void twice_suggestsTwiceTheHeap_inWholeGigabytesFromOneOn() {
        assertEquals("64m", FatalErrors.twice(16));
        assertEquals("512m", FatalErrors.twice(256));
        assertEquals("2g", FatalErrors.twice(700));
        assertEquals("2g", FatalErrors.twice(1024));
        assertEquals("12g", FatalErrors.twice(6144));
    }

    @Test
    void outOfMemory_namesTheHeapAndTheFlagToRaiseIt() {
        String line = FatalErrors.outOfMemory("checking h.jsonl");
        assertTrue(line.matches("out of memory checking h\\.jsonl \\(heap \\d+ MB\\); give it more with "
                + "JAVA_OPTS=-Xmx\\d+[mg]"), line);
    }

    @Test
    void where_namesTheEventBeingChecked_orTheLastOneRead_orTheEnd() {
        Op op = new Op(11, 0, OpType.OK, 1, List.of(new MicroOp.Read(1, new long[] {1})), 12);
        assertEquals("at line 12 (index 11)", HistoryCheck.where(true, op));
        assertEquals("reading the history after line 12 (index 11)", HistoryCheck.where(false, op));
        assertEquals("at index 11", HistoryCheck.where(true, new Op(11, 0, OpType.OK, 1, List.of())));
        assertEquals("at the end of the history", HistoryCheck.where(true, null));
    }

    @Test
    void check_negativeMaxShown_isAUsageError_notABug() {
        CheckCommandTest.Run r = CheckCommandTest.run("check", "-q", "--max-shown", "-1",
                CheckCommandTest.golden("valid-concurrent").toString());
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().startsWith("isowatch: --max-shown: expected a whole number from 0 up, got -1"), r.err());
    }

    private static void deleteTraceOf(String line) {
        Matcher m = TRACE_FILE.matcher(line);
        if (m.find()) {
            try {
                Files.deleteIfExists(Path.of(m.group(1)));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}

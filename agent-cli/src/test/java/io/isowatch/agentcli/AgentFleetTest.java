package io.isowatch.agentcli;

import io.isowatch.agent.recorder.HistoryMember;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.codec.HistoryReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static io.isowatch.agentcli.AgentMainTest.run;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code agent run --history NAME --member M} (issue 37): several agents recording one history. */
class AgentFleetTest {

    private static final long HOUR_NANOS = 3_600_000_000_000L;

    @Test
    void twoMembers_recordDisjointProcessesAndElements_underDefaultIdsOfTheHistory(@TempDir Path dir) throws Exception {
        List<Op> zero = member(dir, 0);
        List<Op> five = member(dir, 5);
        HistoryMember m0 = new HistoryMember("orders", 0);
        HistoryMember m5 = new HistoryMember("orders", 5);
        assertTrue(zero.stream().allMatch(op -> m0.owns(op.process())), "member 0's processes");
        assertTrue(five.stream().allMatch(op -> m5.owns(op.process())), "member 5's processes");
        Set<String> appended = new HashSet<>(appends(zero));
        for (String a : appends(five)) {
            assertTrue(appended.add(a), "appended by both members: " + a);
        }
        assertTrue(appends(five).stream().allMatch(a -> m5.owns(Long.parseLong(a.split("=")[1]))), "member 5's values");
        // Each embedded store is the agent's own, so the members' keys are apart as well.
        assertTrue(zero.stream().flatMap(op -> op.value().stream()).allMatch(m -> m.key() < 1L << 52));
        assertTrue(five.stream().flatMap(op -> op.value().stream()).allMatch(m -> m.key() >= 5L << 52));
    }

    /** Runs member {@code m} of history "orders" with a spool and a history file; checks the agent id and export. */
    private static List<Op> member(Path dir, int m) throws Exception {
        Path spool = dir.resolve("spool-" + m);
        Path history = dir.resolve("h-" + m + ".jsonl");
        AgentMainTest.Run r = run("agent", "run", "--target", "embedded:serializable", "--txns", "300", "--duration",
                "0", "--rate", "0", "--keys", "3", "--history", "orders", "--member", Integer.toString(m),
                "--spool-dir", spool.toString(), "--history-out", history.toString());
        assertEquals(ExitCodes.VALID, r.code(), r.err());
        assertTrue(r.err().startsWith("isowatch agent orders-" + m + " (member " + m + " of history orders): "),
                "the default agent id: " + r.err());
        Path exported = dir.resolve("export-" + m + ".jsonl");
        AgentMainTest.Run export = run("agent", "export", "--spool-dir", spool.toString(), "-o", exported.toString());
        assertEquals(ExitCodes.VALID, export.code(), export.err());
        assertEquals(Files.readAllLines(history), Files.readAllLines(exported), "the spool exports as --history-out");
        return read(history);
    }

    /**
     * A member resumed on its spool continues in its own numbers past every process it used, both
     * after a clean stop (the mark holds the largest process) and when the spool is read.
     */
    @Test
    void aResumedMember_continuesItsOwnProcessNumbers(@TempDir Path dir) throws Exception {
        Path spool = dir.resolve("spool");
        Path history = dir.resolve("h.jsonl");
        HistoryMember m = new HistoryMember("orders", 2);
        long lastMax = -1;
        int before = 0;
        for (int run = 0; run < 3; run++) {
            if (run == 2) {
                Files.delete(spool.resolve("clean-stop")); // as after a crash: the spool is read instead
            }
            AgentMainTest.Run r = run("agent", "run", "--target", "embedded:serializable", "--txns", "30",
                    "--duration", "0", "-q", "--concurrency", "3", "--history", "orders", "--member", "2",
                    "--spool-dir", spool.toString(), "--history-out", history.toString());
            assertEquals(ExitCodes.VALID, r.code(), r.err());
            List<Op> ops = read(history);
            List<Op> thisRun = ops.subList(before, ops.size());
            assertTrue(thisRun.size() >= 60, "run " + run + ": " + thisRun.size());
            assertTrue(thisRun.stream().allMatch(op -> m.owns(op.process())), "run " + run);
            long first = thisRun.stream().mapToLong(Op::process).min().orElseThrow();
            assertTrue(first > lastMax, "run " + run + " starts at process " + first + ", not past " + lastMax);
            lastMax = thisRun.stream().mapToLong(Op::process).max().orElseThrow();
            before = ops.size();
        }
        assertTrue(lastMax < m.process(100), "numbers grow by the processes used, not by events: " + lastMax);
    }

    @Test
    void aSpoolOfAnotherMember_isRefused(@TempDir Path dir) {
        Path spool = dir.resolve("spool");
        assertEquals(ExitCodes.VALID, run("agent", "run", "--target", "embedded:serializable", "--txns", "20",
                "--duration", "0", "-q", "--history", "orders", "--member", "2", "--agent-id", "a",
                "--spool-dir", spool.toString()).code());
        AgentMainTest.Run r = run("agent", "run", "--target", "embedded:serializable", "--txns", "20", "--duration",
                "0", "-q", "--history", "orders", "--member", "3", "--agent-id", "a", "--spool-dir", spool.toString());
        assertEquals(ExitCodes.ERROR, r.code());
        assertTrue(r.err().contains("which is not one of member 3 of history 'orders' but of member 2"), r.err());
    }

    @Test
    void badMembers_areUsageErrors_namingTheFix() {
        String[] base = {"agent", "run", "--target", "embedded:serializable", "--txns", "1", "--duration", "0"};
        assertRefused(concat(base, "--history", "orders", "--member", "1000"),
                "isowatch: --history/--member: member 1000 of history 'orders': members are 0 to 999");
        assertRefused(concat(base, "--history", "orders", "--member", "-1"),
                "isowatch: --history/--member: member -1 of history 'orders'");
        assertRefused(concat(base, "--history", "orders"), "isowatch: --history orders needs --member M");
        assertRefused(concat(base, "--member", "1"), "isowatch: --member numbers this agent within a --history");
        assertRefused(concat(base, "--history", "or ders", "--member", "1"),
                "isowatch: --history/--member: history name 'or ders': use 1 to 100 letters");
    }

    @Test
    void clockOffset_shiftsEveryRecordedTime(@TempDir Path dir) throws Exception {
        Path history = dir.resolve("h.jsonl");
        long before = System.currentTimeMillis() * 1_000_000L;
        AgentMainTest.Run r = run("agent", "run", "--target", "embedded:serializable", "--txns", "50", "--duration",
                "0", "-q", "--clock-offset", "-1h", "--history-out", history.toString());
        long after = System.currentTimeMillis() * 1_000_000L;
        assertEquals(ExitCodes.VALID, r.code(), r.err());
        List<Op> ops = read(history);
        assertTrue(ops.size() >= 100);
        for (Op op : ops) {
            // 1 ms of slack: the recorder anchors its clock to the wall clock's millisecond.
            assertTrue(op.time() >= before - HOUR_NANOS - 1_000_000 && op.time() <= after - HOUR_NANOS + 1_000_000,
                    "time " + op.time() + " is not an hour before the run (" + before + " to " + after + ")");
        }
        AgentMainTest.Run bad = run("agent", "run", "--target", "embedded:serializable", "--txns", "1", "--duration",
                "0", "--clock-offset", "soon");
        assertEquals(ExitCodes.ERROR, bad.code());
        assertTrue(bad.err().startsWith("isowatch: --clock-offset: cannot read \"soon\" as a duration"), bad.err());
    }

    private static void assertRefused(String[] args, String start) {
        AgentMainTest.Run r = run(args);
        assertEquals(ExitCodes.ERROR, r.code(), r.err());
        assertTrue(r.err().startsWith(start), r.err());
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = new String[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static List<Op> read(Path history) {
        List<Op> ops = new ArrayList<>();
        try (HistoryReader reader = HistoryReader.open(history, new AtomTable())) {
            for (Op op = reader.next(); op != null; op = reader.next()) {
                ops.add(op);
            }
        }
        return ops;
    }

    /** Every {@code key=element} an invocation appends. */
    private static List<String> appends(List<Op> ops) {
        List<String> out = new ArrayList<>();
        for (Op op : ops) {
            if (op.type() == io.isowatch.history.OpType.INVOKE) {
                for (MicroOp m : op.value()) {
                    if (m instanceof MicroOp.Append a) {
                        out.add(a.key() + "=" + a.value());
                    }
                }
            }
        }
        return out;
    }
}

package io.isowatch.agentcli;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Validity;
import io.isowatch.checker.Verdict;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import io.isowatch.history.codec.HistoryReader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code isowatch agent run} killed with SIGKILL mid-run, twice, and run again, each time as a
 * separate JVM on one spool and one {@code --history-out}: the spool keeps a dense prefix of the
 * history, the restarted agent completes the history file from it and records each transaction
 * the kill left open as info, and {@code isowatch agent export} turns the spool into the same
 * history, which the checker counts whole.
 */
class AgentCrashIT {

    private static final int KILLS = 2;

    @TempDir
    Path dir;

    @Test
    void sigkillTwice_thenACleanRun_losesNoEvent_andCompletesEveryOpenTransactionAsInfo() throws Exception {
        Path spool = dir.resolve("spool");
        Path history = dir.resolve("history.jsonl");
        List<String> run = List.of("agent", "run", "--target", "embedded:serializable", "--rate", "0",
                "--concurrency", "8", "--keys", "20", "--spool-dir", spool.toString(), "--history-out",
                history.toString());
        Map<Long, Integer> leftOpenAt = new HashMap<>(); // process -> the kill that left it open
        List<Op> spooled = List.of();
        for (int kill = 0; kill < KILLS; kill++) {
            List<String> args = new ArrayList<>(run);
            args.addAll(List.of("--duration", "0"));
            try (AgentProcess agent = AgentProcess.start(dir.resolve("out-" + kill + ".txt"), args.toArray(String[]::new))) {
                agent.awaitErrLine(line -> line.contains("txn/s") && line.contains(" ok "), 30);
                agent.kill();
                if (kill > 0) {
                    assertOpenTransactionsReported(agent.errLines(), leftOpenAt, kill - 1);
                }
            }
            List<Op> before = spooled;
            spooled = export(spool);
            assertDense(spooled);
            assertEquals(plain(before), plain(spooled.subList(0, before.size())), "the spool only grows");
            List<Op> file = readWholeLines(history);
            assertTrue(file.size() <= spooled.size());
            assertEquals(plain(spooled.subList(0, file.size())), plain(file), "the history file is a prefix of the spool");
            Map<Long, Op> open = openTransactions(spooled);
            for (Long p : open.keySet()) {
                leftOpenAt.put(p, kill);
            }
            System.err.printf("AgentCrashIT: kill %d: %,d events in the spool, %,d in the history file (%,d lost with"
                    + " its buffer), %d transaction(s) open%n", kill + 1, spooled.size(), file.size(),
                    spooled.size() - file.size(), open.size());
        }

        List<String> args = new ArrayList<>(run);
        args.addAll(List.of("--duration", "0", "--txns", "2000", "-q"));
        int code;
        List<String> err;
        try (AgentProcess agent = AgentProcess.start(dir.resolve("out-final.txt"), args.toArray(String[]::new))) {
            code = agent.await(60);
            err = agent.errLines();
        }
        assertEquals(ExitCodes.VALID, code, err.toString());
        assertOpenTransactionsReported(err, leftOpenAt, KILLS - 1);

        List<Op> whole = export(spool);
        assertDense(whole);
        assertEquals(plain(whole), plain(read(history)), "the history file holds every spooled event");
        assertEquals(Map.of(), openTransactions(whole), "every transaction is complete");
        for (Map.Entry<Long, Integer> e : leftOpenAt.entrySet()) {
            List<Op> ops = whole.stream().filter(op -> op.process() == e.getKey()).toList();
            Op last = ops.get(ops.size() - 1);
            assertEquals(OpType.INFO, last.type(), "process " + e.getKey() + ", open at kill " + (e.getValue() + 1)
                    + ", ends in info and never invokes again");
            assertEquals(OpType.INVOKE, ops.get(ops.size() - 2).type());
        }
        assertTrue(leftOpenAt.size() >= 1, "8 clients as fast as they go: some transaction is open at a kill");

        IncrementalChecker checker = new IncrementalChecker(
                CheckerOptions.defaults().toBuilder().consistencyModels(Set.of(ConsistencyModel.of("serializable")))
                        .build(), new AtomTable());
        whole.forEach(checker::accept);
        Verdict verdict = checker.finish();
        assertEquals(Validity.TRUE, verdict.valid());
        long invokes = whole.stream().filter(op -> op.type() == OpType.INVOKE).count();
        assertEquals(invokes, verdict.stats().txns(), "the checker counts every transaction");
        assertTrue(verdict.stats().info() >= leftOpenAt.size(), verdict.stats().toString());
        System.err.printf("AgentCrashIT: %,d events after %d kills and a clean run; %d transaction(s) completed as"
                + " info after a kill; checker: %s%n", whole.size(), KILLS, leftOpenAt.size(), verdict.stats());
    }

    /** The restarted agent said how many transactions the kill left open, and named their processes. */
    private static void assertOpenTransactionsReported(List<String> err, Map<Long, Integer> leftOpenAt, int kill) {
        long open = leftOpenAt.values().stream().filter(k -> k == kill).count();
        if (open == 0) {
            return;
        }
        assertTrue(err.stream().anyMatch(l -> l.startsWith("isowatch: " + open + " transaction(s) were open")),
                "expected " + open + " open transaction(s) reported: " + err);
    }

    /** {@code isowatch agent export} of the spool, read back. */
    private List<Op> export(Path spool) throws Exception {
        Path out = dir.resolve("export.jsonl");
        AgentMainTest.Run r = AgentMainTest.run("agent", "export", "--spool-dir", spool.toString(), "-o", out.toString());
        assertEquals(ExitCodes.VALID, r.code(), r.err());
        return read(out);
    }

    /**
     * The history file as a restarted agent finds it: SIGKILL may cut the buffered writer's tail
     * mid-line, and the restart cuts that torn line off ({@code HistoryFileEnd}); the whole lines
     * before it are what must be a prefix of the spool.
     */
    private List<Op> readWholeLines(Path file) throws Exception {
        if (!Files.exists(file)) {
            return List.of();
        }
        byte[] bytes = Files.readAllBytes(file);
        int end = bytes.length;
        while (end > 0 && bytes[end - 1] != '\n') {
            end--;
        }
        Path whole = dir.resolve("whole-lines.jsonl");
        Files.write(whole, Arrays.copyOf(bytes, end));
        return read(whole);
    }

    private static List<Op> read(Path file) {
        List<Op> ops = new ArrayList<>();
        if (!Files.exists(file)) {
            return ops;
        }
        try (HistoryReader reader = HistoryReader.open(file, new AtomTable())) {
            for (Op op = reader.next(); op != null; op = reader.next()) {
                ops.add(op);
            }
        }
        return ops;
    }

    private static void assertDense(List<Op> ops) {
        for (int i = 0; i < ops.size(); i++) {
            assertEquals(i, ops.get(i).index(), "sequence numbers are dense from 0");
        }
    }

    /** Per process, its invocation that no completion follows. */
    private static Map<Long, Op> openTransactions(List<Op> ops) {
        Map<Long, Op> open = new HashMap<>();
        for (Op op : ops) {
            if (op.type() == OpType.INVOKE) {
                open.put(op.process(), op);
            } else {
                open.remove(op.process());
            }
        }
        return open;
    }

    /** The ops without the lines they were read from. */
    private static List<Op> plain(List<Op> ops) {
        return ops.stream().map(op -> new Op(op.index(), op.time(), op.type(), op.process(), op.value())).toList();
    }
}

package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import io.isowatch.history.codec.JsonLinesWriter;
import io.isowatch.testing.Golden;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * Test helpers for the checker's properties: the compact history notation, running the
 * incremental checker over a history or a prefix, and rendering a history for a failure message.
 *
 * <p>Notation: micro-ops separated by spaces; {@code a:x:1} appends 1 to key x, {@code r:x:1,2}
 * reads x as [1, 2], {@code r:x:} reads it empty and {@code r:x} leaves the result unknown.
 * Keys are integers, or the letters x, y, z, w standing for {@code base}, {@code base + 1}, ...
 */
final class CheckerHistories {

    private static final String KEY_LETTERS = "xyzw";

    private CheckerHistories() {
    }

    /** Parses micro-ops in the notation, letter keys counted from {@code base}. */
    static List<MicroOp> mops(String text, long base) {
        List<MicroOp> out = new ArrayList<>();
        for (String token : text.trim().split("\\s+")) {
            String[] parts = token.split(":", -1);
            long key = key(parts[1], base);
            if (parts[0].equals("a")) {
                out.add(new MicroOp.Append(key, Long.parseLong(parts[2])));
            } else if (parts[0].equals("r")) {
                out.add(new MicroOp.Read(key, parts.length < 3 ? null : elements(parts[2])));
            } else {
                throw new IllegalArgumentException("unknown micro-op " + token);
            }
        }
        return out;
    }

    private static long key(String text, long base) {
        int letter = KEY_LETTERS.indexOf(text);
        return text.length() == 1 && letter >= 0 ? base + letter : Long.parseLong(text);
    }

    private static long[] elements(String text) {
        if (text.isEmpty()) {
            return new long[0];
        }
        String[] parts = text.split(",");
        long[] out = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            out[i] = Long.parseLong(parts[i]);
        }
        return out;
    }

    /** The invocation of a transaction: its micro-ops with every read unknown. */
    static List<MicroOp> invocation(List<MicroOp> completed) {
        return completed.stream()
                .map(m -> m instanceof MicroOp.Read r ? new MicroOp.Read(r.key(), null) : m)
                .toList();
    }

    /**
     * Builds a history event by event with dense indices and increasing times; fail and info
     * completions repeat the invocation, as Jepsen writes them.
     */
    static final class Builder {
        private final List<Op> ops = new ArrayList<>();
        private final Map<Long, List<MicroOp>> open = new HashMap<>();
        private final java.util.function.BiFunction<String, Long, List<MicroOp>> notation;

        /** A builder reading transactions in {@code notation} (text, key base to micro-ops). */
        Builder(java.util.function.BiFunction<String, Long, List<MicroOp>> notation) {
            this.notation = notation;
        }

        Builder invoke(long process, String text) {
            List<MicroOp> inv = invocation(notation.apply(text, 0L));
            open.put(process, inv);
            return add(OpType.INVOKE, process, inv);
        }

        Builder ok(long process, String text) {
            return completeWith(OpType.OK, process, text);
        }

        Builder fail(long process) {
            return add(OpType.FAIL, process, open.remove(process));
        }

        /** A fail completion with its own value (a failed transaction's reads, as Jepsen records them). */
        Builder failWith(long process, String text) {
            return completeWith(OpType.FAIL, process, text);
        }

        /** An info completion with its own value. */
        Builder infoWith(long process, String text) {
            return completeWith(OpType.INFO, process, text);
        }

        private Builder completeWith(OpType type, long process, String text) {
            open.remove(process);
            return add(type, process, notation.apply(text, 0L));
        }

        Builder info(long process) {
            return add(OpType.INFO, process, open.remove(process));
        }

        /** An invocation immediately followed by its ok completion. */
        Builder txn(long process, String text) {
            return invoke(process, text).ok(process, text);
        }

        private Builder add(OpType type, long process, List<MicroOp> value) {
            ops.add(new Op(ops.size(), 1_000L * (ops.size() + 1), type, process, value));
            return this;
        }

        List<Op> build() {
            return List.copyOf(ops);
        }
    }

    /** A list-append history in this class's notation. */
    static Builder history() {
        return new Builder(CheckerHistories::mops);
    }

    /** Runs the incremental checker over {@code ops} in the order given. */
    static Verdict check(List<Op> ops, CheckerOptions options) {
        IncrementalChecker checker = new IncrementalChecker(options, new AtomTable());
        ops.forEach(checker::accept);
        return checker.finish();
    }

    static SortedSet<String> typeNames(Verdict v) {
        SortedSet<String> out = new TreeSet<>();
        for (AnomalyType t : v.anomalyTypes()) {
            out.add(t.elleName());
        }
        return out;
    }

    /** Largest key any micro-op uses, or -1. */
    static long maxKey(List<Op> ops) {
        return ops.stream().flatMap(o -> o.value().stream()).mapToLong(MicroOp::key).max().orElse(-1);
    }

    static long maxProcess(List<Op> ops) {
        return ops.stream().mapToLong(Op::process).max().orElse(-1);
    }

    /** Dense indices from 0 and times 1 µs apart, keeping the order. */
    static List<Op> reindex(List<Op> ops) {
        List<Op> out = new ArrayList<>(ops.size());
        for (Op op : ops) {
            int i = out.size();
            out.add(new Op(i, 1_000L * (i + 1), op.type(), op.process(), op.value()));
        }
        return out;
    }

    /** A golden history's events and options. */
    record Loaded(List<Op> ops, AtomTable atoms, Set<String> models, Set<String> anomalies,
                  RegisterOptions registers) {
        CheckerOptions options() {
            CheckerOptions o = CheckerOptions.defaults().toBuilder()
                    .consistencyModels(ConsistencyModel.ofNames(models)).anomalies(anomalies).build();
            return registers == null ? o : o.toBuilder().registers(registers).build();
        }

        boolean listAppend() {
            return registers == null;
        }
    }

    static Loaded load(Golden.Case c) {
        AtomTable atoms = new AtomTable();
        List<Op> ops = c.ops(atoms);
        List<String> anomalies = c.strings("anomalies");
        RegisterOptions registers = "rw-register".equals(c.expected().get("workload"))
                ? c.checkerOptions().registerOptions() : null;
        return new Loaded(ops, atoms, new HashSet<>(c.strings("consistency-models")),
                new HashSet<>(anomalies == null ? List.of() : anomalies), registers);
    }

    /**
     * The history as JSON lines, for failure messages and new golden histories; the ops as
     * records when they hold string atoms, which need the table they were read with.
     */
    static String jsonLines(List<Op> ops) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JsonLinesWriter w = new JsonLinesWriter(bytes, new AtomTable())) {
            ops.forEach(w::write);
        } catch (IllegalArgumentException stringAtoms) {
            return ops.toString();
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }
}

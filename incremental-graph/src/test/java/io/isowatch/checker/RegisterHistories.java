package io.isowatch.checker;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.anomaly.Finding;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;

/**
 * Test helpers for register histories: a compact notation, a history builder and a way to run
 * the checker with register options.
 *
 * <p>Notation: micro-ops separated by spaces; {@code w:x:1} sets key x to 1, {@code r:x:1} reads
 * x as 1, and {@code r:x:} or {@code r:x} reads it as nil. Keys are integers, or the letters
 * x, y, z, u, v standing for {@code base}, {@code base + 1}, ... A nil read is a
 * {@link MicroOp.Read} with null values, as the history reader makes of Elle's
 * {@code ["r", k, null]}.
 */
final class RegisterHistories {

    private static final String KEY_LETTERS = "xyzuv";

    private RegisterHistories() {
    }

    /** Parses micro-ops in the notation, letter keys counted from {@code base}. */
    static List<MicroOp> mops(String text, long base) {
        List<MicroOp> out = new ArrayList<>();
        for (String token : text.trim().split("\\s+")) {
            String[] parts = token.split(":", -1);
            int letter = KEY_LETTERS.indexOf(parts[1]);
            long key = parts[1].length() == 1 && letter >= 0 ? base + letter : Long.parseLong(parts[1]);
            boolean nil = parts.length < 3 || parts[2].isEmpty();
            switch (parts[0]) {
                case "w" -> out.add(new MicroOp.Write(key, Long.parseLong(parts[2])));
                case "r" -> out.add(new MicroOp.Read(key, nil ? null : new long[] {Long.parseLong(parts[2])}));
                default -> throw new IllegalArgumentException("unknown register micro-op " + token);
            }
        }
        return out;
    }

    /** A register history in this class's notation. */
    static CheckerHistories.Builder history() {
        return new CheckerHistories.Builder(RegisterHistories::mops);
    }

    /** Which version-order sources to assume; the name says which, as the CLI flags do. */
    enum Sources {
        NONE(false, false, false),
        WFR(true, false, false),
        SEQUENTIAL(false, true, false),
        LINEARIZABLE(false, false, true),
        ALL(true, true, true);

        final RegisterOptions options;

        Sources(boolean wfr, boolean sequential, boolean linearizable) {
            this.options = new RegisterOptions(wfr, sequential, linearizable);
        }
    }

    /** Register checker options for the given models and sources. */
    static CheckerOptions options(java.util.Set<String> models, RegisterOptions sources) {
        return CheckerOptions.defaults().toBuilder().consistencyModels(ConsistencyModel.ofNames(models))
                .registers(sources).build();
    }

    /** Runs the incremental checker over {@code ops} in the order given. */
    static Verdict check(List<Op> ops, CheckerOptions options) {
        return check(ops, options, f -> { });
    }

    static Verdict check(List<Op> ops, CheckerOptions options, Consumer<Finding> listener) {
        IncrementalChecker checker = new IncrementalChecker(options, new AtomTable(), listener);
        ops.forEach(checker::accept);
        return checker.finish();
    }
}

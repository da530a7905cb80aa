package io.isowatch.checker;

import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * Breaks a correct history in the small ways a faulty database would, so that the differential
 * property meets anomalies in every combination rather than only the injected shapes: stale
 * reads (a read cut short), reordered, dropped, repeated or foreign elements in a read, and
 * committed transactions reported as failed (their effects already seen). Indices, processes
 * and the invoke / completion structure are kept, so the result is still a well-formed history.
 */
final class CheckerMutator {

    /** Elements no transaction ever appends. */
    static final long GARBAGE = 1_000_000;

    private CheckerMutator() {
    }

    /** How a mutated completion's chosen read changes: the values it returns instead. */
    interface ReadChange {
        long[] values(MicroOp.Read read, List<Long> written, int choice, SplittableRandom random);
    }

    /** Mutates each ok completion with probability {@code rate}. */
    static List<Op> mutate(List<Op> history, double rate, SplittableRandom random) {
        return mutate(history, rate, random, 8,
                (r, written, what, rnd) -> r.known() ? mutateRead(r.values(), written, what, rnd) : r.values());
    }

    /**
     * Mutates each ok completion with probability {@code rate}: with one chance in
     * {@code choices} it reports the transaction failed, its effects already seen; otherwise a
     * micro-op picked at random, if it is a read, returns what {@code change} gives for the
     * choice drawn (1 to {@code choices - 1}), told every value written to its key anywhere in
     * the history (appended or written).
     */
    static List<Op> mutate(List<Op> history, double rate, SplittableRandom random, int choices, ReadChange change) {
        Map<Long, List<Long>> written = new HashMap<>();
        for (Op op : history) {
            if (op.type() == OpType.INVOKE) {
                for (MicroOp m : op.value()) {
                    if (m instanceof MicroOp.Append a) {
                        written.computeIfAbsent(a.key(), k -> new ArrayList<>()).add(a.value());
                    } else if (m instanceof MicroOp.Write w) {
                        written.computeIfAbsent(w.key(), k -> new ArrayList<>()).add(w.value());
                    }
                }
            }
        }
        Map<Long, List<MicroOp>> invocations = new HashMap<>();
        List<Op> out = new ArrayList<>(history.size());
        for (Op op : history) {
            if (op.type() == OpType.INVOKE) {
                invocations.put(op.process(), op.value());
            }
            if (op.type() != OpType.OK || random.nextDouble() >= rate) {
                out.add(op);
                continue;
            }
            int what = random.nextInt(choices);
            if (what == 0) {
                out.add(new Op(op.index(), op.time(), OpType.FAIL, op.process(), invocations.get(op.process())));
            } else {
                List<MicroOp> value = new ArrayList<>(op.value());
                int i = random.nextInt(value.size());
                if (value.get(i) instanceof MicroOp.Read r) {
                    value.set(i, new MicroOp.Read(r.key(),
                            change.values(r, written.getOrDefault(r.key(), List.of()), what, random)));
                }
                out.add(new Op(op.index(), op.time(), op.type(), op.process(), value));
            }
        }
        return out;
    }

    private static long[] mutateRead(long[] v, List<Long> appended, int what, SplittableRandom random) {
        int n = v.length;
        switch (what) {
            case 1, 2 -> {
                return n == 0 ? v : Arrays.copyOf(v, random.nextInt(n));
            }
            case 3 -> {
                if (n >= 2) {
                    long[] w = v.clone();
                    int j = random.nextInt(n - 1);
                    w[j] = v[j + 1];
                    w[j + 1] = v[j];
                    return w;
                }
                return v;
            }
            case 4 -> {
                long[] w = Arrays.copyOf(v, n + 1);
                List<Long> pool = appended == null ? List.of() : appended;
                w[n] = pool.isEmpty() || random.nextInt(4) == 0 ? GARBAGE : pool.get(random.nextInt(pool.size()));
                return w;
            }
            case 5 -> {
                if (n == 0) {
                    return v;
                }
                long[] w = Arrays.copyOf(v, n + 1);
                w[n] = v[random.nextInt(n)];
                return w;
            }
            default -> {
                if (n < 2) {
                    return v;
                }
                int j = random.nextInt(n - 1);
                long[] w = new long[n - 1];
                System.arraycopy(v, 0, w, 0, j);
                System.arraycopy(v, j + 1, w, j, n - 1 - j);
                return w;
            }
        }
    }
}

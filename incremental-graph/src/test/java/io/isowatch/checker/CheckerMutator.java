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

    /** Mutates each ok completion with probability {@code rate}. */
    static List<Op> mutate(List<Op> history, double rate, SplittableRandom random) {
        Map<Long, List<Long>> appended = new HashMap<>();
        for (Op op : history) {
            if (op.type() == OpType.INVOKE) {
                for (MicroOp m : op.value()) {
                    if (m instanceof MicroOp.Append a) {
                        appended.computeIfAbsent(a.key(), k -> new ArrayList<>()).add(a.value());
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
            int what = random.nextInt(8);
            if (what == 0) {
                out.add(new Op(op.index(), op.time(), OpType.FAIL, op.process(), invocations.get(op.process())));
            } else {
                List<MicroOp> value = new ArrayList<>(op.value());
                int i = random.nextInt(value.size());
                if (value.get(i) instanceof MicroOp.Read r && r.known()) {
                    long[] read = mutateRead(r.values(), appended.get(r.key()), what, random);
                    value.set(i, new MicroOp.Read(r.key(), read));
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

package io.isowatch.checker;

import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * {@link CheckerMutator}'s faults for rw-register histories: a committed transaction reported as
 * failed (its writes already seen), and a read that returns nil, garbage, or any value written to
 * its key anywhere in the history (a stale read, a read of the future, of an aborted or of an
 * intermediate write). Indices, processes and the invoke / completion structure are kept, and a
 * read still returns one value, so the result is a well-formed register history.
 */
final class RegisterMutator {

    private RegisterMutator() {
    }

    /** Mutates each ok completion with probability {@code rate}. */
    static List<Op> mutate(List<Op> history, double rate, SplittableRandom random) {
        Map<Long, List<Long>> written = new HashMap<>();
        for (Op op : history) {
            if (op.type() == OpType.INVOKE) {
                for (MicroOp m : op.value()) {
                    if (m instanceof MicroOp.Write w) {
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
            } else if (random.nextInt(5) == 0) {
                out.add(new Op(op.index(), op.time(), OpType.FAIL, op.process(), invocations.get(op.process())));
            } else {
                List<MicroOp> value = new ArrayList<>(op.value());
                int i = random.nextInt(value.size());
                if (value.get(i) instanceof MicroOp.Read r) {
                    value.set(i, new MicroOp.Read(r.key(), read(written.getOrDefault(r.key(), List.of()), random)));
                }
                out.add(new Op(op.index(), op.time(), op.type(), op.process(), value));
            }
        }
        return out;
    }

    /** Nil, garbage, or a value written to the key, as a register read's values. */
    private static long[] read(List<Long> written, SplittableRandom random) {
        int what = random.nextInt(6);
        if (what == 0) {
            return null;
        }
        if (what == 1 || written.isEmpty()) {
            return new long[] {CheckerMutator.GARBAGE};
        }
        return new long[] {written.get(random.nextInt(written.size()))};
    }
}

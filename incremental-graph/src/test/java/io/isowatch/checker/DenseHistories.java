package io.isowatch.checker;

import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * Small list-append histories from a simulated read-uncommitted store under high contention:
 * a few keys, several clients, transactions whose micro-ops interleave one at a time. An append
 * is visible to every reader at once, committed or not, and a read sometimes returns a shorter
 * prefix of the list (a stale replica), so the dependency graph is dense: most transactions lie
 * on cycles, and one component holds cycles of several types at once, which is where a search
 * that stops early misses a type.
 */
final class DenseHistories {

    private DenseHistories() {
    }

    /**
     * A history of {@code txns} transactions over {@code keys} keys by {@code processes} clients;
     * {@code staleRate} is the chance a read returns a random prefix of the list instead of all of
     * it, {@code failRate} the chance a transaction completes {@code :fail} (its appends stay
     * visible: a dirty read).
     */
    static List<Op> generate(long seed, int txns, int keys, int processes, double staleRate, double failRate) {
        SplittableRandom random = new SplittableRandom(seed);
        List<List<Long>> lists = new ArrayList<>();
        for (int k = 0; k < keys; k++) {
            lists.add(new ArrayList<>());
        }
        long[] nextElement = new long[keys];
        List<MicroOp>[] running = newRunning(processes);
        int[] position = new int[processes];
        List<Op> out = new ArrayList<>();
        int started = 0;
        int active = 0;
        long time = 0;
        while (started < txns || active > 0) {
            int p = random.nextInt(processes);
            time += 1 + random.nextInt(5);
            if (running[p] == null) {
                if (started == txns) {
                    continue;
                }
                running[p] = plan(random, keys, nextElement);
                position[p] = 0;
                started++;
                active++;
                out.add(new Op(out.size(), time, OpType.INVOKE, p, invocation(running[p]), -1));
                continue;
            }
            List<MicroOp> txn = running[p];
            int i = position[p]++;
            MicroOp m = txn.get(i);
            if (m instanceof MicroOp.Append a) {
                lists.get((int) a.key()).add(a.value());
            } else if (m instanceof MicroOp.Read r) {
                List<Long> list = lists.get((int) r.key());
                int length = random.nextDouble() < staleRate ? random.nextInt(list.size() + 1) : list.size();
                long[] values = new long[length];
                for (int v = 0; v < length; v++) {
                    values[v] = list.get(v);
                }
                txn.set(i, new MicroOp.Read(r.key(), values));
            }
            if (position[p] == txn.size()) {
                OpType type = random.nextDouble() < failRate ? OpType.FAIL : OpType.OK;
                out.add(new Op(out.size(), time, type, p, List.copyOf(txn), -1));
                running[p] = null;
                active--;
            }
        }
        return out;
    }

    @SuppressWarnings("unchecked")
    private static List<MicroOp>[] newRunning(int processes) {
        return new List[processes];
    }

    /** Two to four micro-ops, reads and appends in equal measure, each append a fresh element. */
    private static List<MicroOp> plan(SplittableRandom random, int keys, long[] nextElement) {
        int length = 2 + random.nextInt(3);
        List<MicroOp> mops = new ArrayList<>(length);
        for (int i = 0; i < length; i++) {
            int key = random.nextInt(keys);
            if (random.nextBoolean()) {
                mops.add(new MicroOp.Append(key, ++nextElement[key]));
            } else {
                mops.add(new MicroOp.Read(key, null));
            }
        }
        return mops;
    }

    private static List<MicroOp> invocation(List<MicroOp> planned) {
        List<MicroOp> out = new ArrayList<>(planned.size());
        for (MicroOp m : planned) {
            out.add(m instanceof MicroOp.Read r ? new MicroOp.Read(r.key(), null) : m);
        }
        return out;
    }
}

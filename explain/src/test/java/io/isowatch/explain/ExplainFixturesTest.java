package io.isowatch.explain;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Evidence;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.ArrayList;
import java.util.List;

/**
 * Fixtures shared by this package's tests (it holds no tests itself): ops in a compact notation,
 * {@code "a:255:8 r:256:1,2 r:7: r:8:nil w:9:4"} (append, read of a list, read of the empty
 * list, unknown read, register write), and transactions around them.
 */
final class ExplainFixturesTest {

    private ExplainFixturesTest() {
    }

    static List<MicroOp> mops(String spec) {
        List<MicroOp> out = new ArrayList<>();
        for (String part : spec.trim().split("\\s+")) {
            String[] f = part.split(":", -1);
            long k = Long.parseLong(f[1]);
            switch (f[0]) {
                case "a":
                    out.add(new MicroOp.Append(k, Long.parseLong(f[2])));
                    break;
                case "w":
                    out.add(new MicroOp.Write(k, Long.parseLong(f[2])));
                    break;
                case "r":
                    out.add(new MicroOp.Read(k, values(f[2])));
                    break;
                default:
                    throw new IllegalArgumentException(part);
            }
        }
        return out;
    }

    private static long[] values(String s) {
        if (s.equals("nil")) {
            return null;
        }
        if (s.isEmpty()) {
            return new long[0];
        }
        String[] parts = s.split(",");
        long[] v = new long[parts.length];
        for (int i = 0; i < parts.length; i++) {
            v[i] = Long.parseLong(parts[i]);
        }
        return v;
    }

    static Op op(long index, long time, OpType type, long process, String spec) {
        return new Op(index, time, type, process, mops(spec));
    }

    /** A transaction with id {@code id}, invoked one index and 10 ns before it completed. */
    static Txn txn(int id, long index, long time, OpType type, long process, String spec) {
        return new Txn(id, index - 1, time < 0 ? -1 : time - 10, op(index, time, type, process, spec));
    }

    static Txn ok(int id, long index, long process, String spec) {
        return txn(id, index, index * 100, OpType.OK, process, spec);
    }

    static Finding.Step step(Txn from, Txn to, Evidence ev) {
        return new Finding.Step(from, to, ev);
    }

    /**
     * A G-single-item cycle: T1 appends 8 to 255 and 3 to 256; T2 reads 255 = [8] and
     * 256 = [1 2].
     */
    static final class GSingle {
        final Txn t1 = ok(10, 3, 0, "a:255:8 a:256:3");
        final Txn t2 = ok(11, 7, 1, "r:255:8 r:256:1,2");
        final Finding.Cycle cycle = new Finding.Cycle(AnomalyType.G_SINGLE_ITEM, List.of(
                step(t1, t2, new Evidence.WriteRead(255, 8)),
                step(t2, t1, new Evidence.ReadWrite(256, false, 2, 3))));
    }
}

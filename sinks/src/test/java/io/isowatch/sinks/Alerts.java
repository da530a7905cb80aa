package io.isowatch.sinks;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Evidence;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.List;

/** Findings and alerts for the sink tests. */
public final class Alerts {

    /** 2025-01-02T03:04:05.678Z. */
    public static final long DETECTED_AT = 1_735_787_045_678L;

    private Alerts() {
    }

    /**
     * A G-single-item cycle: T1 (index 3) appends 8 to 255 and 3 to 256; T2 (index 7) reads
     * 255 = [8] and 256 = [1 2]. T2 completed 700 ns after the history began.
     */
    public static Finding.Cycle gSingle() {
        Txn t1 = new Txn(10, 2, 290, new Op(3, 300, OpType.OK, 0,
                List.of(new MicroOp.Append(255, 8), new MicroOp.Append(256, 3))));
        Txn t2 = new Txn(11, 6, 690, new Op(7, 700, OpType.OK, 1,
                List.of(new MicroOp.Read(255, new long[] {8}), new MicroOp.Read(256, new long[] {1, 2}))));
        return new Finding.Cycle(AnomalyType.G_SINGLE_ITEM, List.of(
                new Finding.Step(t1, t2, new Evidence.WriteRead(255, 8)),
                new Finding.Step(t2, t1, new Evidence.ReadWrite(256, false, 2, 3))));
    }

    /** Two reads of the string key "accounts" that disagree on order. */
    public static Finding.IncompatibleOrder incompatibleOrder(AtomTable atoms) {
        return new Finding.IncompatibleOrder(atoms.ofString("accounts"), new long[] {1, 2}, new long[] {2, 1});
    }

    /** An alert for {@link #gSingle()}, checked against serializable, detected 12 ms late. */
    public static Alert gSingleAlert() {
        return Alert.of(gSingle(), List.of("serializable"), DETECTED_AT, 12, new AtomTable());
    }
}

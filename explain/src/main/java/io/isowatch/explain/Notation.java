package io.isowatch.explain;

import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;

import java.util.Collection;
import java.util.List;

/**
 * How the value of a read prints: as a list ({@code [1 2]}, list-append) or as a single register
 * value ({@code 2}, rw-register).
 *
 * <p>{@link MicroOp.Read} stores both as an array, so the notation is a property of the workload.
 * Jepsen histories use one workload throughout, and {@link #of(Collection)} guesses it from the
 * writes it can see: any {@code [:w k v]} and no append means registers. A guess from a finding's
 * own ops fails for a transaction of reads alone (a register read of 2 and a list read of [2]
 * are stored alike), so whoever knows the workload passes {@link #of(io.isowatch.checker.Workload)}.
 */
public enum Notation {
    /** Reads return lists; {@code nil} only for an unknown read. */
    LIST_APPEND,
    /** Reads return one value, or {@code nil} for the initial state. */
    RW_REGISTER;

    /** The notation of these ops: register when some op writes a register and none appends. */
    public static Notation of(Collection<Op> ops) {
        boolean writes = false;
        for (Op op : ops) {
            for (MicroOp mop : op.value()) {
                if (mop instanceof MicroOp.Append) {
                    return LIST_APPEND;
                }
                writes |= mop instanceof MicroOp.Write;
            }
        }
        return writes ? RW_REGISTER : LIST_APPEND;
    }

    /** The notation of a workload's histories: what the checker was told, never a guess. */
    public static Notation of(io.isowatch.checker.Workload workload) {
        return workload == io.isowatch.checker.Workload.RW_REGISTER ? RW_REGISTER : LIST_APPEND;
    }

    /** The notation of one op. */
    public static Notation of(Op op) {
        return of(List.of(op));
    }

    /** The notation of a finding, judged by the ops of all its transactions. */
    public static Notation of(Finding finding) {
        return of(finding.txns().stream().map(Txn::completion).toList());
    }
}

package io.isowatch.agent.transport;

import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.List;

/** Deterministic events for transport tests: pairs of invoke/ok per process, integer atoms. */
final class Events {

    static final int PROCESSES = 8;

    private Events() {
    }

    /**
     * Event {@code seq} of {@code agent}: events 2i and 2i+1 are the invocation and completion of
     * transaction i, run by process i mod 8, appending i to key i mod 13 and reading key i mod 7.
     */
    static HistoryEvent event(String agent, long seq) {
        long txn = seq / 2;
        long process = txn % PROCESSES;
        long key = txn % 13;
        long readKey = 1000 + txn % 7;
        boolean invoke = seq % 2 == 0;
        List<MicroOp> mops = List.of(new MicroOp.Append(key, txn),
                new MicroOp.Read(readKey, invoke ? null : new long[] {txn, txn + 1}));
        return new HistoryEvent(agent, seq, new Op(seq, 1_000 * seq, invoke ? OpType.INVOKE : OpType.OK, process, mops));
    }
}

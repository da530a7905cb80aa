package io.isowatch.explain;

import io.isowatch.anomaly.Txn;
import io.isowatch.history.Op;

/** The messages of the exceptions this package throws, kept together. */
final class Messages {

    private Messages() {
    }

    static String unboundTxn(Txn t) {
        return "transaction " + t.id() + " (index " + t.index() + ") is not part of this finding;"
                + " a finding must list every transaction its evidence names";
    }

    static String notARead(Op op, int mopIndex) {
        return "micro-op " + mopIndex + " of the op at index " + op.index() + " is not a read (op has "
                + op.value().size() + " micro-ops); the finding must point at the read it condemns";
    }
}

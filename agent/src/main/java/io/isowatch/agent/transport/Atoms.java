package io.isowatch.agent.transport;

import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;

/** Small questions about the atoms of an event. */
final class Atoms {

    private Atoms() {
    }

    /** The number of string keys and values in the event (counting repeats); 0 for integer-only events. */
    static int stringAtoms(HistoryEvent event) {
        int n = 0;
        for (MicroOp m : event.op().value()) {
            n += AtomTable.isString(m.key()) ? 1 : 0;
            if (m instanceof MicroOp.Append a) {
                n += AtomTable.isString(a.value()) ? 1 : 0;
            } else if (m instanceof MicroOp.Write w) {
                n += AtomTable.isString(w.value()) ? 1 : 0;
            } else {
                long[] values = ((MicroOp.Read) m).values();
                if (values != null) {
                    for (long v : values) {
                        n += AtomTable.isString(v) ? 1 : 0;
                    }
                }
            }
        }
        return n;
    }
}

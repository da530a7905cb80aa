package io.isowatch.anomaly;

import io.isowatch.graph.EdgeKind;

/**
 * Why one transaction must precede another: the data behind one edge of a cycle.
 *
 * <p>Keys and values are atoms (see {@link io.isowatch.history.AtomTable}).
 */
public sealed interface Evidence {

    /** The relationship this evidence proves. */
    EdgeKind kind();

    /** The target appended (or wrote) {@code value} right after the source's {@code previous}. */
    record WriteWrite(long key, long previous, long value) implements Evidence {
        @Override
        public EdgeKind kind() {
            return EdgeKind.WW;
        }
    }

    /** The target read the source's {@code value} of {@code key} (for lists: as the last element). */
    record WriteRead(long key, long value) implements Evidence {
        @Override
        public EdgeKind kind() {
            return EdgeKind.WR;
        }
    }

    /**
     * The source read {@code key} before the target's {@code value} was appended: it saw
     * {@code previous} as the last element, or the initial (empty) state when {@code initial}.
     */
    record ReadWrite(long key, boolean initial, long previous, long value) implements Evidence {
        @Override
        public EdgeKind kind() {
            return EdgeKind.RW;
        }
    }

    /** The same process ran the source and then the target. */
    record Process(long process) implements Evidence {
        @Override
        public EdgeKind kind() {
            return EdgeKind.PROCESS;
        }
    }

    /** The source completed (at {@code completedIndex}) before the target was invoked. */
    record Realtime(long completedIndex, long completedTime, long invokedIndex, long invokedTime)
            implements Evidence {
        @Override
        public EdgeKind kind() {
            return EdgeKind.REALTIME;
        }
    }
}

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

    /**
     * The source completed (at {@code completedIndex}) before the target was invoked.
     * {@code agents} is null when both ran on one agent (any history of one agent); for two
     * agents of a fleet it names them, and the invocation came more than the clock uncertainty
     * after the completion (decision 0021).
     */
    record Realtime(long completedIndex, long completedTime, long invokedIndex, long invokedTime, Agents agents)
            implements Evidence {
        /** Both transactions ran on one agent. */
        public Realtime(long completedIndex, long completedTime, long invokedIndex, long invokedTime) {
            this(completedIndex, completedTime, invokedIndex, invokedTime, null);
        }

        @Override
        public EdgeKind kind() {
            return EdgeKind.REALTIME;
        }
    }

    /**
     * The two agents of a realtime edge between agents: the source completed on
     * {@code completedOn}, the target was invoked on {@code invokedOn}, and the clocks of any two
     * agents differ by at most {@code clockUncertaintyNanos}.
     */
    record Agents(String completedOn, String invokedOn, long clockUncertaintyNanos) {
        public Agents {
            java.util.Objects.requireNonNull(completedOn, "completedOn");
            java.util.Objects.requireNonNull(invokedOn, "invokedOn");
            if (clockUncertaintyNanos < 0) {
                throw new IllegalArgumentException("clock uncertainty must be >= 0, got " + clockUncertaintyNanos);
            }
        }
    }
}

package io.isowatch.anomaly;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One anomaly the checker has proven. Findings are final: later events never retract one.
 *
 * <p>Each kind of finding is a record holding exactly the evidence its explanation needs; keys
 * and elements are atoms. Text, JSON and pictures are made in {@code io.isowatch.explain}.
 */
public sealed interface Finding {

    /** The anomaly this finding is an instance of. */
    AnomalyType type();

    /** The transactions involved, in the order the explanation names them. */
    List<Txn> txns();

    /** One edge of a cycle: {@code from} must precede {@code to}, because of {@code evidence}. */
    record Step(Txn from, Txn to, Evidence evidence) {
        public Step {
            Objects.requireNonNull(from, "from");
            Objects.requireNonNull(to, "to");
            Objects.requireNonNull(evidence, "evidence");
        }
    }

    /** A cycle in the dependency graph; {@code steps} go round it, the last ending where the first began. */
    record Cycle(AnomalyType type, List<Step> steps) implements Finding {
        public Cycle {
            steps = List.copyOf(steps);
            if (steps.size() < 2) {
                throw new IllegalArgumentException("a cycle needs at least two steps, got " + steps.size());
            }
        }

        @Override
        public List<Txn> txns() {
            return steps.stream().map(Step::from).toList();
        }
    }

    /**
     * A read that Elle's per-transaction or per-element rules condemn on its own: G1a (read an
     * aborted append), G1b (read an intermediate append), future-read (read an element this
     * transaction appends later) and garbage-read (read an element nobody appended).
     *
     * @param reader   the reading transaction
     * @param mopIndex which micro-op of the reader
     * @param element  the offending element
     * @param writer   the transaction that appended it; null for garbage and future reads
     */
    record BadRead(AnomalyType type, Txn reader, int mopIndex, long element, Txn writer) implements Finding {
        @Override
        public List<Txn> txns() {
            return writer == null ? List.of(reader) : List.of(writer, reader);
        }
    }

    /**
     * A read inconsistent with the transaction's own earlier steps on that key. {@code expected}
     * is the list the transaction should have seen; when {@code unknownPrefix} is set, only its
     * tail is known (Elle prints that as {@code [... 3 4]}).
     */
    record Internal(Txn txn, int mopIndex, long[] expected, boolean unknownPrefix) implements Finding {
        @Override
        public AnomalyType type() {
            return AnomalyType.INTERNAL;
        }

        @Override
        public List<Txn> txns() {
            return List.of(txn);
        }
    }

    /** A read that contains an element more than once; {@code counts} maps element to times seen. */
    record DuplicateElements(Txn txn, int mopIndex, Map<Long, Integer> counts) implements Finding {
        public DuplicateElements {
            counts = Map.copyOf(counts);
        }

        @Override
        public AnomalyType type() {
            return AnomalyType.DUPLICATE_ELEMENTS;
        }

        @Override
        public List<Txn> txns() {
            return List.of(txn);
        }
    }

    /** Two reads of {@code key} neither of which is a prefix of the other. */
    record IncompatibleOrder(long key, long[] shorter, long[] longer) implements Finding {
        @Override
        public AnomalyType type() {
            return AnomalyType.INCOMPATIBLE_ORDER;
        }

        @Override
        public List<Txn> txns() {
            return List.of();
        }
    }

    /**
     * A committed append that came, in {@code key}'s version order, after an aborted one:
     * {@code values} runs from the aborted element to the committed one.
     */
    record DirtyUpdate(long key, long[] values, Txn aborted, Txn committed) implements Finding {
        @Override
        public AnomalyType type() {
            return AnomalyType.DIRTY_UPDATE;
        }

        @Override
        public List<Txn> txns() {
            return List.of(aborted, committed);
        }
    }

    /** Committed transactions that all read {@code key} as {@code value} and then wrote it. */
    record LostUpdate(long key, long[] value, List<Txn> txns) implements Finding {
        public LostUpdate {
            txns = List.copyOf(txns);
        }

        @Override
        public AnomalyType type() {
            return AnomalyType.LOST_UPDATE;
        }
    }

    /**
     * Inferring a version order for register {@code key} from {@code source} (wfr-keys,
     * sequential-keys or linearizable-keys) would make it cyclic: {@code cycle} lists versions
     * going round, with {@link io.isowatch.trace.TraceListener#NIL} for the initial nil state.
     * That source's inference is left out, as Elle leaves it out.
     */
    record CyclicVersions(long key, long[] cycle, String source) implements Finding {
        @Override
        public AnomalyType type() {
            return AnomalyType.CYCLIC_VERSIONS;
        }

        @Override
        public List<Txn> txns() {
            return List.of();
        }
    }

    /**
     * Elle's fallback: the transactions in {@code scc} form a cycle in the subgraph that
     * {@code model} forbids ({@code subgraph}, e.g. {@code ww+realtime}), but no anomaly found
     * rules that model out. Arises where Elle explains a step by a stronger relationship than
     * the one that closes the cycle.
     */
    record CycleExists(AnomalyType type, String model, String subgraph, List<Txn> scc) implements Finding {
        public CycleExists {
            if (!type.isCycleExists()) {
                throw new IllegalArgumentException(type + " is not a cycle-exists anomaly");
            }
            scc = List.copyOf(scc);
        }

        @Override
        public List<Txn> txns() {
            return scc;
        }
    }

    /**
     * Something the checker could not decide, which makes the verdict unknown rather than valid:
     * a cycle search that ran out of budget, or an empty dependency graph.
     */
    record Undecided(AnomalyType type, String reason, List<Txn> txns) implements Finding {
        public Undecided {
            if (!type.makesUnknown()) {
                throw new IllegalArgumentException(type + " does not make a verdict unknown");
            }
            txns = List.copyOf(txns);
        }
    }
}

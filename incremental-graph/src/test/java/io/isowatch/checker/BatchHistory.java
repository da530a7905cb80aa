package io.isowatch.checker;

import io.isowatch.anomaly.ConsistencyModels;
import io.isowatch.graph.EdgeKind;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The part of Elle's analysis both batch references ({@link BatchReference}, {@link
 * RegisterBatchReference}) restate the same way, whatever the workload: a history paired into
 * transactions, the session graphs of {@code txn.clj} over them, the per-component cycle search
 * and {@code remove-redundant-cycle-exists}.
 */
final class BatchHistory {

    /** One transaction: its invocation and, unless still pending, its completion. */
    static final class Txn {
        final int id;
        final Op invoke;
        Op completion;

        Txn(int id, Op invoke) {
            this.id = id;
            this.invoke = invoke;
        }

        OpType type() {
            return completion == null ? null : completion.type();
        }

        boolean ok() {
            return type() == OpType.OK;
        }

        /** Elle's {@code h/possible}: ok or info. */
        boolean possible() {
            return type() == OpType.OK || type() == OpType.INFO;
        }

        /** False for a completion that came alone (its own stand-in invocation): nothing precedes it in real time. */
        boolean invocationSeen() {
            return invoke.type() == OpType.INVOKE;
        }

        List<MicroOp> value() {
            return completion != null ? completion.value() : invoke.value();
        }

        @Override
        public String toString() {
            return "T" + id + "@" + (completion == null ? invoke.index() + "(pending)" : completion.index());
        }
    }

    private final List<Op> events;
    final List<Txn> txns = new ArrayList<>();
    private final Map<Op, Txn> byEvent = new HashMap<>();

    /** Pairs each completion with its process's open invocation, if any (events in index order). */
    BatchHistory(List<Op> events) {
        this.events = events;
        Map<Long, Txn> open = new HashMap<>();
        for (Op op : events) {
            if (op.type() == OpType.INVOKE) {
                Txn t = new Txn(txns.size(), op);
                txns.add(t);
                open.put(op.process(), t);
                byEvent.put(op, t);
            } else {
                Txn t = open.remove(op.process());
                if (t == null) {
                    // A completion alone: its own stand-in invocation, never met as an :invoke
                    // below, so (as in Elle's realtime-graph) nothing precedes it in real time.
                    t = new Txn(txns.size(), op);
                    txns.add(t);
                }
                t.completion = op;
                byEvent.put(op, t);
            }
        }
    }

    /**
     * Elle's {@code realtime-graph}: each invocation (of an op that completed, whatever its type)
     * is linked from every op in the buffer of completed oks; an ok completion replaces its own
     * predecessors in the buffer. Fail and info completions leave the buffer alone.
     */
    Map<Txn, List<Txn>> realtimeGraph() {
        Map<Txn, List<Txn>> out = new LinkedHashMap<>();
        Set<Txn> buffer = new LinkedHashSet<>();
        Map<Txn, List<Txn>> predecessors = new HashMap<>();
        for (Op op : events) {
            Txn t = byEvent.get(op);
            if (op.type() == OpType.INVOKE) {
                if (t.completion != null) {
                    predecessors.put(t, new ArrayList<>(buffer));
                    buffer.forEach(b -> out.computeIfAbsent(b, x -> new ArrayList<>()).add(t));
                }
            } else if (op.type() == OpType.OK) {
                predecessors.getOrDefault(t, List.of()).forEach(buffer::remove);
                buffer.add(t);
            }
        }
        return out;
    }

    /** Elle's {@code process-graph}: consecutive ok ops of each process. */
    Map<Txn, List<Txn>> processGraph() {
        Map<Txn, List<Txn>> out = new LinkedHashMap<>();
        Map<Long, Txn> last = new HashMap<>();
        for (Op op : events) {
            if (op.type() == OpType.OK) {
                Txn t = byEvent.get(op);
                Txn before = last.put(op.process(), t);
                if (before != null) {
                    out.computeIfAbsent(before, x -> new ArrayList<>()).add(t);
                }
            }
        }
        return out;
    }

    /** Links every pair of a session graph into the transaction graph with the given kind. */
    static void link(BatchCycles.Graph graph, Map<Txn, List<Txn>> session, EdgeKind kind) {
        session.forEach((a, bs) -> bs.forEach(b -> graph.link(a.id, b.id, kind)));
    }

    /**
     * Elle's {@code txn/cycles}: each component searched on its own, pairs explained in the
     * workload's {@code order}; the types go into {@code found}. False when ambiguous or past the
     * cycle cap.
     */
    static boolean searchCycles(BatchCycles.Graph graph, List<EdgeKind> order, Set<String> found) {
        for (List<Integer> scc : BatchCycles.components(graph)) {
            if (scc.size() > 1) {
                Set<String> types = BatchElleSearch.search(graph, scc, order);
                if (types == null) {
                    return false;
                }
                found.addAll(types);
            }
        }
        return true;
    }

    /**
     * The reportable types among those found, after Elle's {@code remove-redundant-cycle-exists}:
     * a fallback is dropped when another type already rules out its model.
     */
    static SortedSet<String> reported(Set<String> found, Set<String> reportable) {
        SortedSet<String> types = new TreeSet<>(found);
        types.retainAll(reportable);
        Set<String> ruledOut = ConsistencyModels.impossibleModels(
                types.stream().filter(t -> !BatchElleSearch.isCycleExists(t)).toList());
        types.removeIf(t -> BatchElleSearch.isCycleExists(t) && ruledOut.contains(BatchElleSearch.modelOf(t)));
        return types;
    }
}

package io.isowatch.job.operators;

import io.isowatch.history.HistoryEvent;
import io.isowatch.job.serde.JobTypes;

import org.apache.flink.api.common.TaskInfo;
import org.apache.flink.api.common.state.ListState;
import org.apache.flink.api.common.state.ListStateDescriptor;
import org.apache.flink.api.common.state.OperatorStateStore;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.api.java.functions.KeySelector;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.KeyGroupRangeAssignment;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.UnaryOperator;

/**
 * Events not yet checked, per key and agent, in sequence order, on the heap; written to a
 * checkpoint only when one is taken, as union operator state. Each agent of a history has two
 * queues: the events waiting for the agent's own order, and the ones it let go that wait for the
 * merge with the history's other agents ({@link AgentLane}). A checkpoint writes both as one list
 * and a restore puts them all back as waiting: the owner resumes each agent's order after the
 * last event merged, so the ready ones are let go again.
 *
 * <p><b>Why not keyed state.</b> Each event waits a few seconds (the out-of-orderness bound) and
 * leaves. Kept in RocksDB, that is a put and a delete per event, and the deletes stay on disk as
 * tombstones until compaction reaches them: the 30-minute soak showed those buffers' files
 * growing by several MB a minute while they held a few thousand live entries. Here the buffer
 * costs nothing per event beyond the heap, and a checkpoint writes exactly what is waiting at
 * its barrier, which is the same consistent cut keyed state would give.
 *
 * <p><b>One list element per agent.</b> Flink records the offset of every element of a list
 * state in the checkpoint's metadata and flushes the stream once per element; with one element
 * per event (hundreds of thousands wait at 50,000 txn/s), writing those offsets took a tenth of
 * the machine's CPU. An element is therefore an agent's whole queue.
 *
 * <p><b>Rescaling.</b> Union state hands every subtask all the events on restore; each keeps
 * those whose key it owns by Flink's own key-group assignment, so events land where
 * {@code keyBy} routes their key at the new parallelism.
 *
 * @param <K> the operator's key
 */
final class WaitingEvents<K> {

    private final String name;
    private final KeySelector<HistoryEvent, K> keys;
    private final UnaryOperator<K> copyKey;
    /** Per key, per agent: the waiting queue and the ready queue. */
    private final Map<K, Map<String, SequenceQueue[]>> byKey = new HashMap<>();
    private ListState<List<HistoryEvent>> snapshot;

    /**
     * @param name the operator state's name (stable: it identifies the state in checkpoints)
     * @param keys the operator's key selector, to route restored events to their key
     * @param copyKey copies a key before it is kept (Flink may reuse a mutable key object)
     */
    WaitingEvents(String name, KeySelector<HistoryEvent, K> keys, UnaryOperator<K> copyKey) {
        this.name = name;
        this.keys = keys;
        this.copyKey = copyKey;
    }

    /** Registers the operator state and, on restore, takes back the events of keys this subtask owns. */
    void initialize(FunctionInitializationContext context, TaskInfo task) throws Exception {
        OperatorStateStore store = context.getOperatorStateStore();
        snapshot = store.getUnionListState(new ListStateDescriptor<>(name, Types.LIST(JobTypes.HISTORY_EVENT)));
        if (!context.isRestored()) {
            return;
        }
        for (List<HistoryEvent> queue : snapshot.get()) {
            for (HistoryEvent e : queue) {
                restore(e, task);
            }
        }
    }

    private void restore(HistoryEvent e, TaskInfo task) throws Exception {
        K key = keys.getKey(e);
        int owner = KeyGroupRangeAssignment.assignKeyToParallelOperator(key,
                task.getMaxNumberOfParallelSubtasks(), task.getNumberOfParallelSubtasks());
        if (owner == task.getIndexOfThisSubtask()) {
            SequenceQueue waiting = waiting(key, e.source());
            if (!waiting.contains(e.sequence())) {
                waiting.add(e);
            }
        }
    }

    /** Writes every waiting and ready event to the checkpoint being taken: one element per agent. */
    void snapshot() throws Exception {
        List<List<HistoryEvent>> queues = new ArrayList<>();
        for (Map<String, SequenceQueue[]> agents : byKey.values()) {
            for (SequenceQueue[] q : agents.values()) {
                if (!q[0].isEmpty() || !q[1].isEmpty()) {
                    List<HistoryEvent> events = new ArrayList<>(q[1].inOrder());
                    events.addAll(q[0].inOrder());
                    queues.add(events);
                }
            }
        }
        snapshot.update(queues);
    }

    /** The agent's events waiting for its order, by sequence (created empty on first use). */
    SequenceQueue waiting(K key, String agent) {
        return queues(key, agent)[0];
    }

    /** The agent's events its order let go, waiting for the merge (created empty on first use). */
    SequenceQueue ready(K key, String agent) {
        return queues(key, agent)[1];
    }

    /** The agents of a key that have queues, restored or made since. */
    Set<String> agents(K key) {
        Map<String, SequenceQueue[]> agents = byKey.get(key);
        return agents == null ? Set.of() : Set.copyOf(agents.keySet());
    }

    private SequenceQueue[] queues(K key, String agent) {
        Map<String, SequenceQueue[]> agents = byKey.get(key);
        if (agents == null) {
            agents = new HashMap<>();
            byKey.put(copyKey.apply(key), agents);
        }
        return agents.computeIfAbsent(agent, a -> new SequenceQueue[] {new SequenceQueue(), new SequenceQueue()});
    }

    /** Forgets a key whose queues are empty and will not be used again soon. */
    void remove(K key) {
        byKey.remove(key);
    }
}

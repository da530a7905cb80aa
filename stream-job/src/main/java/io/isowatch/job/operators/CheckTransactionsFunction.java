package io.isowatch.job.operators;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.FindingId;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.EvictionWarmup;
import io.isowatch.checker.HistoryViolationException;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Verdict;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.Op;
import io.isowatch.job.DeadLetter;
import io.isowatch.job.HistoryVerdict;
import io.isowatch.job.JobDeclarations;
import io.isowatch.job.serde.JobTypes;
import io.isowatch.sinks.Alert;
import io.isowatch.sinks.Release;

import org.apache.flink.api.common.functions.OpenContext;
import org.apache.flink.api.common.state.MapState;
import org.apache.flink.api.common.state.MapStateDescriptor;
import org.apache.flink.api.common.state.ValueState;
import org.apache.flink.api.common.state.ValueStateDescriptor;
import org.apache.flink.api.common.typeinfo.PrimitiveArrayTypeInfo;
import org.apache.flink.api.common.typeinfo.Types;
import org.apache.flink.runtime.state.FunctionInitializationContext;
import org.apache.flink.runtime.state.FunctionSnapshotContext;
import org.apache.flink.streaming.api.TimeDomain;
import org.apache.flink.streaming.api.checkpoint.CheckpointedFunction;
import org.apache.flink.streaming.api.functions.KeyedProcessFunction;
import org.apache.flink.util.Collector;
import org.apache.flink.util.OutputTag;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;

/**
 * The checker of the job, one operator per history: drops re-sent events, puts a history's events
 * back in the agent's order, holds processes to Jepsen's protocol ({@link ProcessGate}) and feeds
 * what passes to the core's {@link IncrementalChecker}, which keeps the per-key version traces
 * and the dependency graph, searches each cycle an edge closes, and reports findings; each
 * finding leaves as a rendered {@link Alert}.
 *
 * <p><b>Why one task per history.</b> A cycle may run through any keys, so a history's graph is
 * one serial point (docs/design.md); keeping the traces in the same task means an edge never travels
 * and the job runs the very code {@code isowatch check} runs, so the two cannot disagree. A
 * history is the events of the agents that joined it, or one agent's own ({@link AgentHistoryKey}):
 * each recorder numbers its events densely and stamps them from one clock. Different histories
 * are checked apart, in parallel (decisions 0005, 0006, 0010).
 *
 * <p><b>Several agents.</b> Each agent of a history has its own lane ({@link AgentLane}): its
 * waiting events, its release order and the point where it resumes. {@link HistoryMerge} merges
 * the lanes in the order {@code check} merges several agents' files and lets an event go only
 * when no live agent can still bring an earlier one; the checker then numbers the events in that
 * order and knows each one's agent, for realtime across agents holds only beyond the clock
 * uncertainty (decision 0021). A lone agent's history merges at once and is checked as before.
 *
 * <p><b>Order.</b> Events wait in {@value #PENDING_EVENTS} and leave by {@link ReleaseOrder}'s
 * rules: a run that continues the agent's numbering after a linger of {@value #LINGER_MILLIS}
 * ms, which makes one {@value #CHECKED_BATCHES} entry of it; anything else when the watermark
 * passes it. So any arrival order within {@code max-out-of-orderness} gives the same input to the
 * checker, in index order. An event whose time runs behind a lower index already checked breaks
 * that order; the checker rejects it to the dead letters.
 *
 * <p><b>Duplicates and late events.</b> {@code (agent, sequence)} identifies an event. A copy of
 * an event still waiting, or at or below the highest sequence let go in its process, is dropped
 * and counted ({@code duplicate_events}). An event behind the watermark, or whose sequence a
 * release has already passed over, goes to {@link #LATE_EVENTS}, counted, never dropped
 * silently. Once a process's progress expires ({@code dedupe-retention} of event time after its
 * last event), a very late copy is reported as late instead, which is still visible.
 *
 * <p><b>State and recovery.</b> The checker lives on the heap; what it has seen is kept in
 * {@value #CHECKED_BATCHES}, one entry per release, numbered. After a restore the first timer or
 * element rebuilds the checker by replaying those batches with its findings muted (they were
 * emitted before the checkpoint), so a finding is reported once per history, plus at most a
 * repeat of what the sinks received after the last checkpoint; alerts carry stable ids for that
 * case.
 *
 * <p><b>Bounded state: the checker forgets.</b> With a {@code history-retention} R, every
 * half of R of event time the checker forgets the transactions invoked more than R before the
 * watermark ({@link IncrementalChecker#evictInvokedBefore}, decision 0013), and the batches all
 * of whose events are older leave the state. So the checker knows between R and 1.5 R of the
 * history, each event costs one checker step, and nothing is replayed while running. A checker
 * that forgets can only miss edges, never invent one ({@code EvictionProperties} in the core).
 * One exception to "no replay": the checker's table of string keys and values cannot forget (the
 * core's state holds their codes), so a history whose string table has quadrupled since the checker
 * was built, and holds at least {@value #STRINGS_BEFORE_REBUILD} strings, gets a checker rebuilt
 * from the batches kept, with a fresh table: integer-only histories, as the agent records them,
 * never do.
 *
 * <p><b>End of input.</b> A bounded source ends with the final watermark; the timer at
 * {@code Long.MAX_VALUE} then settles the checker and emits its typed verdict on
 * {@link #VERDICTS}. Findings that settling proves (garbage reads, cycles through edges placed
 * then; decision 0009) leave as alerts marked released at the end of the history
 * ({@link Alert#releasedAtEnd()}), so their delay is not mistaken for the checker's.
 */
public final class CheckTransactionsFunction extends KeyedProcessFunction<String, HistoryEvent, Alert>
        implements CheckpointedFunction {

    private static final long serialVersionUID = 1L;

    /** Events waiting for the watermark, a list per history (operator state, written at checkpoints; {@link WaitingEvents}). */
    public static final String PENDING_EVENTS = "pending-event-queues";
    /** Released batches by number: the checkers' input, replayed after a restore. */
    public static final String CHECKED_BATCHES = "checked-batches";
    /** How many batches were ever released: the number the next one gets. */
    public static final String CHECKED_BATCH_COUNT = "checked-batch-count";
    /** The first batch the state still holds, where a restored checker starts; absent means 0 (the history's start). */
    public static final String CHECKER_FROM_BATCH = "checker-from-batch";
    /** The event time (ms) before which the checker forgot every transaction invoked, at the last eviction. */
    public static final String FORGOTTEN_BEFORE = "forgotten-before";
    /** Per agent of the history, the sequence after its last event merged: where its order resumes after a restore. */
    public static final String NEXT_SEQUENCES = "next-sequences";
    /**
     * The index the checker gave the first event of {@value #CHECKER_FROM_BATCH}, in a history of
     * several agents, whose checker numbers events in merge order; absent means 0.
     */
    public static final String CHECKER_FROM_INDEX = "checker-from-index";
    /**
     * At the last eviction, while the history kept the agent protocol with integer keys only: the
     * keys fed so far, as a portable {@link Roaring64Bitmap}. A checker rebuilt from the kept
     * batches resumes the protocol for every other key (decision 0016); absent, it waits for the end.
     */
    public static final String PROTOCOL_KEYS = "agent-protocol-keys-before-cut";

    /**
     * How often the checker forgets, per retention of event time. An eviction copies what the
     * checker keeps, so its pause grows with the retention and its cost per event with this
     * number; two keeps the heap within 1.5 retentions (BENCHMARKS.md, "Soak"; the
     * comparison with other rates in docs/benchmarks-archive.md, issue 18).
     */
    static final int EVICTIONS_PER_RETENTION = 2;

    /** A history's string table is rebuilt only from this many strings on (see the class comment). */
    static final int STRINGS_BEFORE_REBUILD = 1024;

    /**
     * Event time a fleet's event waits for agents not yet seen ({@link HistoryMerge}): an agent
     * starting while the others run ships its first records within this of theirs (its producer
     * connects while it records), so it joins in order; the cost is this much more delay for a
     * fleet's findings, well within the second they are promised in.
     */
    static final long AGENT_JOIN_GRACE_MILLIS = 300;

    /** Processing time a contiguous run waits before it is checked, so that it makes one batch of many events. */
    public static final long LINGER_MILLIS = ReleaseOrder.LINGER_MILLIS;

    /** The final verdict of a bounded input, one per history. */
    public static final OutputTag<HistoryVerdict> VERDICTS = new OutputTag<>("verdicts", JobTypes.HISTORY_VERDICT);
    /** Events that break the protocol (double invocation, reuse after info) or that the checker rejected. */
    public static final OutputTag<DeadLetter> DEAD_LETTERS = new OutputTag<>("dead-letters", JobTypes.DEAD_LETTER);
    /** Events that arrived behind the watermark, or after a release passed over their sequence. */
    public static final OutputTag<HistoryEvent> LATE_EVENTS = new OutputTag<>("late-events", JobTypes.HISTORY_EVENT);
    /** The events fed to the checker, in its order; emitted only by {@link #emittingCheckedEvents} (tests, debugging). */
    public static final OutputTag<HistoryEvent> CHECKED_EVENTS = new OutputTag<>("checked-events", JobTypes.HISTORY_EVENT);

    /**
     * The checker's order within a release: the recorder's index (all events of a key share one
     * agent). Releases follow event time, so a history whose times follow its indices, as the
     * recorder's do, enters the checker exactly in index order.
     */
    static final Comparator<HistoryEvent> ORDER = Comparator.comparingLong((HistoryEvent e) -> e.op().index());

    private final CheckerOptions options;
    private final long retentionMillis;
    private final long dedupeRetentionMillis;
    private final long agentIdleMillis;
    private boolean emitCheckedEvents;

    private transient ProcessGate gate;
    private transient WaitingEvents<String> waitingEvents;
    private transient MapState<Long, List<HistoryEvent>> checked;
    private transient ValueState<Long> batchCount;
    private transient ValueState<Long> checkerFromBatch;
    private transient ValueState<byte[]> protocolKeys;
    private transient ValueState<Long> forgottenBefore;
    private transient MapState<String, Long> nextSequences;
    private transient ValueState<Long> checkerFromIndex;

    private transient CheckerMetrics metrics;
    /** The models' names as alerts carry them, sorted once. */
    private transient List<String> modelNames;
    /** The checkers of each history this task owns, on the heap; rebuilt from state after a restore. */
    private transient Map<String, Live> live;
    /** Where findings go while a batch is fed; null while replaying after a restore. */
    private transient Collector<Alert> alerts;
    private transient long nowMillis;
    /** True while a history is settled at its end: what the checker finds then is released at the end. */
    private transient boolean settling;

    /**
     * @param retention       event time a history's transactions are kept for at least: the
     *                        checker knows between one and 1.5 retentions of the history (see the
     *                        class comment). Zero keeps everything (exactly {@code check}'s
     *                        answers, unbounded memory).
     * @param dedupeRetention event time a process's progress (by which re-sent copies are
     *                        recognised) outlives its latest event
     * @param agentIdle       event time after which a silent agent of a history with several
     *                        stops holding the others back ({@link HistoryMerge}); zero never
     */
    public CheckTransactionsFunction(CheckerOptions options, Duration retention, Duration dedupeRetention) {
        this(options, retention, dedupeRetention, JobDeclarations.IDLE_TIMEOUT.defaultValue());
    }

    /** As {@link #CheckTransactionsFunction(CheckerOptions, Duration, Duration)}, with a silent agent's idle time. */
    public CheckTransactionsFunction(CheckerOptions options, Duration retention, Duration dedupeRetention,
                                     Duration agentIdle) {
        this.options = Objects.requireNonNull(options, "options");
        this.retentionMillis = retention.toMillis();
        this.dedupeRetentionMillis = dedupeRetention.toMillis();
        this.agentIdleMillis = agentIdle.toMillis();
    }

    /** Also emits every event fed to the checker on {@link #CHECKED_EVENTS}; call before the job runs. */
    public CheckTransactionsFunction emittingCheckedEvents() {
        emitCheckedEvents = true;
        return this;
    }

    @Override
    public void initializeState(FunctionInitializationContext context) throws Exception {
        waitingEvents = new WaitingEvents<>(PENDING_EVENTS, new AgentHistoryKey(), key -> key);
        waitingEvents.initialize(context, getRuntimeContext().getTaskInfo());
    }

    @Override
    public void snapshotState(FunctionSnapshotContext context) throws Exception {
        waitingEvents.snapshot();
    }

    @Override
    public void open(OpenContext openContext) {
        checked = getRuntimeContext().getMapState(new MapStateDescriptor<>(CHECKED_BATCHES,
                Types.LONG, Types.LIST(JobTypes.HISTORY_EVENT)));
        batchCount = getRuntimeContext().getState(new ValueStateDescriptor<>(CHECKED_BATCH_COUNT, Types.LONG));
        checkerFromBatch = getRuntimeContext().getState(new ValueStateDescriptor<>(CHECKER_FROM_BATCH, Types.LONG));
        forgottenBefore = getRuntimeContext().getState(new ValueStateDescriptor<>(FORGOTTEN_BEFORE, Types.LONG));
        nextSequences = getRuntimeContext().getMapState(new MapStateDescriptor<>(NEXT_SEQUENCES, Types.STRING,
                Types.LONG));
        checkerFromIndex = getRuntimeContext().getState(new ValueStateDescriptor<>(CHECKER_FROM_INDEX, Types.LONG));
        protocolKeys = getRuntimeContext().getState(new ValueStateDescriptor<>(PROTOCOL_KEYS,
                PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO));
        gate = new ProcessGate(dedupeRetentionMillis, getRuntimeContext());
        live = new HashMap<>();
        metrics = new CheckerMetrics(getRuntimeContext().getMetricGroup(), options);
        modelNames = ConsistencyModel.names(options.consistencyModels());
        if (retentionMillis > 0) {
            EvictionWarmup.startOnce(); // so the first eviction is not run interpreted
        }
    }

    /** A history's checker, the table its events' strings are re-coded into, and its first batch. */
    private final class HistoryChecker {
        /**
         * The string keys and values this checker has seen, which the events' string atoms are
         * re-coded into: one table per checker, owned by this task, rebuilt with the checker when
         * it has grown (see the class comment).
         */
        final AtomTable atoms = new AtomTable();
        final IncrementalChecker checker;
        final long firstBatch;
        /**
         * In a fleet's history, the index the checker gives the next event (events are numbered
         * in merge order, as {@code check} numbers several agents' files), and the agents'
         * ordinals in the order they were first fed; null while the history is one agent's.
         */
        long nextIndex;
        Map<String, Integer> agents;
        /** Strings in the table once the checker was built: it is rebuilt when they have quadrupled. */
        int stringsAtBuild;
        /** Whether it sees the history from a cut ({@link IncrementalChecker#historyTruncated()}). */
        boolean truncated;
        /** The sequence of the last event fed, or {@link ReleaseOrder#NONE} before the first. */
        long lastFed = ReleaseOrder.NONE;

        /**
         * @param firstIndex in a fleet's history, the index of the first batch's first event
         * @param listener   told each finding with the checker that made it
         */
        HistoryChecker(long firstBatch, long firstIndex, BiConsumer<HistoryChecker, Finding> listener) {
            this.firstBatch = firstBatch;
            this.nextIndex = firstIndex;
            this.checker = new IncrementalChecker(options, atoms, finding -> listener.accept(this, finding));
            if (firstBatch > 0) {
                truncate();
            }
        }

        void truncate() {
            checker.historyTruncated();
            truncated = true;
        }

        /**
         * Feeds one event: a lone agent's as it is, a fleet's numbered in merge order with its
         * agent's ordinal, the checker told before its first event that realtime across agents
         * holds only beyond the clock uncertainty (decision 0021).
         */
        void accept(Op op, String agent, boolean fleet) {
            if (!fleet) {
                checker.accept(op);
                return;
            }
            if (agents == null) {
                checker.checkAsFleet(options.clockUncertainty());
                agents = new HashMap<>();
            }
            Integer ordinal = agents.get(agent);
            if (ordinal == null) {
                ordinal = agents.size();
                agents.put(agent, ordinal);
                checker.agentNamed(ordinal, agent); // explanations name the agents of a realtime step
            }
            checker.accept(new Op(nextIndex++, op.time(), op.type(), op.process(), op.value(), op.sourceLine()),
                    ordinal);
        }

        /**
         * Follows the agent protocol from the cut this checker starts at, for the keys not in
         * {@code keysBefore} (every key fed before the cut, and maybe more).
         */
        void resumeProtocol(Roaring64Bitmap keysBefore) {
            checker.resumeAgentProtocol(keysBefore);
        }

        /**
         * The agent protocol as the events fed show it (decision 0016): declared by the history's
         * first event, fed first, and kept while each event fed follows the last without a gap. A
         * gap (an event dead-lettered, lost, or released past as due) gives it up for the rest
         * of the history. The same events replayed after a restore decide the same way; a checker
         * rebuilt from a cut sees no declaration, and follows the protocol only if it is resumed
         * ({@link #resumeProtocol}).
         */
        void watchProtocol(HistoryEvent e, boolean fleet) {
            if (fleet) {
                // Agents' clocks differ by up to the clock uncertainty, so a writer's invocation
                // may merge after a reader's completion: garbage reads wait (decision 0021).
                return;
            }
            if (lastFed == ReleaseOrder.NONE) {
                // A resumed checker's first event follows the cut, checked when it was first fed.
                if (e.declaresAgentProtocol() && !truncated) {
                    checker.followAgentProtocol();
                }
            } else if (e.sequence() != lastFed + 1 && checker.judgesReadsAtCompletion()) {
                checker.agentProtocolBroken();
            }
            lastFed = e.sequence();
        }
    }

    /** One history's checker, how far its events have been released, and the findings alerted. */
    private final class Live {
        final String history;
        final CheckerMetrics.HistorySize size;
        HistoryChecker current;
        /**
         * Findings alerted, by id, with the earliest invocation time among their transactions: the
         * checker may reach one finding from two closing edges; it is alerted once. An eviction
         * forgets the ids of findings with a forgotten transaction, which cannot recur.
         */
        final Map<String, Long> alerted = new HashMap<>();
        /** The batches the state holds, oldest first: (number, events, latest event time in ms, first index). */
        final ArrayDeque<long[]> batches = new ArrayDeque<>();
        long nextBatch;
        /** The event time (ms) before which the last eviction forgot every invocation; MIN_VALUE before the first. */
        long forgottenBefore = Long.MIN_VALUE;
        /** The watermark of the last eviction (or of the first release under a watermark). */
        long lastEviction = Long.MIN_VALUE;
        /** True while the checker is rebuilt from the batches kept: its findings were alerted already. */
        boolean rebuilding;
        long retainedEvents;
        boolean endTimerRegistered;
        /** The history's agents, each with its events not yet checked, and the order they are merged in. */
        final HistoryMerge merge;
        /** In a fleet's history, the agent each process was first seen from: processes must not be shared. */
        final Map<Long, String> processAgents = new HashMap<>();
        /** The processes' highest sequences let go, mirrored from the gate's state. */
        final ProcessGate.Mirror progress = new ProcessGate.Mirror();
        /** Keys fed while the checker follows the agent protocol: what a checker rebuilt from a cut must not judge. */
        final ProtocolKeys protocolKeysFed = new ProtocolKeys();

        /** @param firstBatch the first batch the state holds, also the next one the checker is fed */
        Live(String history, long firstBatch, long firstIndex) {
            this.history = history;
            this.merge = new HistoryMerge(history, agentIdleMillis, AGENT_JOIN_GRACE_MILLIS);
            this.size = metrics.history(history);
            this.current = new HistoryChecker(firstBatch, firstIndex, this::found);
            this.nextBatch = firstBatch;
            for (String agent : waitingEvents.agents(history)) {
                lane(agent); // restored events of an agent that may have nothing checked yet
            }
        }

        /** The agent's lane, made on its first event (or its first restored one). */
        AgentLane lane(String agent) {
            AgentLane lane = merge.lane(agent);
            if (lane == null) {
                lane = merge.add(new AgentLane(agent, waitingEvents.waiting(history, agent),
                        waitingEvents.ready(history, agent)));
            }
            return lane;
        }

        /** Events waiting or ready in every lane. */
        int pending() {
            int n = 0;
            for (AgentLane lane : merge.lanes()) {
                n += lane.waiting.size() + lane.ready.size();
            }
            return n;
        }

        /** The checker's finding listener: alerts each finding once. */
        private void found(HistoryChecker by, Finding finding) {
            String id = FindingId.of(finding, by.atoms, history);
            long first = Long.MAX_VALUE;
            for (io.isowatch.anomaly.Txn t : finding.txns()) {
                first = Math.min(first, t.invokeTime());
            }
            if (alerted.putIfAbsent(id, first) != null || rebuilding) {
                return;
            }
            if (alerts == null) {
                metrics.seen(finding); // replaying after a restore: alerted before the checkpoint
                return;
            }
            metrics.found(finding);
            Alert alert = Alert.of(finding, history, modelNames, nowMillis,
                    Alert.delayMillis(finding, nowMillis), by.atoms, io.isowatch.explain.Notation.of(options.workload()));
            if (settling) {
                alert = alert.released(Release.atEnd(finding.type()));
            }
            if (merge.isFleet()) {
                alert = alert.recordedBy(agentsOf(finding));
            }
            metrics.delay(alert);
            alerts.collect(alert);
        }

        /** The agents that recorded the finding's transactions, by their processes (each agent's own). */
        private java.util.Set<String> agentsOf(Finding finding) {
            java.util.Set<String> agents = new java.util.TreeSet<>();
            for (io.isowatch.anomaly.Txn t : finding.txns()) {
                String agent = processAgents.get(t.completion().process());
                if (agent != null) {
                    agents.add(agent);
                }
            }
            return agents;
        }

        /**
         * Forgets, in the checker and in the state, every transaction invoked before {@code before}
         * (event time, ms). A batch leaves the state once its latest event is older: then none of
         * its events belongs to a transaction the checker keeps. Returns the transactions forgotten.
         */
        int forget(long before) throws Exception {
            forgottenBefore = before;
            long cut = EventTime.opTime(before);
            int forgotten = current.checker.evictInvokedBefore(cut);
            while (!batches.isEmpty() && batches.peekFirst()[2] < before) {
                long[] b = batches.pollFirst();
                checked.remove(b[0]);
                retainedEvents -= b[1];
            }
            alerted.values().removeIf(first -> first < cut);
            return forgotten;
        }

        /** The first batch the state holds. */
        long firstBatch() {
            return batches.isEmpty() ? nextBatch : batches.peekFirst()[0];
        }

        /** In a fleet's history, the index of the first event of the first batch the state holds. */
        long firstIndex() {
            return batches.isEmpty() ? current.nextIndex : batches.peekFirst()[3];
        }

        /** Rebuilds the checker from the batches kept, with a fresh string table. */
        void rebuild() throws Exception {
            rebuilding = true;
            boolean joinedMidway = current.truncated && current.firstBatch == 0;
            boolean resume = current.checker.judgesReadsAtCompletion() && protocolKeysFed.resumable();
            current = new HistoryChecker(firstBatch(), firstIndex(), this::found);
            if (joinedMidway && !current.truncated) {
                current.truncate();
            }
            if (resume && current.truncated) {
                current.resumeProtocol(protocolKeysFed.keys());
            }
            for (long[] b : batches) {
                for (HistoryEvent e : checked.get(b[0])) {
                    accept(e, null);
                }
            }
            replayed();
            rebuilding = false;
        }

        /**
         * Ends a replay of the kept batches: the new checker forgets what the last eviction
         * forgot, and its string table's size becomes the mark it is rebuilt against.
         */
        void replayed() {
            if (forgottenBefore != Long.MIN_VALUE) {
                current.checker.evictInvokedBefore(EventTime.opTime(forgottenBefore));
            }
            current.stringsAtBuild = current.atoms.stringCount();
        }

        /** Whether the string table has grown enough to be rebuilt (see the class comment). */
        boolean stringsOutgrown() {
            int strings = current.atoms.stringCount();
            return strings >= STRINGS_BEFORE_REBUILD && strings >= 4L * current.stringsAtBuild;
        }

        /** Feeds one batch to the checker; {@code ctx} is null while replaying, which mutes dead letters. */
        void feed(List<HistoryEvent> batch, long number, Context ctx) {
            long firstSequence = Long.MAX_VALUE;
            long latest = Long.MIN_VALUE;
            for (HistoryEvent e : batch) {
                firstSequence = Math.min(firstSequence, e.sequence());
                latest = Math.max(latest, EventTime.of(e));
                if (ctx == null) {
                    merge.merged(lane(e.source()), e); // a replay: where each agent's order and the merge stand
                    processAgents.putIfAbsent(e.op().process(), e.source());
                }
            }
            if (number == 0 && current.firstBatch == 0 && firstSequence > 0) {
                // Agents number a history from 0: one whose first event comes later was joined
                // mid-way (starting offsets, expired Kafka segments), so reads of what was written
                // before are not garbage. It is checked as a history cut at its first event.
                current.truncate();
            }
            batches.addLast(new long[] {number, batch.size(), latest, current.nextIndex});
            retainedEvents += batch.size();
            nextBatch = number + 1;
            long before = current.checker.transactions();
            long unverifiable = current.checker.unverifiableReads();
            for (HistoryEvent e : batch) {
                accept(e, ctx);
            }
            // A replay after a restore re-feeds transactions already counted.
            if (ctx != null) {
                metrics.checked(current.checker.transactions() - before,
                        current.checker.unverifiableReads() - unverifiable);
            }
            size.update(retainedEvents + pending(), current.checker.graph());
        }

        private void accept(HistoryEvent e, Context ctx) {
            boolean judged = current.checker.judgesReadsAtCompletion();
            current.watchProtocol(e, merge.isFleet());
            try {
                Op op = e.opIn(current.atoms);
                if (current.checker.judgesReadsAtCompletion()) {
                    protocolKeysFed.fed(op);
                }
                current.accept(op, e.source(), merge.isFleet());
            } catch (HistoryViolationException bad) {
                if (ctx != null) {
                    metrics.deadLetter();
                    ctx.output(DEAD_LETTERS, DeadLetter.of(DeadLetter.Kind.MALFORMED_HISTORY, bad.getMessage(), e));
                }
            }
            if (ctx != null && judged != current.checker.judgesReadsAtCompletion()) {
                metrics.agentProtocol(!judged); // a replay after a restore decides again what was counted
            }
        }
    }

    @Override
    public void processElement(HistoryEvent event, Context ctx, Collector<Alert> out) throws Exception {
        if (!live.containsKey(ctx.getCurrentKey()) && batchCount.value() == null
                && EventTime.of(event) <= ctx.timerService().currentWatermark()) {
            // A history never released, whose first event is already late: nothing to check it
            // against and nothing to restore, so no checker (nor metric label) is made for it.
            metrics.late();
            ctx.output(LATE_EVENTS, event);
            return;
        }
        Live history = history(ctx.getCurrentKey());
        AgentLane lane = history.lane(event.source());
        if (lane.order.isWaiting(event.sequence()) || lane.ready.contains(event.sequence())
                || gate.isResent(history.progress, event)) {
            metrics.duplicate();
            return;
        }
        if (lane.order.isBehind(event.sequence()) || EventTime.of(event) <= ctx.timerService().currentWatermark()
                || history.merge.isBehind(event)) {
            metrics.late();
            ctx.output(LATE_EVENTS, event);
            return;
        }
        if (history.merge.isFleet()) {
            String owner = history.processAgents.putIfAbsent(event.op().process(), event.source());
            if (owner != null && !owner.equals(event.source())) {
                metrics.deadLetter();
                ctx.output(DEAD_LETTERS, DeadLetter.of(DeadLetter.Kind.PROCESS_SHARED_BY_AGENTS, "process "
                        + event.op().process() + " of history " + history.history + " is used by agents " + owner
                        + " and " + event.source() + ": each agent of a history needs its own processes (agent run"
                        + " --member gives them)", event));
                return;
            }
        }
        history.merge.arrived(lane, event);
        lane.order.add(event, ctx.timerService());
        if (!history.endTimerRegistered) {
            // Fires only when a bounded input ends; once per checker, not per event.
            ctx.timerService().registerEventTimeTimer(Long.MAX_VALUE);
            history.endTimerRegistered = true;
        }
    }

    @Override
    public void onTimer(long timestamp, OnTimerContext ctx, Collector<Alert> out) throws Exception {
        Live history = history(ctx.getCurrentKey());
        long watermark = ctx.timerService().currentWatermark();
        List<HistoryEvent> run = history.merge.release(ctx.timeDomain(), timestamp, watermark);
        if (watermark != Long.MIN_VALUE && history.lastEviction == Long.MIN_VALUE) {
            history.lastEviction = watermark; // evictions count from the first release under a watermark
        }
        if (!run.isEmpty()) {
            List<HistoryEvent> batch = gate.admit(run, history.progress, (kind, e, message) -> {
                metrics.deadLetter();
                ctx.output(DEAD_LETTERS, DeadLetter.of(kind, message, e));
            }, ctx.timerService());
            for (AgentLane lane : history.merge.lanes()) {
                if (lane.mergedNext() != ReleaseOrder.NONE) {
                    nextSequences.put(lane.agent, lane.mergedNext());
                }
            }
            release(history, batch, ctx, out);
        } else if (ctx.timeDomain() == TimeDomain.EVENT_TIME && timestamp != Long.MAX_VALUE) {
            gate.expire(history.progress, timestamp);
        }
        // The final watermark of a bounded input (Long.MAX_VALUE) settles; it never evicts.
        if (retentionMillis > 0 && history.lastEviction != Long.MIN_VALUE && watermark != Long.MAX_VALUE
                && watermark - history.lastEviction >= Math.max(1, retentionMillis / EVICTIONS_PER_RETENTION)) {
            evict(history, watermark);
        }
        if (timestamp == Long.MAX_VALUE && ctx.timeDomain() == TimeDomain.EVENT_TIME) {
            emitVerdict(history, ctx, out);
            live.remove(ctx.getCurrentKey());
            waitingEvents.remove(ctx.getCurrentKey());
            history.size.clear();
            return;
        }
        for (AgentLane lane : history.merge.lanes()) {
            lane.order.scheduleFallback(ctx.timerService());
        }
        long retry = history.merge.retryAt();
        if (retry != AgentLane.NONE && retry > watermark) {
            ctx.timerService().registerEventTimeTimer(retry); // the merge waits for the watermark
        }
    }

    private void release(Live history, List<HistoryEvent> batch, OnTimerContext ctx, Collector<Alert> out)
            throws Exception {
        if (batch.isEmpty()) {
            return;
        }
        if (!history.merge.isFleet()) {
            batch.sort(ORDER); // a fleet's batch is in merge order already
        }
        if (emitCheckedEvents) {
            for (HistoryEvent e : batch) {
                ctx.output(CHECKED_EVENTS, e);
            }
        }
        long number = history.nextBatch;
        checked.put(number, batch);
        batchCount.update(number + 1);
        alerts = out;
        nowMillis = ctx.timerService().currentProcessingTime();
        history.feed(batch, number, ctx);
        alerts = null;
    }

    /**
     * Every half retention of event time: the checker forgets what was invoked more than a
     * retention before the watermark, and its string table is rebuilt if it has outgrown what is
     * kept.
     */
    private void evict(Live history, long watermark) throws Exception {
        history.lastEviction = watermark;
        long before = watermark - retentionMillis;
        metrics.evicted(history.forget(before));
        forgottenBefore.update(before);
        checkerFromBatch.update(history.firstBatch());
        checkerFromIndex.update(history.firstIndex());
        if (history.current.checker.judgesReadsAtCompletion() && history.protocolKeysFed.resumable()) {
            protocolKeys.update(history.protocolKeysFed.toBytes());
        } else {
            protocolKeys.clear();
        }
        if (history.stringsOutgrown()) {
            history.rebuild();
            metrics.rebuilt();
        }
    }

    /**
     * The history's checker, created on first use; after a restore, rebuilt by replaying the
     * checked batches with findings and dead letters muted, then forgetting what the checker had
     * forgotten.
     */
    private Live history(String key) throws Exception {
        Live h = live.get(key);
        if (h != null) {
            return h;
        }
        long next = batchCount.value() == null ? 0 : batchCount.value();
        long from = checkerFromBatch.value() == null ? 0 : checkerFromBatch.value();
        long fromIndex = checkerFromIndex.value() == null ? 0 : checkerFromIndex.value();
        h = new Live(key, from, fromIndex);
        byte[] keysBefore = protocolKeys.value();
        if (keysBefore != null && h.current.truncated) {
            h.protocolKeysFed.restore(keysBefore);
            h.current.resumeProtocol(h.protocolKeysFed.keys());
        }
        for (long i = from; i < next; i++) {
            h.feed(checked.get(i), i, null);
        }
        h.nextBatch = next;
        Long before = forgottenBefore.value();
        if (before != null) {
            h.forgottenBefore = before;
        }
        h.replayed();
        for (Map.Entry<String, Long> resume : nextSequences.entries()) {
            h.lane(resume.getKey()).order.resumeAt(resume.getValue());
        }
        metrics.restored(next - from);
        live.put(key, h);
        return h;
    }

    /** The operator's metrics, for tests. */
    CheckerMetrics metrics() {
        return metrics;
    }

    /** Strings known to the checkers of every history this task holds, for tests. */
    long stringAtoms() {
        long n = 0;
        for (Live h : live.values()) {
            n += h.current.atoms.stringCount();
        }
        return n;
    }

    /** Histories this task holds a checker for, for tests. */
    int liveHistories() {
        return live.size();
    }

    /** Transactions held by the checkers of every history this task holds, for tests. */
    long heldTransactions() {
        long n = 0;
        for (Live h : live.values()) {
            n += h.current.checker.heldTransactions();
        }
        return n;
    }

    /**
     * Settles the history at the end of a bounded input: what settling proves is alerted too,
     * marked as released at the end of the history ({@link Release#atEnd}, decision 0009).
     */
    private void emitVerdict(Live history, OnTimerContext ctx, Collector<Alert> out) {
        alerts = out;
        nowMillis = ctx.timerService().currentProcessingTime();
        settling = true;
        Verdict v;
        try {
            v = history.current.checker.finish();
        } finally {
            settling = false;
        }
        HistoryVerdict verdict = HistoryVerdict.of(history.history, v, history.current.atoms);
        alerts = null;
        ctx.output(VERDICTS, verdict);
    }
}

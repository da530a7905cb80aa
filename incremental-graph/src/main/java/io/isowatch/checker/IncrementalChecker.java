package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Boundary;
import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.anomaly.ConsistencyModels;
import io.isowatch.anomaly.Evidence;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.collect.LongIntMap;
import io.isowatch.graph.DependencyGraph;
import io.isowatch.graph.EdgeKind;
import io.isowatch.graph.MutableDependencyGraph;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.MicroOpList;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import io.isowatch.history.ProcessFault;
import io.isowatch.trace.ReadSettling;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Consumer;

/**
 * Checks a list-append history one event at a time, with Elle's semantics, and reports each
 * anomaly the moment the events seen prove it.
 *
 * <p>Events may arrive up to {@link CheckerOptions#reorderWindow()} positions out of index
 * order; a {@link ReorderBuffer} restores the order before anything else looks at them. Each
 * completion then feeds the keys' version traces (which infer ww, wr and rw edges and per-key
 * findings), the transaction's own checks (internal, future-read, lost-update), and the session
 * orders (process or realtime edges, whichever the requested models need, as Elle chooses).
 * Every edge goes to the dependency graph, whose components are kept incrementally; an edge that
 * closes a cycle triggers a search for each cycle type through it. {@link #finish()} settles what
 * needed the whole history (appends nobody read) and returns the verdict.
 *
 * <p>Findings are final: once reported they are never retracted. The verdict's anomaly list
 * follows Elle's reporting rules, so a cycle type that Elle would not report for the final graph
 * (implied by another in the same component) is streamed but left out of the verdict, and so
 * are the dirty updates of a walk along an order that the read Elle walks contradicts.
 *
 * <p>Not thread-safe; one thread feeds one checker. Throws {@link HistoryViolationException} for
 * a malformed history.
 */
public final class IncrementalChecker {

    /** Marks a process with no open invocation in {@link #openTxn}. */
    private static final int NONE = -1;

    private final CheckerOptions options;
    private final AtomTable atoms;
    private final Consumer<Finding> listener;
    private final Set<String> reportable;
    private final Set<String> prohibited;
    private final boolean realtime;
    private final boolean process;

    private final ReorderBuffer reorder;
    private final TxnTable txns = new TxnTable();
    private final MutableDependencyGraph graph;
    private final CycleFinder cycles;
    private Inference inference;
    /** Whether garbage reads are judged at completion (the agent protocol) or at the end. */
    private final ReadSettling settling = ReadSettling.atTheEnd();
    private final SessionOrder sessions;
    private final Context context = new Context();
    private final CycleFinder.CycleExplainer cycleExplainer = new CycleFindings();
    private final Consumer<Op> processEvent = this::process;
    private final SessionOrder.Links links = this::link;
    /** Made once: a method reference written at each edge would be a new object per edge. */
    private final Consumer<Finding> reporter = this::report;

    private LongIntMap openTxn = new LongIntMap();
    private LongIntMap crashed = new LongIntMap();
    private final List<Finding> findings = new ArrayList<>();
    /**
     * Per key: the dirty updates among the first this many {@link #findings} are left out of the
     * verdict, as Elle's lacks them (they came from walking an order the key's longest read
     * contradicts; the walk of that read reports after them). Set only when keys settle, after
     * the last eviction, so the indices hold until the verdict.
     */
    private final LongIntMap dirtyUpdatesLeftOutBefore = new LongIntMap();

    /** A fleet's realtime and agent names ({@link #checkAsFleet}); null for one agent's history. */
    private FleetRealtime fleet;
    private AgentNames agentNames;
    /** Under a reorder window, each held fleet event's agent, by index. */
    private final Map<Long, Integer> heldAgents = new HashMap<>();
    /** The agent of the event being processed; 0 outside a fleet. */
    private int currentAgent;

    private Op current;
    private int currentTxn = -1;
    private boolean truncated;
    /** Ops the reader left out before they reached the checker, and why; see {@link #leftOut}. */
    private long leftOutOps;
    private String leftOutWhy;
    private long unverifiable;
    private long cutOffCompletions;
    private long unseenInvocations;
    private long forgottenTxns;
    private long forgottenEdges;
    private long events;
    /** Findings reported so far whose type the checked models forbid: those that make the verdict false. */
    private long forbiddenFindings;
    private long ok;
    private long info;
    private long fail;
    private boolean finished;

    public IncrementalChecker(CheckerOptions options, AtomTable atoms, Consumer<Finding> listener) {
        this.options = Objects.requireNonNull(options, "options");
        this.atoms = Objects.requireNonNull(atoms, "atoms");
        this.listener = Objects.requireNonNull(listener, "listener");
        List<String> models = ConsistencyModel.names(options.consistencyModels());
        this.reportable = ConsistencyModels.reportableAnomalyTypes(models, options.anomalies());
        this.prohibited = ConsistencyModels.prohibitedAnomalyTypes(models, options.anomalies());
        this.realtime = ConsistencyModels.realtimeNeeded(reportable);
        this.process = !realtime && ConsistencyModels.processNeeded(reportable);
        this.reorder = new ReorderBuffer(options.reorderWindow());
        this.graph = new MutableDependencyGraph(options.workload() == Workload.RW_REGISTER
                ? MutableDependencyGraph.REGISTER_EXPLANATIONS : MutableDependencyGraph.LIST_APPEND_EXPLANATIONS);
        this.sessions = new SessionOrder(realtime ? graph.realtime() : null, process);
        this.cycles = new CycleFinder(graph, realtime, process, options.cycleSearchBudget(),
                options.cycleSearchTimeoutMillis());
        this.inference = options.workload() == Workload.RW_REGISTER
                ? new RegisterInference(context, options.registerOptions(), settling)
                : new ListAppendInference(context, settling);
    }

    /** Checks with the given options and collects nothing while streaming. */
    public IncrementalChecker(CheckerOptions options, AtomTable atoms) {
        this(options, atoms, f -> { });
    }

    /**
     * Takes the next event.
     *
     * @throws IllegalStateException after {@link #finish()}, or on a fleet's checker
     *                               ({@link #checkAsFleet}), whose events need their agent
     */
    public void accept(Op op) {
        if (fleet != null) {
            throw new IllegalStateException(Messages.ACCEPT_WITHOUT_AGENT);
        }
        acceptInOrder(op);
    }

    /**
     * Takes the next event of a fleet's history ({@link #checkAsFleet}), recorded by
     * {@code agent}, a small ordinal. Events come in {@code io.isowatch.history.AgentMerge}'s
     * order, with indices dense in that order (up to the reorder window).
     *
     * @throws IllegalStateException    on a checker not told {@link #checkAsFleet}, or after {@link #finish()}
     * @throws IllegalArgumentException for a negative agent
     */
    public void accept(Op op, int agent) {
        if (fleet == null) {
            throw new IllegalStateException(Messages.ACCEPT_WITH_AGENT);
        }
        if (agent < 0) {
            throw new IllegalArgumentException("agent ordinal must be >= 0, got " + agent);
        }
        if (options.reorderWindow() > 0) {
            heldAgents.put(op.index(), agent);
        } else {
            currentAgent = agent;
        }
        acceptInOrder(op);
    }

    private void acceptInOrder(Op op) {
        if (finished) {
            throw new IllegalStateException("accept() after finish(): this checker has already given its verdict");
        }
        reorder.offer(op, processEvent);
    }

    /**
     * Declares that the history was recorded by several agents whose clocks differ by at most
     * {@code clockUncertainty} (decision 0021): a realtime edge joins two transactions of one
     * agent as in Elle, and two of different agents only when the first's ok completion time plus
     * the uncertainty is before the second's invocation time. Every event then comes with its
     * agent ({@link #accept(Op, int)}) and a time. Realtime edges are stored in the graph. Agents
     * are named in explanations by {@link #agentNamed}; an agent not named is {@code agent N}.
     * Process order, and every model that needs no realtime, are unchanged. Call before the first
     * event.
     *
     * @throws IllegalStateException    after the first event, when called twice, or after
     *                                  {@link #followAgentProtocol()} (a fleet's garbage reads wait
     *                                  for the end)
     * @throws IllegalArgumentException for a negative uncertainty, or with rw-register's
     *                                  linearizable-keys, whose version orders assume one realtime
     *                                  order of the history's indices
     */
    public void checkAsFleet(Duration clockUncertainty) {
        if (events > 0 || fleet != null) {
            throw new IllegalStateException(events > 0
                    ? "checkAsFleet() after " + events + " events: call it before the first"
                    : "checkAsFleet() called twice");
        }
        if (clockUncertainty.isNegative()) {
            throw new IllegalArgumentException("clock uncertainty must be >= 0, got " + clockUncertainty);
        }
        if (options.workload() == Workload.RW_REGISTER && options.registerOptions().linearizableKeys()) {
            // RealtimeVersionOrder keeps Elle's one buffer in index order, which a fleet's merged
            // order is not: its version orders could rest on clock differences.
            throw new IllegalArgumentException(Messages.LINEARIZABLE_KEYS_IN_A_FLEET);
        }
        if (settling.live()) {
            throw new IllegalStateException(Messages.PROTOCOL_IN_A_FLEET);
        }
        fleet = new FleetRealtime(clockUncertainty.toNanos());
        agentNames = new AgentNames();
        sessions.checkAsFleet(fleet);
    }

    /**
     * {@link #checkAsFleet(Duration)} with the agents' ids, by ordinal: {@code agentIds.get(n)}
     * names agent {@code n}. More may be named later with {@link #agentNamed}.
     */
    public void checkAsFleet(Duration clockUncertainty, List<String> agentIds) {
        checkAsFleet(clockUncertainty);
        for (int a = 0; a < agentIds.size(); a++) {
            agentNamed(a, agentIds.get(a));
        }
    }

    /**
     * Names agent {@code agent} for explanations; a fleet's job learns its agents as they appear,
     * so names may come at any time, before the agent's events are explained. Naming an agent
     * again replaces its name.
     *
     * @throws IllegalStateException on a checker not told {@link #checkAsFleet}
     */
    public void agentNamed(int agent, String id) {
        if (agentNames == null) {
            throw new IllegalStateException(Messages.NAMED_WITHOUT_FLEET);
        }
        agentNames.name(agent, id);
    }

    /** Whether this checker checks a fleet's history ({@link #checkAsFleet}). */
    public boolean checksFleet() {
        return fleet != null;
    }

    /**
     * Declares that this checker sees a history only from some index on: the events before it
     * were dropped (the stream job does so to bound its memory; docs/decisions/0005). Reads of
     * elements or values written before the cut then look unwritten, so garbage reads are
     * counted in {@link #unverifiableReads()} instead of reported, and an empty graph is not
     * reported either. A history may be cut anywhere, even inside a transaction: the completion
     * of a transaction whose invocation was cut off is skipped ({@link #cutOffCompletions()}).
     * Everything else stays sound: fewer events can only remove edges, never add one, so every
     * cycle found is a cycle of the whole history. An rw-register checker assumes no version-order
     * source (wfr, sequential or linearizable keys) then: Elle keeps or drops each one by whether
     * it makes any key's versions cyclic anywhere in the history, which a part cannot tell.
     * Call before the first event.
     */
    public void historyTruncated() {
        if (events > 0) {
            throw new IllegalStateException("historyTruncated() after " + events + " events: call it before the first");
        }
        truncated = true;
        settling.stop();
        if (options.workload() == Workload.RW_REGISTER) {
            // Whether Elle keeps an assumed version-order source depends on the whole history
            // (RegisterInference#forgetAssumedSources); seen from a cut, it cannot be told.
            inference = new RegisterInference(context, RegisterOptions.NONE, settling);
        }
    }

    /**
     * Declares that the history keeps the agent protocol (decision 0016): every invocation is
     * recorded, with the values it writes, before its operation starts; events come in the
     * order they were recorded, none missing; every transaction completes or is marked
     * {@code :info}. A garbage read is then final at its reader's completion, and reported then
     * instead of at {@link #finish()}: an invocation that could claim the element later was
     * recorded after the read returned, so it did not write what was read. Every other finding is
     * unchanged. Call before the first event, on a checker that sees the history from its
     * start; call {@link #agentProtocolBroken()} if a later event shows otherwise.
     *
     * @throws IllegalStateException after the first event, or on a truncated history
     */
    public void followAgentProtocol() {
        refuseProtocolForAFleet();
        if (events > 0 || truncated) {
            throw new IllegalStateException(events > 0
                    ? "followAgentProtocol() after " + events + " events: call it before the first"
                    : "followAgentProtocol() on a truncated history: the protocol needs the history from its first event");
        }
        settling.followAgentProtocol();
    }

    /**
     * Declares, on a checker that sees the history from a cut ({@link #historyTruncated()}), that
     * the history kept the agent protocol up to the cut and goes on keeping it: a stream job's
     * checker rebuilt after a restore or with a fresh string table. Garbage reads are then final at
     * completion as under {@link #followAgentProtocol()}, for every key but those in
     * {@code keysTouchedBefore} (key atoms; integers stand for themselves), which may hold claims
     * made before the cut and wait for {@link #finish()}. The set may hold more keys than were
     * touched: that only makes more reads wait.
     *
     * @throws IllegalStateException after the first event, or on a history not truncated
     */
    public void resumeAgentProtocol(Roaring64Bitmap keysTouchedBefore) {
        refuseProtocolForAFleet();
        if (events > 0 || !truncated) {
            throw new IllegalStateException(events > 0
                    ? "resumeAgentProtocol() after " + events + " events: call it before the first"
                    : "resumeAgentProtocol() on a history seen from its start: call followAgentProtocol() instead");
        }
        settling.followFromCut(keysTouchedBefore);
    }

    /**
     * Decision 0016's argument needs one producer: a writer's invocation recorded before the read
     * returned comes before it in the history. Merged by clocks that differ by up to the
     * uncertainty, another agent's invocation may come after the read, so a garbage read would not
     * be final at its reader's completion. A fleet's garbage reads wait for the end.
     */
    private void refuseProtocolForAFleet() {
        if (fleet != null) {
            throw new IllegalStateException(Messages.PROTOCOL_IN_A_FLEET);
        }
    }

    /**
     * The history as fed no longer keeps the agent protocol (the stream job skipped an event that
     * never came): garbage reads of later completions wait for {@link #finish()} again. Those
     * already reported stay: they were judged on a prefix that kept it. A completion without an
     * invocation breaks it too, and is noticed here.
     */
    public void agentProtocolBroken() {
        settling.stop();
    }

    /** Whether garbage reads are judged at their reader's completion now ({@link #followAgentProtocol()}). */
    public boolean judgesReadsAtCompletion() {
        return settling.live();
    }

    /**
     * Completions skipped because the history was truncated: the first completion of a process
     * not seen since the cut belongs to a transaction invoked before it (see
     * {@link #historyTruncated()}).
     */
    public long cutOffCompletions() {
        return cutOffCompletions;
    }

    /**
     * Completions that came without an invocation and were checked as transactions invoked at an
     * unknown time ({@link #invokeUnseen}), as Elle checks histories of completions alone.
     */
    public long unseenInvocations() {
        return unseenInvocations;
    }

    /**
     * Forgets every transaction invoked before {@code time} (the history's event time, as its
     * ops' {@code :time}), so that a checker fed an endless history holds only its recent part;
     * returns how many it forgot. Call between events. Ids follow invocation order, so the
     * transactions forgotten are the first ones up to the first invoked at or after
     * {@code time}.
     *
     * <p>Forgetting loses, never invents: every edge later inferred and every cycle later found
     * is one of the whole history, but one that needs a forgotten transaction is missed. From
     * the first eviction on, the checker judges the history as one truncated at a cut
     * ({@link #historyTruncated()}): a completion whose invocation was forgotten is skipped, a
     * read of an element or value whose writer was forgotten looks unwritten (only counted, in
     * {@link #unverifiableReads()}), and a process whose crashed transaction was forgotten is no
     * longer held to Jepsen's rule against reuse (the stream job checks the protocol before the
     * checker). A finding leaves with its transactions: the verdict holds the findings among the
     * transactions still held, as a checker of the history cut there would (each was streamed
     * when it was found).
     */
    public int evictInvokedBefore(long time) {
        int cut = txns.invokedBefore(time);
        if (cut > 0) {
            evictBelow(cut);
        }
        return cut;
    }

    /** Forgets the transactions with ids below {@code cut} and renumbers the rest down by {@code cut}. */
    void evictBelow(int cut) {
        if (finished) {
            throw new IllegalStateException("evictBelow() after finish()");
        }
        if (cut == 0) {
            return;
        }
        truncated = true;
        long firstKept = cut < txns.size() ? txns.invokeIndex(cut) : Long.MAX_VALUE;
        findings.removeIf(f -> involvesInvocationBefore(f, firstKept));
        long edgesBefore = graph.edgeCount();
        cycles.evictBelow(cut);
        forgottenEdges += edgesBefore - graph.edgeCount();
        inference.evictBelow(cut);
        sessions.evictBelow(cut, txns.size());
        txns.evictBelow(cut);
        openTxn = Renumbering.values(openTxn, cut);
        crashed = Renumbering.values(crashed, cut);
        forgottenTxns += cut;
    }

    /** Whether a finding names a transaction invoked before history index {@code index}. */
    private static boolean involvesInvocationBefore(Finding finding, long index) {
        for (Txn t : finding.txns()) {
            if (t.invokeIndex() < index) {
                return true;
            }
        }
        return false;
    }

    /** Transactions forgotten by {@link #evictInvokedBefore}. */
    public long forgottenTransactions() {
        return forgottenTxns;
    }

    /** Transactions held now: invoked and not forgotten. */
    public int heldTransactions() {
        return txns.size();
    }

    /** Garbage reads not reported because the history was truncated (see {@link #historyTruncated()}). */
    public long unverifiableReads() {
        return unverifiable;
    }

    /** Events taken so far. */
    public long events() {
        return events;
    }

    /** Transactions completed so far. */
    public long transactions() {
        return ok + info + fail;
    }

    /**
     * Findings reported so far of a type the checked models forbid: those that make the verdict
     * false. The others are anomalies the models allow (write skew under snapshot isolation, say)
     * or notes, and leave it true or unknown.
     */
    public long forbiddenFindings() {
        return forbiddenFindings;
    }

    /** Findings reported so far. */
    public int findingCount() {
        return findings.size();
    }

    /** The dependency graph as it stands (read-only). */
    public DependencyGraph graph() {
        return graph;
    }

    /** Whether realtime edges are part of the graph (the requested models need them). */
    public boolean usesRealtime() {
        return realtime;
    }

    /** Whether process edges are part of the graph. */
    public boolean usesProcess() {
        return process;
    }

    private void process(Op op) {
        if (fleet != null) {
            if (options.reorderWindow() > 0) {
                currentAgent = heldAgents.remove(op.index());
            }
            if (op.time() < 0) {
                throw new HistoryViolationException(op, Messages.fleetEventWithoutTime(op));
            }
        }
        events++;
        if (op.type() == OpType.INVOKE) {
            invoke(op);
        } else {
            complete(op);
        }
    }

    // ---- invocations ----

    private void invoke(Op op) {
        requireWorkloadMicroOps(op);
        long p = op.process();
        int open = openTxn.get(p);
        int crash = crashed.get(p);
        switch (ProcessFault.of(OpType.INVOKE, open != LongIntMap.MISSING && open != NONE, crash != LongIntMap.MISSING)) {
            case DOUBLE_INVOCATION ->
                    throw new HistoryViolationException(op, Messages.doubleInvoke(op, invocationOf(open)));
            case REUSED_AFTER_INFO ->
                    throw new HistoryViolationException(op, Messages.reusedAfterInfo(op, completionOf(crash)));
            case NONE -> { }
        }
        int id = txns.invoke(op);
        openTxn.put(p, id);
        graph.ensureNode(id);
        inference.invoked(id, op, true);
        sessions.invoked(id, currentAgent, op.time());
    }

    /**
     * Opens the transaction of a completion that came without an invocation, as Elle checks them
     * (its README's example and most of its own tests are {@code :ok} ops alone). When it was
     * invoked is unknown, so nothing precedes it in real time: Elle's realtime-graph links only
     * at invocations. Its process is still sequential, so process order holds.
     */
    private int invokeUnseen(Op completion) {
        requireWorkloadMicroOps(completion);
        long p = completion.process();
        int crash = crashed.get(p);
        if (ProcessFault.of(completion.type(), false, crash != LongIntMap.MISSING) == ProcessFault.REUSED_AFTER_INFO) {
            throw new HistoryViolationException(completion, Messages.reusedAfterInfo(completion, completionOf(crash)));
        }
        Op invocation = new Op(completion.index(), completion.time(), OpType.INVOKE, p, completion.value(),
                completion.sourceLine());
        int id = txns.invoke(invocation);
        openTxn.put(p, id);
        graph.ensureNode(id);
        inference.invoked(id, invocation, false);
        sessions.invokedAtUnknownTime(id, currentAgent, completion.time());
        unseenInvocations++;
        // Under the agent protocol every invocation is recorded: this one was not, so its claims
        // came late and reads judged so far could not have seen them.
        settling.stop();
        return id;
    }

    /**
     * Refuses a micro-op of the other workload before the transaction opens, so its process stays
     * free. Elle's list-append throws {@code :unexpected-txn-micro-op-types} on any client op with
     * a micro-op other than {@code :append} and {@code :r} ({@code verify-mop-types}), and its
     * rw-register has no case for {@code :append} ({@code op-internal-case}).
     */
    private void requireWorkloadMicroOps(Op op) {
        List<MicroOp> mops = op.value();
        boolean listAppend = options.workload() == Workload.LIST_APPEND;
        if (listAppend ? !MicroOpList.hasWrite(mops) : !MicroOpList.hasAppend(mops)) {
            return;
        }
        for (int i = 0; i < mops.size(); i++) {
            MicroOp m = mops.get(i);
            if (listAppend ? m instanceof MicroOp.Write : m instanceof MicroOp.Append) {
                throw new HistoryViolationException(op, Messages.otherWorkloadsMicroOp(op, i + 1, write(m), listAppend));
            }
        }
    }

    // ---- completions ----

    private void complete(Op completion) {
        Op op = options.workload() == Workload.LIST_APPEND ? CompletedReads.resolve(completion) : completion;
        long p = op.process();
        int id = openTxn.get(p);
        if (id == LongIntMap.MISSING && truncated) {
            // The process has not invoked since the cut: this completes a transaction invoked
            // before it, which left with its invocation.
            cutOffCompletions++;
            return;
        }
        if (id == LongIntMap.MISSING || id == NONE) {
            id = invokeUnseen(op);
        }
        if (!txns.sameWrites(id, op.value())) {
            // The transaction stays pending (as if it never completed) and the process free, so
            // a caller that goes on (the stream job) checks the process's later transactions.
            openTxn.put(p, NONE);
            throw new HistoryViolationException(op, Messages.writesDiffer(op, txns.invokeIndex(id),
                    writes(txns.microOps(id, this::prefix)), writes(op.value())));
        }
        openTxn.put(p, NONE);
        current = op;
        currentTxn = id;
        byte outcome = TxnTable.statusOf(op.type());
        txns.complete(id, op);
        switch (outcome) {
            case TxnTable.OK -> ok++;
            case TxnTable.INFO -> {
                info++;
                crashed.put(p, id);
            }
            default -> fail++;
        }
        boolean[] prefixRead = inference.completed(id, op, outcome);
        sessions.completed(id, p, outcome, op.time(), graph.nodeCount(), links);
        txns.storeMicroOps(id, op.value(), prefixRead);
        current = null;
        currentTxn = -1;
    }

    /** A transaction's appends and register writes as EDN, for a message. */
    private String writes(List<MicroOp> mops) {
        StringBuilder out = new StringBuilder();
        for (MicroOp m : mops) {
            if (!(m instanceof MicroOp.Read)) {
                out.append(out.length() == 0 ? "" : " ").append(write(m));
            }
        }
        return out.length() == 0 ? "none" : out.toString();
    }

    /** An append or register write as EDN, for a message. */
    private String write(MicroOp m) {
        return m instanceof MicroOp.Append a
                ? "[:append " + atoms.render(a.key()) + " " + atoms.render(a.value()) + "]"
                : "[:w " + atoms.render(((MicroOp.Write) m).key()) + " " + atoms.render(((MicroOp.Write) m).value()) + "]";
    }

    private void link(int from, int to, EdgeKind kind) {
        // A fleet's realtime edges are stored: the implicit order assumes one realtime order of ids.
        if (kind == EdgeKind.REALTIME && fleet == null ? graph.addRealtimeEdge(from, to) : graph.addEdge(from, to, kind)) {
            cycles.edgeAdded(from, to, cycleExplainer, reporter);
        }
    }

    private void report(Finding finding) {
        if (truncated && finding.type() == AnomalyType.GARBAGE_READ) {
            unverifiable++;
            return;
        }
        keep(finding);
    }

    private void keep(Finding finding) {
        if (prohibited.contains(finding.type().elleName())) {
            forbiddenFindings++;
        }
        findings.add(finding);
        listener.accept(finding);
    }

    // ---- the end ----

    /**
     * Tells the checker that its reader left {@code ops} ops of the history out, for the reason
     * {@code why} (e.g. {@code no integer :process}). Nothing is checked differently; when no
     * dependency can be inferred, the unknown verdict names this cause first, since a history
     * whose ops were all left out looks empty to the checker. Call before {@link #finish()}.
     *
     * @throws IllegalArgumentException for a negative count, or a positive one without a reason
     */
    public void leftOut(long ops, String why) {
        if (ops < 0 || ops > 0 && (why == null || why.isBlank())) {
            throw new IllegalArgumentException("leftOut needs ops >= 0 and, when some were, a reason; got "
                    + ops + ", " + why);
        }
        leftOutOps = ops;
        leftOutWhy = why;
    }

    /**
     * Settles everything that waited for the whole history and returns the verdict. Call once,
     * after the last event.
     */
    public Verdict finish() {
        if (finished) {
            throw new IllegalStateException("finish() called twice");
        }
        reorder.flush(processEvent);
        finished = true;
        inference.settle();
        if (graph.edgeCount() == 0 && !sessions.linkedToFailed() && !truncated) {
            String reason = "no dependency between any two transactions could be inferred";
            if (leftOutOps > 0) {
                reason = String.format("%,d op%s left out: %s; and %s among the rest", leftOutOps,
                        leftOutOps == 1 ? " was" : "s were", leftOutWhy, reason);
            }
            report(new Finding.Undecided(AnomalyType.EMPTY_TRANSACTION_GRAPH, reason, List.of()));
        }
        return verdict();
    }

    private Verdict verdict() {
        Map<AnomalyType, List<Finding>> all = new EnumMap<>(AnomalyType.class);
        for (int i = 0; i < findings.size(); i++) {
            Finding f = findings.get(i);
            if (!f.type().isCycle() && f.type() != AnomalyType.LOST_UPDATE && !leftOut(f, i)) {
                all.computeIfAbsent(f.type(), t -> new ArrayList<>()).add(f);
            }
        }
        for (Finding f : cycles.finalFindings(cycleExplainer)) {
            all.computeIfAbsent(f.type(), t -> new ArrayList<>()).add(f);
        }
        for (Finding f : inference.lostUpdates()) {
            all.computeIfAbsent(AnomalyType.LOST_UPDATE, t -> new ArrayList<>()).add(f);
        }
        dropRedundantCycleExists(all);
        Map<AnomalyType, List<Finding>> shown = new LinkedHashMap<>();
        boolean bad = false;
        List<AnomalyType> types = new ArrayList<>();
        for (Map.Entry<AnomalyType, List<Finding>> e : all.entrySet()) {
            String name = e.getKey().elleName();
            if (reportable.contains(name)) {
                types.add(e.getKey());
                bad |= prohibited.contains(name);
            }
        }
        types.sort((a, b) -> a.elleName().compareTo(b.elleName()));
        for (AnomalyType t : types) {
            shown.put(t, List.copyOf(all.get(t)));
        }
        Verdict.Stats stats = new Verdict.Stats(ok + info + fail, ok, info, fail, events,
                forgottenEdges + graph.edgeCount());
        if (types.isEmpty()) {
            return new Verdict(Validity.TRUE, List.of(), Map.of(), new TreeSet<>(), new TreeSet<>(), stats);
        }
        Boundary boundary = ConsistencyModels.friendlyBoundary(all.keySet().stream().map(AnomalyType::elleName).toList());
        return new Verdict(bad ? Validity.FALSE : Validity.UNKNOWN, List.copyOf(types), shown,
                new TreeSet<>(boundary.not()), new TreeSet<>(boundary.alsoNot()), stats);
    }

    /** Whether {@code finding}, the {@code index}th reported, is a dirty update the verdict leaves out. */
    private boolean leftOut(Finding finding, int index) {
        return finding instanceof Finding.DirtyUpdate d && index < dirtyUpdatesLeftOutBefore.get(d.key());
    }

    /**
     * Elle's remove-redundant-cycle-exists: a cycle-exists fallback is left out when the other
     * reportable anomalies already rule its model out.
     */
    private void dropRedundantCycleExists(Map<AnomalyType, List<Finding>> all) {
        List<String> others = all.keySet().stream()
                .filter(t -> !t.isCycleExists() && reportable.contains(t.elleName()))
                .map(AnomalyType::elleName).toList();
        if (others.isEmpty()) {
            return;
        }
        Set<String> ruledOut = ConsistencyModels.impossibleModels(others);
        all.keySet().removeIf(t -> t.isCycleExists() && ruledOut.contains(
                ConsistencyModels.canonicalModel(t.elleName().substring(0, t.elleName().length() - "-cycle-exists".length()))));
    }

    // ---- transactions as findings show them ----

    private long[] prefix(long key, int length) {
        return inference.prefix(key, length);
    }

    /** A transaction's micro-ops; for the one being completed, those of its completion. */
    private List<MicroOp> microOps(int id) {
        return id == currentTxn && current != null ? current.value() : txns.microOps(id, this::prefix);
    }

    private Txn txn(int id) {
        if (id == currentTxn && current != null) {
            return new Txn(id, txns.invokeIndex(id), txns.invokeTime(id), current);
        }
        return txns.txn(id, this::prefix);
    }

    private Op invocationOf(int id) {
        return new Op(txns.invokeIndex(id), txns.invokeTime(id), OpType.INVOKE, txns.process(id), List.of());
    }

    private Op completionOf(int id) {
        return txns.txn(id, this::prefix).completion();
    }

    /** The checker as its inference sees it. */
    private final class Context implements InferenceContext {
        @Override
        public boolean pending(int t) {
            return txns.status(t) == TxnTable.PENDING;
        }

        @Override
        public boolean possible(int t) {
            return txns.possible(t);
        }

        @Override
        public boolean committed(int t) {
            return txns.status(t) == TxnTable.OK;
        }

        @Override
        public boolean failed(int t) {
            return txns.status(t) == TxnTable.FAIL;
        }

        @Override
        public void link(int from, int to, EdgeKind kind) {
            IncrementalChecker.this.link(from, to, kind);
        }

        @Override
        public void report(Finding finding) {
            IncrementalChecker.this.report(finding);
        }

        @Override
        public void reportJudgedAtCompletion(Finding finding) {
            keep(finding);
        }

        @Override
        public void leaveDirtyUpdatesOutOfVerdict(long key) {
            dirtyUpdatesLeftOutBefore.put(key, findings.size());
        }

        @Override
        public Txn txn(int id) {
            return IncrementalChecker.this.txn(id);
        }

        @Override
        public List<MicroOp> microOps(int id) {
            return IncrementalChecker.this.microOps(id);
        }

        @Override
        public long invokeIndex(int id) {
            return txns.invokeIndex(id);
        }

        @Override
        public String render(long atom) {
            return atoms.render(atom);
        }
    }

    /** Why {@code a} precedes {@code b}: session order here, data edges from the inference. */
    private Evidence explain(int a, int b, EdgeKind kind) {
        Evidence found = switch (kind) {
            case PROCESS -> new Evidence.Process(txns.process(a));
            case REALTIME -> new Evidence.Realtime(txns.completeIndex(a), txns.completeTime(a),
                    txns.invokeIndex(b), txns.invokeTime(b), acrossAgents(a, b));
            default -> inference.explain(a, b, kind);
        };
        if (found == null) {
            throw new IllegalStateException("no evidence for " + kind.elleName() + " edge from transaction "
                    + a + " to " + b + "; the graph and the traces disagree (a checker bug)");
        }
        return found;
    }

    /** For a realtime edge between two agents of a fleet: which, and the uncertainty it exceeds; else null. */
    private Evidence.Agents acrossAgents(int a, int b) {
        if (fleet == null || fleet.agentOf(a) == fleet.agentOf(b)) {
            return null;
        }
        return new Evidence.Agents(agentNames.name(fleet.agentOf(a)), agentNames.name(fleet.agentOf(b)),
                fleet.epsilonNanos());
    }

    private final class CycleFindings implements CycleFinder.CycleExplainer {
        @Override
        public Finding.Cycle cycle(AnomalyType type, int[] nodes, EdgeKind[] kinds) {
            Map<Integer, Txn> byId = new HashMap<>();
            List<Finding.Step> steps = new ArrayList<>(nodes.length);
            for (int i = 0; i < nodes.length; i++) {
                int a = nodes[i];
                int b = nodes[(i + 1) % nodes.length];
                Evidence why = explain(a, b, kinds[i]);
                steps.add(new Finding.Step(byId.computeIfAbsent(a, IncrementalChecker.this::txn),
                        byId.computeIfAbsent(b, IncrementalChecker.this::txn), why));
            }
            return new Finding.Cycle(type, steps);
        }

        @Override
        public Txn txn(int id) {
            return IncrementalChecker.this.txn(id);
        }
    }
}

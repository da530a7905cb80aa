package io.isowatch.agent.recorder;

import io.isowatch.agent.client.DefinitelyAbortedException;
import io.isowatch.agent.client.IndeterminateException;
import io.isowatch.agent.client.TransactionFailedException;
import io.isowatch.agent.metrics.AgentMetrics;
import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.LongSupplier;

/**
 * Stamps the invocations and completions of a client's transactions as Jepsen ops and appends
 * them to an {@link EventLog}.
 *
 * <p>Each event gets this agent's id and the next sequence number, dense from
 * {@link Builder#firstSequence(long)}; the op's {@code index} is that sequence number and its
 * {@code time} nanoseconds since the Unix epoch, read from the monotonic clock anchored once to
 * the wall clock at start (see {@link Builder#timeOrigin(long)}). Epoch times keep a resumed
 * agent's events after those it recorded before, and the events of several agents comparable,
 * which the stream job's watermarks need; Jepsen and Elle accept any origin. Numbering and appending happen under
 * one lock, so the log holds the events in sequence order, and an event's index is below that of
 * every event recorded after it returned: an invocation recorded after a completion returned
 * really began after it, which is what realtime (strict-serializable) checking relies on.
 *
 * <p>Thread-safe. The caller's thread does only local work: it never waits for the network,
 * only for the log's append (memory, a memory-mapped file, or a buffered file) and the lock.
 *
 * <p>The recorder enforces Jepsen's process discipline and throws
 * {@link IllegalStateException} on a breach, before anything is logged: a process invokes only
 * when it has no transaction open, completes only the transaction it invoked, and never invokes
 * again after an {@code info} completion (the caller continues as a new process). If the log's
 * append throws, nothing is recorded and the process's state is unchanged.
 *
 * <p>Closing reads: when a workload stops writing a key (Elle's generator retires it for a fresh
 * one), {@link #retireKey} reads it once more after every writer has completed, so that every
 * append is read by someone. An append nobody reads can only be placed by the checker when the
 * history ends (decision 0009), so a cycle through it would be reported only then.
 *
 * <p>One history, several agents ({@link Builder#history}, issue 37): each agent records with
 * its own recorder, id, log, sequence and process numbering, and its events name the history
 * ({@link HistoryEvent#inHistory}). The agents' processes and written values must differ across
 * the history; {@link HistoryMember} gives the rule (member {@code m} owns {@code m × 10⁹ + n})
 * and the numbering, which the caller applies, since the values reach the database before the
 * recorder could change them. The recorder checks what one agent can: every process it records
 * and every integer value an invocation writes is one its member owns, refused with
 * {@link IllegalArgumentException} before anything is logged. That two agents have different
 * members, and string values, it cannot check.
 *
 * <p>Memory: one entry per open transaction, plus one per process retired by {@code info}
 * (kept to refuse its reuse).
 */
public final class HistoryRecorder implements AutoCloseable {

    /** How long {@link #retireKey(long, long, KeyReader)} waits for the key's writers. */
    public static final Duration DEFAULT_RETIRE_TIMEOUT = Duration.ofSeconds(30);

    private final String agentId;
    private final EventLog log;
    private final AgentMetrics metrics;
    private final LongSupplier clock;
    private final long start;
    private final long origin;
    private final boolean declaresAgentProtocol;
    /** This agent's place in a history shared with other agents, or null for its own history. */
    private final HistoryMember member;
    private final boolean continuesEarlierEvents;
    private final ReentrantLock lock = new ReentrantLock();
    /** Signalled on every completion, for {@link #retireKey} waiting for a key's writers. */
    private final Condition completedOne = lock.newCondition();
    private final ConcurrentHashMap<Long, Pending> open = new ConcurrentHashMap<>();
    private final Set<Long> crashed = ConcurrentHashMap.newKeySet();
    private long nextSequence;
    private volatile long recorded;
    private long maxProcess = -1; // guarded by lock

    private record Pending(List<MicroOp> invoked, long invokedAt) {
    }

    private HistoryRecorder(Builder b) {
        this.agentId = b.agentId;
        this.log = b.log;
        this.metrics = b.metrics;
        this.clock = b.clock;
        this.nextSequence = b.firstSequence;
        this.continuesEarlierEvents = b.firstSequence > 0;
        this.declaresAgentProtocol = b.declaresAgentProtocol;
        this.member = b.member;
        this.start = clock.getAsLong();
        long unshifted = b.timeOrigin != null ? b.timeOrigin
                : b.customClock ? 0 : Math.multiplyExact(System.currentTimeMillis(), 1_000_000L);
        this.origin = Math.addExact(unshifted, b.clockOffset);
        if (origin < 0) {
            throw new IllegalArgumentException("the clock offset of " + b.clockOffset + " ns puts the first time before"
                    + " 0 (" + origin + " ns): times are nanoseconds since the Unix epoch, or since a test clock's start;"
                    + " use a smaller negative offset or a later timeOrigin");
        }
    }

    /** The time this recorder would stamp an event with now, in nanoseconds (its clock, offset and all). */
    public long now() {
        return origin + (clock.getAsLong() - start);
    }

    /** A recorder for agent {@code agentId} appending to {@code log}, with the system clock and no metrics. */
    public HistoryRecorder(String agentId, EventLog log) {
        this(builder(agentId, log));
    }

    /** Starts configuring a recorder; {@code agentId} must be non-empty and unique among agents. */
    public static Builder builder(String agentId, EventLog log) {
        return new Builder(agentId, log);
    }

    /** The id every event of this recorder carries as its source. */
    public String agentId() {
        return agentId;
    }

    /** This agent's place in a history it records with other agents; empty when it records its own. */
    public Optional<HistoryMember> member() {
        return Optional.ofNullable(member);
    }

    /** The history every event of this recorder belongs to: the shared one's name, else the agent id. */
    public String history() {
        return member != null ? member.history() : agentId;
    }

    /** Whether this recorder continues a history that already has events (a resumed spool). */
    public boolean continuesEarlierEvents() {
        return continuesEarlierEvents;
    }

    /** Events recorded so far by this recorder. */
    public long eventsRecorded() {
        return recorded;
    }

    /** The largest process id of any event recorded, or -1. */
    public long maxProcess() {
        lock.lock();
        try {
            return maxProcess;
        } finally {
            lock.unlock();
        }
    }

    /** Processes with a transaction invoked and not yet completed. */
    public int openTransactions() {
        return open.size();
    }

    /**
     * Records that {@code process} invokes a transaction of {@code ops} (reads unknown).
     *
     * @throws IllegalStateException    when the process has a transaction open or has crashed (info)
     * @throws IllegalArgumentException in a shared history, when the process or an integer value
     *                                  written is not one this agent's member owns
     */
    public void invoke(long process, List<MicroOp> ops) {
        List<MicroOp> value = List.copyOf(ops);
        if (member != null) {
            checkOwned(process, value);
        }
        lock.lock();
        try {
            if (crashed.contains(process)) {
                throw new IllegalStateException("process " + process + " got an info completion and must never invoke "
                        + "again; continue as a new process id");
            }
            if (open.containsKey(process)) {
                throw new IllegalStateException("process " + process + " invoked while its previous transaction "
                        + "is still open; complete it with ok, fail or info first");
            }
            long now = clock.getAsLong();
            append(now, OpType.INVOKE, process, value);
            open.put(process, new Pending(value, now));
        } finally {
            lock.unlock();
        }
    }

    /**
     * Records that {@code process}'s open transaction committed, with {@code completed} being its
     * micro-ops with every read filled in.
     *
     * @throws IllegalStateException    when the process has no transaction open
     * @throws IllegalArgumentException when {@code completed} has a different number of micro-ops
     */
    public void ok(long process, List<MicroOp> completed) {
        complete(process, OpType.OK, List.copyOf(completed));
    }

    /** Records that {@code process}'s open transaction definitely did not commit. */
    public void fail(long process) {
        complete(process, OpType.FAIL, null);
    }

    /**
     * Records that the outcome of {@code process}'s open transaction is unknown. The process is
     * then retired: invoking it again is an error.
     */
    public void info(long process) {
        complete(process, OpType.INFO, null);
    }

    /**
     * Completes, as {@code info}, each transaction an earlier run of this history left open: the
     * agent died after recording its invocation and before its completion, so its outcome is
     * unknown. Each process is then retired (Jepsen: a process that got an info never invokes
     * again), and the events go to the log like any other, so the history holds every
     * transaction whole. Call it once, before any client records.
     *
     * @param leftOpen per process, the micro-ops its open transaction invoked
     * @throws IllegalStateException when a process has a transaction open in this recorder
     */
    public void completeLeftOpen(Map<Long, List<MicroOp>> leftOpen) {
        lock.lock();
        try {
            for (Map.Entry<Long, List<MicroOp>> e : leftOpen.entrySet()) {
                long process = e.getKey();
                if (open.containsKey(process)) {
                    throw new IllegalStateException("process " + process + " has a transaction open in this run;"
                            + " only an earlier run's can be completed as left open");
                }
                append(clock.getAsLong(), OpType.INFO, process, List.copyOf(e.getValue()));
                crashed.add(process);
                if (metrics != null) {
                    metrics.outcome(OpType.INFO);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private void complete(long process, OpType type, List<MicroOp> completed) {
        long latency;
        lock.lock();
        try {
            Pending pending = open.get(process);
            if (pending == null) {
                throw new IllegalStateException("process " + process + " completed (" + type.jepsenName()
                        + ") without an open invocation");
            }
            if (completed != null && completed.size() != pending.invoked().size()) {
                throw new IllegalArgumentException("process " + process + " completed " + completed.size()
                        + " micro-ops but invoked " + pending.invoked().size());
            }
            long now = clock.getAsLong();
            append(now, type, process, completed != null ? completed : pending.invoked());
            open.remove(process);
            if (type == OpType.INFO) {
                crashed.add(process);
            }
            completedOne.signalAll();
            latency = now - pending.invokedAt();
        } finally {
            lock.unlock();
        }
        if (metrics != null) {
            metrics.outcome(type);
            metrics.transactionLatency(latency);
        }
    }

    /**
     * Transactions invoked through this recorder and not yet completed that write {@code key} (an
     * append or a register write). O(open transactions × their length), under the recorder's lock.
     */
    public int openWriters(long key) {
        lock.lock();
        try {
            int n = 0;
            for (Pending p : open.values()) {
                n += writes(p, key) ? 1 : 0;
            }
            return n;
        } finally {
            lock.unlock();
        }
    }

    /**
     * {@link #retireKey(long, long, Duration, KeyReader)} with {@link #DEFAULT_RETIRE_TIMEOUT}.
     */
    public OpType retireKey(long process, long key, KeyReader reader) throws InterruptedException {
        return retireKey(process, key, DEFAULT_RETIRE_TIMEOUT, reader);
    }

    /**
     * Records a closing read of {@code key}: waits until every transaction invoked through this
     * recorder that writes the key has completed (ok, fail or info), records the invocation of
     * {@code [[:r key nil]]} on {@code process}, calls {@code reader} and records the outcome: ok
     * with the value read, {@code fail} when the reader throws {@link DefinitelyAbortedException},
     * {@code info} when it throws {@link IndeterminateException} or anything else (which is then
     * rethrown). The caller writes the key no more: an append after the closing read is again
     * one nobody reads.
     *
     * <p>The wait and the invocation happen under the recorder's lock, so no writer of the key is
     * invoked between them; the reader runs outside it, on the caller's thread, like any client
     * call. Thread-safe.
     *
     * @return the completion recorded: {@link OpType#OK}, {@link OpType#FAIL}, or {@link OpType#INFO}
     *         (the process is then retired: continue as a new process id)
     * @throws IllegalStateException when writers are still open after {@code timeout} (naming the
     *                               key and their processes), or when {@code process} has a
     *                               transaction open or has crashed; nothing is then recorded
     * @throws InterruptedException  when interrupted while waiting; nothing is then recorded
     */
    public OpType retireKey(long process, long key, Duration timeout, KeyReader reader) throws InterruptedException {
        Objects.requireNonNull(reader, "reader");
        List<MicroOp> read = List.of(new MicroOp.Read(key, null));
        lock.lock();
        try {
            if (open.containsKey(process)) {
                throw new IllegalStateException("process " + process + " cannot retire key " + key + " while its own "
                        + "transaction is open; complete it with ok, fail or info first");
            }
            long left = timeout.toNanos();
            for (Set<Long> writers = writersOf(key); !writers.isEmpty(); writers = writersOf(key)) {
                if (left <= 0) {
                    throw new IllegalStateException("key " + key + " still has writers open after " + timeout
                            + ": processes " + writers + "; complete their transactions (ok, fail or info) before "
                            + "retiring the key, or wait longer");
                }
                left = completedOne.awaitNanos(left);
            }
            invoke(process, read);
        } finally {
            lock.unlock();
        }
        long[] values;
        try {
            values = reader.read(key);
        } catch (DefinitelyAbortedException e) {
            fail(process);
            return OpType.FAIL;
        } catch (IndeterminateException e) {
            info(process);
            return OpType.INFO;
        } catch (RuntimeException | Error e) {
            info(process);
            throw e;
        } catch (TransactionFailedException e) {
            throw new AssertionError("sealed: fail or info", e);
        }
        ok(process, List.of(new MicroOp.Read(key, values)));
        return OpType.OK;
    }

    /** The processes whose open transaction writes {@code key}, sorted. Called with {@link #lock} held. */
    private Set<Long> writersOf(long key) {
        Set<Long> writers = new TreeSet<>();
        for (Map.Entry<Long, Pending> e : open.entrySet()) {
            if (writes(e.getValue(), key)) {
                writers.add(e.getKey());
            }
        }
        return writers;
    }

    /** Refuses a process or an integer written value that this agent's member does not own. */
    private void checkOwned(long process, List<MicroOp> ops) {
        if (!member.owns(process)) {
            throw new IllegalArgumentException("process " + process + " is not one of member " + member.member()
                    + " of history '" + member.history() + "': number this agent's processes with "
                    + "HistoryMember.process(n), so that no other agent of the history uses them");
        }
        for (MicroOp m : ops) {
            long written = m instanceof MicroOp.Append a ? a.value() : m instanceof MicroOp.Write w ? w.value() : -1;
            if (!(m instanceof MicroOp.Read) && !AtomTable.isString(written) && !member.owns(written)) {
                throw new IllegalArgumentException("process " + process + " writes " + written + " to key " + m.key()
                        + ", not a value of member " + member.member() + " of history '" + member.history()
                        + "': number the values this agent writes with HistoryMember.value(n), so that no other agent"
                        + " of the history writes the same one");
            }
        }
    }

    /** Whether an open transaction appends to or writes {@code key}. */
    private static boolean writes(Pending pending, long key) {
        for (MicroOp m : pending.invoked()) {
            if (!(m instanceof MicroOp.Read) && m.key() == key) {
                return true;
            }
        }
        return false;
    }

    /** Called with {@link #lock} held. */
    private void append(long now, OpType type, long process, List<MicroOp> value) {
        long sequence = nextSequence;
        HistoryEvent event = new HistoryEvent(agentId, sequence, new Op(sequence, origin + (now - start), type, process, value));
        if (member != null) {
            event = event.inHistory(member.history());
        }
        log.append(sequence == 0 && declaresAgentProtocol ? event.declaringAgentProtocol() : event);
        nextSequence = sequence + 1;
        recorded++;
        if (process > maxProcess) {
            maxProcess = process;
        }
        if (metrics != null) {
            metrics.eventRecorded();
        }
    }

    /** Closes the event log, which this recorder owns. */
    @Override
    public void close() {
        lock.lock();
        try {
            log.close();
        } finally {
            lock.unlock();
        }
    }

    /** Options of a {@link HistoryRecorder}; only the agent id and the log are required. */
    public static final class Builder {
        private final String agentId;
        private final EventLog log;
        private AgentMetrics metrics;
        private LongSupplier clock = System::nanoTime;
        private boolean customClock;
        private Long timeOrigin;
        private long firstSequence;
        private boolean declaresAgentProtocol;
        private HistoryMember member;
        private long clockOffset;

        private Builder(String agentId, EventLog log) {
            this.agentId = Objects.requireNonNull(agentId, "agentId");
            this.log = Objects.requireNonNull(log, "log");
            if (agentId.isEmpty()) {
                throw new IllegalArgumentException("agentId must not be empty: it identifies this agent's events");
            }
        }

        /** Counts events, outcomes and latencies here; none by default. */
        public Builder metrics(AgentMetrics value) {
            this.metrics = value;
            return this;
        }

        /**
         * A monotonic nanosecond clock; {@link System#nanoTime()} by default. Tests pass a fake
         * one; its times then start at 0 unless {@link #timeOrigin(long)} says otherwise.
         */
        public Builder clock(LongSupplier value) {
            this.clock = Objects.requireNonNull(value, "clock");
            this.customClock = true;
            return this;
        }

        /**
         * The time of the recorder's first instant, in nanoseconds; by default the wall clock at
         * start in nanoseconds since the Unix epoch (0 with a custom clock).
         */
        public Builder timeOrigin(long nanos) {
            if (nanos < 0) {
                throw new IllegalArgumentException("timeOrigin must be >= 0, got " + nanos);
            }
            this.timeOrigin = nanos;
            return this;
        }

        /**
         * The first sequence number (default 0). An agent that resumes a spool continues after the
         * last sequence already in it, so that no two different events share an identity.
         */
        public Builder firstSequence(long value) {
            if (value < 0) {
                throw new IllegalArgumentException("firstSequence must be >= 0, got " + value);
            }
            this.firstSequence = value;
            return this;
        }

        /**
         * Declares, in the history's first event, that its producer keeps the agent protocol
         * (decision 0016), so that the checker reports garbage reads as their readers complete
         * instead of when the history ends. Off by default: it is a promise about how this
         * recorder is used, which {@code agent run} keeps and a caller must keep too: call
         * {@link #invoke} before the transaction reaches the database, complete every
         * transaction (or let a crash mark it {@code :info} when the spool is resumed), and record
         * one history per recorder. A broken promise can make a read look like garbage that is not.
         */
        public Builder declaresAgentProtocol(boolean value) {
            this.declaresAgentProtocol = value;
            return this;
        }

        /**
         * Records member {@code member} of the history {@code name}, which several agents record
         * together, each with its own id: every event names the history, and the recorder refuses
         * processes and written values the member does not own (see the class comment and
         * {@link HistoryMember} for the numbering). Without it the agent records its own history,
         * exactly as before.
         *
         * @throws IllegalArgumentException when the name is not a valid history name or the member
         *                                  is outside 0 to {@value HistoryMember#MAX_MEMBER}
         */
        public Builder history(String name, int member) {
            this.member = new HistoryMember(name, member);
            return this;
        }

        /**
         * Shifts every recorded time by {@code offset} (negative: earlier), as a clock that far
         * off would. A test and diagnostic aid: it proves that the checker's clock-uncertainty
         * setting covers agents whose clocks disagree. Zero by default.
         */
        public Builder clockOffset(Duration offset) {
            this.clockOffset = Objects.requireNonNull(offset, "offset").toNanos();
            return this;
        }

        public HistoryRecorder build() {
            return new HistoryRecorder(this);
        }
    }
}

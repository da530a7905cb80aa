package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.FindingId;
import io.isowatch.gen.GeneratorArbitraries;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.gen.RegisterGenerator;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Decision 0016: under the agent protocol a garbage read is reported at its reader's completion
 * instead of at the end, and nothing else changes. For faulty histories that keep the protocol
 * (every element read was claimed, if at all, by an invocation recorded before the read
 * completed), a checker told to follow it streams exactly the findings of a checker that waits
 * for the end (Elle's reading, the reference), gives the same verdict, and streams every garbage
 * read before {@code finish()}. Since findings are never retracted, every finding it streams on
 * any prefix is one of the whole history's: none is contradicted by a later event. The same
 * holds when the events arrive reordered within the checker's window. While it evicts, each
 * garbage read it judges at completion is of a value no invocation of the whole history writes
 * (which reader is named may differ, as {@link EvictionProperties} allows: a forgotten first
 * reader is not named).
 */
class AgentProtocolProperties {

    /** Integer histories only: any table renders their atoms. */
    private static final AtomTable ATOMS = new AtomTable();
    private static final Set<ConsistencyModel> MODELS = Set.of(ConsistencyModel.of("strict-serializable"));

    @Property(tries = 300, seed = "20261204")
    void listAppend_underTheProtocol_garbageReadsComeAtCompletion_andTheFindingsAreTheWholeHistorys(
            @ForAll(supplier = GeneratorArbitraries.Any.class) GeneratorOptions generator,
            @ForAll @DoubleRange(min = 0.05, max = 0.4) double mutationRate,
            @ForAll @IntRange(min = 0, max = 16) int reorderWindow,
            @ForAll @LongRange(min = 0, max = 100_000) long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Op> history = keepingTheProtocol(CheckerMutator.mutate(ListAppendGenerator.generate(generator),
                mutationRate, random));
        compare(CheckerOptions.defaults().toBuilder().consistencyModels(MODELS)
                .build(), history, reorderWindow, random);
    }

    @Property(tries = 300, seed = "20261205")
    void register_underTheProtocol_garbageReadsComeAtCompletion_andTheFindingsAreTheWholeHistorys(
            @ForAll(supplier = GeneratorArbitraries.Any.class) GeneratorOptions generator,
            @ForAll @DoubleRange(min = 0.05, max = 0.4) double mutationRate,
            @ForAll @IntRange(min = 0, max = 16) int reorderWindow,
            @ForAll @LongRange(min = 0, max = 100_000) long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Op> history = keepingTheProtocol(RegisterMutator.mutate(RegisterGenerator.generate(generator),
                mutationRate, random));
        compare(CheckerOptions.defaults().toBuilder().consistencyModels(MODELS).workload(Workload.RW_REGISTER)
                .build(), history,
                reorderWindow, random);
    }

    @Property(tries = 200, seed = "20261206")
    void underTheProtocol_whileEvicting_everyGarbageReadAtCompletionIsOfAValueTheHistoryNeverWrites(
            @ForAll(supplier = GeneratorArbitraries.Any.class) GeneratorOptions generator,
            @ForAll boolean register,
            @ForAll @DoubleRange(min = 0.02, max = 0.3) double evictRate,
            @ForAll @LongRange(min = 0, max = 100_000) long seed) {
        SplittableRandom random = new SplittableRandom(seed);
        List<Op> history = keepingTheProtocol(register
                ? RegisterMutator.mutate(RegisterGenerator.generate(generator), 0.3, random)
                : CheckerMutator.mutate(ListAppendGenerator.generate(generator), 0.3, random));
        CheckerOptions options = CheckerOptions.defaults().toBuilder().consistencyModels(MODELS)
                .workload(register ? Workload.RW_REGISTER : Workload.LIST_APPEND).build();
        try {
            Run.of(options, history, false, 0, random);
        } catch (HistoryViolationException malformed) {
            return; // the mutation broke Jepsen's process rules; nothing to compare
        }
        Map<Long, Set<Long>> written = written(history);
        Run part = new Run(options, true);
        for (Op op : history) {
            part.checker.accept(op);
            if (random.nextDouble() < evictRate) {
                int held = part.checker.heldTransactions();
                part.checker.evictBelow(held == 0 ? 0 : random.nextInt(held + 1));
            }
        }
        part.finish();
        for (Finding f : part.live) {
            if (f instanceof Finding.BadRead b && b.type() == AnomalyType.GARBAGE_READ) {
                long key = b.reader().completion().value().get(b.mopIndex()).key();
                assertTrue(!written.getOrDefault(key, Set.of()).contains(b.element()), () -> "judged " + f
                        + " garbage at completion while evicting, but the history writes it\n" + CheckerHistories.jsonLines(history));
            }
        }
    }

    private static void compare(CheckerOptions options, List<Op> history, int reorderWindow, SplittableRandom random) {
        Run reference;
        try {
            reference = Run.of(options, history, false, 0, random);
        } catch (HistoryViolationException malformed) {
            return; // the mutation broke Jepsen's process rules; nothing to compare
        }
        Run protocol = Run.of(options.toBuilder().reorderWindow(reorderWindow)
                .build(), history, true, reorderWindow, random);
        String where = "\n" + CheckerHistories.jsonLines(history);
        assertEquals(counts(reference.all()), counts(protocol.all()),
                () -> "under the protocol the findings differ from the whole history's" + where);
        assertEquals(reference.verdict.valid(), protocol.verdict.valid(), () -> where);
        assertEquals(reference.verdict.anomalyTypes(), protocol.verdict.anomalyTypes(), () -> where);
        // The reorder window holds the last events until finish() flushes it: those come late for that reason alone.
        long lastIndex = history.get(history.size() - 1).index();
        List<Finding> late = protocol.atTheEnd.stream()
                .filter(f -> f instanceof Finding.BadRead b && b.type() == AnomalyType.GARBAGE_READ
                        && b.reader().completion().index() < lastIndex - reorderWindow)
                .toList();
        assertEquals(List.of(), late, () -> "under the protocol these garbage reads still waited for the end" + where);
        assertTrue(protocol.checker.judgesReadsAtCompletion(), () -> "the protocol was given up" + where);
    }

    /**
     * The history with every element read that only a later invocation claims replaced by one
     * nobody claims: what a store that kept the protocol's premise could have returned.
     * {@link CheckerMutator} picks extra elements from anywhere in the history.
     */
    static List<Op> keepingTheProtocol(List<Op> history) {
        Map<Long, Map<Long, Long>> claimedAt = new HashMap<>();
        for (Op op : history) {
            if (op.type() == OpType.INVOKE) {
                for (MicroOp m : op.value()) {
                    if (!(m instanceof MicroOp.Read)) {
                        long value = m instanceof MicroOp.Append a ? a.value() : ((MicroOp.Write) m).value();
                        claimedAt.computeIfAbsent(m.key(), k -> new HashMap<>()).putIfAbsent(value, op.index());
                    }
                }
            }
        }
        List<Op> out = new ArrayList<>(history.size());
        for (Op op : history) {
            if (op.type() == OpType.INVOKE || op.type() == OpType.FAIL) {
                out.add(op);
                continue;
            }
            List<MicroOp> mops = new ArrayList<>(op.value().size());
            for (MicroOp m : op.value()) {
                if (m instanceof MicroOp.Read r && r.known()) {
                    long[] values = r.values().clone();
                    for (int i = 0; i < values.length; i++) {
                        Long at = claimedAt.getOrDefault(r.key(), Map.of()).get(values[i]);
                        if (at != null && at > op.index()) {
                            values[i] = CheckerMutator.GARBAGE + 1 + i;
                        }
                    }
                    mops.add(new MicroOp.Read(r.key(), values));
                } else {
                    mops.add(m);
                }
            }
            out.add(new Op(op.index(), op.time(), op.type(), op.process(), mops));
        }
        return out;
    }

    /** Every value each key is ever given, by any invocation of the history. */
    private static Map<Long, Set<Long>> written(List<Op> history) {
        Map<Long, Set<Long>> written = new HashMap<>();
        for (Op op : history) {
            if (op.type() == OpType.INVOKE) {
                for (MicroOp m : op.value()) {
                    if (m instanceof MicroOp.Append a) {
                        written.computeIfAbsent(a.key(), k -> new java.util.HashSet<>()).add(a.value());
                    } else if (m instanceof MicroOp.Write w) {
                        written.computeIfAbsent(w.key(), k -> new java.util.HashSet<>()).add(w.value());
                    }
                }
            }
        }
        return written;
    }

    /** Findings by their stable id (type, transactions by history index, keys, elements): identity across checkers. */
    private static Map<String, Integer> counts(List<Finding> findings) {
        Map<String, Integer> counts = new HashMap<>();
        findings.forEach(f -> counts.merge(f.type().elleName() + " " + FindingId.of(f, ATOMS), 1, Integer::sum));
        return counts;
    }

    /** One checker's run: what it streamed before {@code finish()} and what finishing added. */
    private static final class Run {
        final IncrementalChecker checker;
        final List<Finding> live = new ArrayList<>();
        final List<Finding> atTheEnd = new ArrayList<>();
        private boolean finishing;
        Verdict verdict;

        Run(CheckerOptions options, boolean protocol) {
            checker = new IncrementalChecker(options, new AtomTable(), f -> (finishing ? atTheEnd : live).add(f));
            if (protocol) {
                checker.followAgentProtocol();
            }
        }

        /** Feeds the history, shuffled within {@code window} positions when it is above 0. */
        static Run of(CheckerOptions options, List<Op> history, boolean protocol, int window, SplittableRandom random) {
            Run run = new Run(options, protocol);
            for (Op op : shuffledWithin(history, window, random)) {
                run.checker.accept(op);
            }
            run.finish();
            return run;
        }

        void finish() {
            finishing = true;
            verdict = checker.finish();
        }

        List<Finding> all() {
            List<Finding> all = new ArrayList<>(live);
            all.addAll(atTheEnd);
            return all;
        }
    }

    /** Each op moves at most {@code window} places back; the checker's reorder buffer puts it back. */
    private static List<Op> shuffledWithin(List<Op> history, int window, SplittableRandom random) {
        List<Op> out = new ArrayList<>(history);
        if (window == 0) {
            return out;
        }
        for (int i = 0; i + 1 < out.size(); i += 1 + window) {
            int end = Math.min(out.size(), i + 1 + window);
            Collections.shuffle(out.subList(i, end), new java.util.Random(random.nextLong()));
        }
        return out;
    }
}

package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Finding;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import org.junit.jupiter.api.Test;
import org.roaringbitmap.longlong.Roaring64Bitmap;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Decision 0016 on small histories: under the agent protocol a garbage read is reported at its
 * reader's completion; where the checker cannot know every claim (the protocol broken, a key an
 * eviction dropped, a register value whose writer it forgot) it waits for the end, as without
 * the protocol ({@link AbsenceFindingsTest}).
 */
class AgentProtocolTest {

    private static final long X = 1;
    private static final long Y = 2;

    private final List<Finding> streamed = new ArrayList<>();
    private long index;

    private IncrementalChecker checker(Workload workload) {
        IncrementalChecker checker = new IncrementalChecker(
                    CheckerOptions.defaults().toBuilder().workload(workload).build(),
                new AtomTable(), streamed::add);
        checker.followAgentProtocol();
        return checker;
    }

    private void txn(IncrementalChecker checker, long process, List<MicroOp> invoked, List<MicroOp> completed) {
        checker.accept(new Op(index, index * 1_000, OpType.INVOKE, process, invoked));
        index++;
        checker.accept(new Op(index, index * 1_000, OpType.OK, process, completed));
        index++;
    }

    private void readOf(IncrementalChecker checker, long process, long key, long... values) {
        txn(checker, process, List.of(new MicroOp.Read(key, null)), List.of(new MicroOp.Read(key, values)));
    }

    /** What was streamed, without Elle's note on a graph without edges, which these tiny histories may have. */
    private List<AnomalyType> types() {
        return streamed.stream().map(Finding::type).filter(t -> t != AnomalyType.EMPTY_TRANSACTION_GRAPH).toList();
    }

    @Test
    void listAppend_anUnclaimedElement_isAGarbageReadAtTheReadersCompletion_andOnlyOnce() {
        IncrementalChecker checker = checker(Workload.LIST_APPEND);
        txn(checker, 1, List.of(new MicroOp.Append(X, 1)), List.of(new MicroOp.Append(X, 1)));
        readOf(checker, 2, X, 1, 7);
        assertEquals(List.of(AnomalyType.GARBAGE_READ), types(), "at the completion, before finish()");
        checker.finish();
        assertEquals(List.of(AnomalyType.GARBAGE_READ), types(), "settling does not report it again");
    }

    @Test
    void register_anUnclaimedValue_isAGarbageReadAtTheReadersCompletion_andOnlyOnce() {
        IncrementalChecker checker = checker(Workload.RW_REGISTER);
        txn(checker, 1, List.of(new MicroOp.Write(X, 1)), List.of(new MicroOp.Write(X, 1)));
        readOf(checker, 2, X, 9);
        assertEquals(List.of(AnomalyType.GARBAGE_READ), types());
        checker.finish();
        assertEquals(List.of(AnomalyType.GARBAGE_READ), types());
    }

    @Test
    void aClaimedElement_pendingOrNot_isNoGarbage() {
        IncrementalChecker checker = checker(Workload.LIST_APPEND);
        checker.accept(new Op(index++, 0, OpType.INVOKE, 1, List.of(new MicroOp.Append(X, 7))));
        readOf(checker, 2, X, 7);
        checker.accept(new Op(index++, 0, OpType.OK, 1, List.of(new MicroOp.Append(X, 7))));
        checker.finish();
        assertFalse(types().contains(AnomalyType.GARBAGE_READ), types()::toString);
    }

    @Test
    void afterTheProtocolIsBroken_garbageReadsWaitForTheEndAgain() {
        IncrementalChecker checker = checker(Workload.LIST_APPEND);
        checker.agentProtocolBroken();
        readOf(checker, 1, X, 7);
        assertEquals(List.of(), streamed);
        checker.finish();
        assertEquals(List.of(AnomalyType.GARBAGE_READ), types());
    }

    @Test
    void aCompletionWithoutInvocation_breaksTheProtocol() {
        IncrementalChecker checker = checker(Workload.LIST_APPEND);
        checker.accept(new Op(index++, 0, OpType.OK, 3, List.of(new MicroOp.Append(Y, 1))));
        assertFalse(checker.judgesReadsAtCompletion());
        readOf(checker, 1, X, 7);
        assertEquals(List.of(), streamed, "unrecorded invocations may claim 7 later");
    }

    @Test
    void aKeyAnEvictionDropped_waitsForTheEnd_whileAFreshKeyIsJudgedAtCompletion() {
        IncrementalChecker checker = checker(Workload.LIST_APPEND);
        txn(checker, 1, List.of(new MicroOp.Append(X, 7)), List.of(new MicroOp.Append(X, 7)));
        txn(checker, 1, List.of(new MicroOp.Append(Y, 1)), List.of(new MicroOp.Append(Y, 1)));
        checker.evictBelow(1); // forgets the append of x's 7, and x's trace with it
        readOf(checker, 2, X, 7);
        assertEquals(List.of(), streamed, "x's earlier claims are forgotten: 7 may well have been appended");
        readOf(checker, 2, 3, 5);
        assertEquals(List.of(AnomalyType.GARBAGE_READ), types(), "key 3 was never touched before: nobody appended 5");
    }

    @Test
    void aRegisterValueWhoseWriterWasForgotten_isNotJudgedAtCompletion() {
        IncrementalChecker checker = checker(Workload.RW_REGISTER);
        txn(checker, 1, List.of(new MicroOp.Write(X, 4)), List.of(new MicroOp.Write(X, 4)));
        txn(checker, 1, List.of(new MicroOp.Write(X, 5)), List.of(new MicroOp.Write(X, 5)));
        checker.evictBelow(1);
        readOf(checker, 2, X, 4);
        assertEquals(List.of(), streamed);
    }

    @Test
    void theProtocol_isDeclaredBeforeTheFirstEvent_onAWholeHistory() {
        IncrementalChecker late = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable());
        late.accept(new Op(0, 0, OpType.INVOKE, 1, List.of(new MicroOp.Read(X, null))));
        assertThrows(IllegalStateException.class, late::followAgentProtocol);
        IncrementalChecker cut = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable());
        cut.historyTruncated();
        assertThrows(IllegalStateException.class, cut::followAgentProtocol);
    }

    /**
     * A checker rebuilt from a cut (the stream job's, after a restore) resumes the protocol for
     * the keys first touched after the cut: key Y's unknown element is garbage at once. Key X was
     * touched before the cut, where this checker cannot see who appended element 1 (the history
     * read here does show it appended there): judging it would be a false alarm, so it waits.
     */
    @Test
    void resumedFromACut_judgesOnlyKeysFirstTouchedAfterIt_forWorkload() {
        for (Workload workload : Workload.values()) {
            streamed.clear();
            IncrementalChecker checker = new IncrementalChecker(
                    CheckerOptions.defaults().toBuilder().workload(workload).build(),
                    new AtomTable(), streamed::add);
            checker.historyTruncated();
            Roaring64Bitmap before = new Roaring64Bitmap();
            before.addLong(X);
            checker.resumeAgentProtocol(before);
            before.addLong(Y); // the checker took a copy: later changes to the caller's set do not count
            readOf(checker, 1, X, 1);
            assertEquals(List.of(), types(), workload + ": a key touched before the cut waits");
            readOf(checker, 2, Y, 9);
            assertEquals(List.of(AnomalyType.GARBAGE_READ), types(), workload + ": a key first touched after it");
            checker.finish();
            assertEquals(List.of(AnomalyType.GARBAGE_READ), types(),
                    workload + ": the waiting read is not verifiable on a cut history, so never reported");
        }
    }

    @Test
    void resuming_needsACutHistory_andNoEventYet() {
        IncrementalChecker whole = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable());
        assertThrows(IllegalStateException.class, () -> whole.resumeAgentProtocol(new Roaring64Bitmap()));
        IncrementalChecker cut = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable());
        cut.historyTruncated();
        readOf(cut, 1, X, 1);
        assertThrows(IllegalStateException.class, () -> cut.resumeAgentProtocol(new Roaring64Bitmap()));
    }
}

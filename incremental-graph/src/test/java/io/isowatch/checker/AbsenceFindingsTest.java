package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Finding;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Why a garbage read waits for the end of the history (docs/decisions/0009): until then, a
 * completion without an invocation may still claim the element, and under Elle's realtime order
 * it may precede the read. Strict-serializable (realtime order in use) throughout, where the case
 * for reporting early would be strongest.
 */
class AbsenceFindingsTest {

    private static final long X = 1;

    private final List<Finding> streamed = new ArrayList<>();
    private final IncrementalChecker checker =
            new IncrementalChecker(CheckerOptions.defaults(), new AtomTable(), streamed::add);

    /** Process 1 invokes a read of x at index 0 and reads [7] at index 1: nobody has appended 7 yet. */
    private void readOfAnUnclaimedElement() {
        checker.accept(new Op(0, 0, OpType.INVOKE, 1, List.of(new MicroOp.Read(X, null))));
        checker.accept(new Op(1, 1_000, OpType.OK, 1, List.of(new MicroOp.Read(X, new long[] {7}))));
    }

    @Test
    void unclaimedElement_laterClaimedByACompletionWithoutInvocation_isNoAnomaly() {
        readOfAnUnclaimedElement();
        assertEquals(List.of(), streamed, "nothing may be alerted while a later event can still claim 7");
        // Process 2's append, completed without an invocation: invoked at an unknown time, so
        // nothing precedes it in real time and it may have run before the read.
        checker.accept(new Op(2, 2_000, OpType.OK, 2, List.of(new MicroOp.Append(X, 7))));
        Verdict v = checker.finish();
        assertEquals(Validity.TRUE, v.valid(), v::toString);
        assertEquals(List.of(), streamed);
    }

    @Test
    void unclaimedElement_stillUnclaimedAtTheEnd_isAGarbageRead_reportedByFinish() {
        readOfAnUnclaimedElement();
        checker.accept(new Op(2, 2_000, OpType.INVOKE, 2, List.of(new MicroOp.Append(X, 8))));
        checker.accept(new Op(3, 3_000, OpType.OK, 2, List.of(new MicroOp.Append(X, 8))));
        assertEquals(List.of(), streamed, "before finish()");
        Verdict v = checker.finish();
        assertEquals(Validity.FALSE, v.valid(), v::toString);
        assertEquals(List.of(AnomalyType.GARBAGE_READ), streamed.stream().map(Finding::type).toList());
    }
}

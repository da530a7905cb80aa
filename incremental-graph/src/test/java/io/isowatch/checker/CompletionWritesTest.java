package io.isowatch.checker;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A completion may fill in its reads but not change its invocation's writes (docs/elle-compatibility.md). */
class CompletionWritesTest {

    private static Op op(long index, OpType type, long process, MicroOp... mops) {
        return new Op(index, index, type, process, List.of(mops));
    }

    private static MicroOp append(long k, long v) {
        return new MicroOp.Append(k, v);
    }

    private static MicroOp read(long k, long... values) {
        return new MicroOp.Read(k, values);
    }

    @Test
    void completionWithOtherAppends_isAViolation_andTheProcessIsCheckedOn() {
        IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults().toBuilder()
                .consistencyModels(java.util.Set.of(ConsistencyModel.of("serializable"))).build(),
                new AtomTable());
        checker.accept(op(0, OpType.INVOKE, 0, append(1, 1), new MicroOp.Read(2, null)));
        HistoryViolationException e = assertThrows(HistoryViolationException.class,
                () -> checker.accept(op(1, OpType.OK, 0, append(1, 9), read(2))));
        assertTrue(e.getMessage().contains("writes [:append 1 9] but its invocation at index 0 writes [:append 1 1]"),
                e.getMessage());
        // Process 0 goes on; its next transaction and another process's make a write skew.
        checker.accept(op(2, OpType.INVOKE, 0, new MicroOp.Read(3, null), append(4, 1)));
        checker.accept(op(3, OpType.INVOKE, 1, new MicroOp.Read(4, null), append(3, 1)));
        checker.accept(op(4, OpType.OK, 0, new MicroOp.Read(3, null), append(4, 1)));
        checker.accept(op(5, OpType.OK, 1, new MicroOp.Read(4, null), append(3, 1)));
        Verdict v = checker.finish();
        assertEquals(Validity.FALSE, v.valid());
        assertEquals(List.of("G2-item"), v.anomalyTypes().stream().map(t -> t.elleName()).toList());
    }

    @Test
    void completionFillingInReads_withTheSameWritesInOrder_isAccepted() {
        IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable());
        checker.accept(op(0, OpType.INVOKE, 0, append(1, 1), new MicroOp.Read(1, null), append(2, 1)));
        checker.accept(op(1, OpType.OK, 0, append(1, 1), read(1, 1), append(2, 1)));
        assertEquals(1, checker.transactions());
    }

    @Test
    void completionDroppingAnAppend_orReorderingThem_isAViolation() {
        for (Op completion : List.of(op(1, OpType.FAIL, 0, append(1, 1)), op(1, OpType.INFO, 0, append(2, 1), append(1, 1)),
                new Op(1, 1, OpType.OK, 0, List.of()))) {
            IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable());
            checker.accept(op(0, OpType.INVOKE, 0, append(1, 1), append(2, 1)));
            assertThrows(HistoryViolationException.class, () -> checker.accept(completion), completion::toString);
        }
    }
}

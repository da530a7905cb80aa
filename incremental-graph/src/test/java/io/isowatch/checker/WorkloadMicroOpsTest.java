package io.isowatch.checker;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A history holds the micro-ops of one workload: Elle's list-append refuses a register write
 * ({@code verify-mop-types} throws {@code :unexpected-txn-micro-op-types}) and its rw-register has
 * no case for an append. isowatch refuses them too, naming the micro-op, before the transaction
 * opens, so a checker that goes on (the stream job) checks the process's next transaction.
 */
class WorkloadMicroOpsTest {

    private static Op op(long index, OpType type, long process, MicroOp... mops) {
        return new Op(index, index, type, process, List.of(mops));
    }

    private static MicroOp read(long k, long... values) {
        return new MicroOp.Read(k, values);
    }

    private static MicroOp unknownRead(long k) {
        return new MicroOp.Read(k, null);
    }

    @Test
    void listAppend_refusesARegisterWrite_andChecksTheProcessOn() {
        IncrementalChecker checker = new IncrementalChecker(
                CheckerOptions.defaults().toBuilder().consistencyModels(Set.of(ConsistencyModel.of("serializable")))
                        .build(), new AtomTable());
        HistoryViolationException e = assertThrows(HistoryViolationException.class,
                () -> checker.accept(op(0, OpType.INVOKE, 0, new MicroOp.Append(1, 1), new MicroOp.Write(2, 7))));
        assertTrue(e.getMessage().contains("index 0: micro-op 2 is [:w 2 7], a register write; a list-append history"
                + " holds only :append and :r micro-ops (check registers with -m rw-register)"), e.getMessage());
        // Its completion then comes alone, and is refused for the same reason.
        assertThrows(HistoryViolationException.class,
                () -> checker.accept(op(1, OpType.OK, 0, new MicroOp.Append(1, 1), new MicroOp.Write(2, 7))));
        // Process 0 goes on: its next transaction and another process's make a write skew.
        checker.accept(op(2, OpType.INVOKE, 0, unknownRead(3), new MicroOp.Append(4, 1)));
        checker.accept(op(3, OpType.INVOKE, 1, unknownRead(4), new MicroOp.Append(3, 1)));
        checker.accept(op(4, OpType.OK, 0, read(3), new MicroOp.Append(4, 1)));
        checker.accept(op(5, OpType.OK, 1, read(4), new MicroOp.Append(3, 1)));
        Verdict v = checker.finish();
        assertEquals(2, checker.transactions());
        assertEquals(List.of("G2-item"), v.anomalyTypes().stream().map(t -> t.elleName()).toList());
    }

    @Test
    void listAppend_refusesAWriteInACompletionWithoutInvocation() {
        IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable());
        HistoryViolationException e = assertThrows(HistoryViolationException.class,
                () -> checker.accept(op(0, OpType.OK, 3, read(1, 1), new MicroOp.Write(1, 2))));
        assertTrue(e.getMessage().contains("micro-op 2 is [:w 1 2], a register write"), e.getMessage());
        assertEquals(0, checker.transactions());
    }

    @Test
    void rwRegister_refusesAnAppend() {
        IncrementalChecker checker = new IncrementalChecker(
                CheckerOptions.defaults().toBuilder().workload(Workload.RW_REGISTER).build(), new AtomTable());
        HistoryViolationException e = assertThrows(HistoryViolationException.class,
                () -> checker.accept(op(0, OpType.INVOKE, 0, new MicroOp.Write(1, 1), new MicroOp.Append(1, 2))));
        assertTrue(e.getMessage().contains("index 0: micro-op 2 is [:append 1 2], an append; an rw-register history"
                + " holds only :w and :r micro-ops (check lists with -m list-append)"), e.getMessage());
    }

    @Test
    void eachWorkload_takesItsOwnMicroOps() {
        IncrementalChecker lists = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable());
        lists.accept(op(0, OpType.INVOKE, 0, new MicroOp.Append(1, 1), unknownRead(1)));
        lists.accept(op(1, OpType.OK, 0, new MicroOp.Append(1, 1), read(1, 1)));
        IncrementalChecker registers = new IncrementalChecker(
                CheckerOptions.defaults().toBuilder().workload(Workload.RW_REGISTER).build(), new AtomTable());
        registers.accept(op(0, OpType.INVOKE, 0, new MicroOp.Write(1, 1), unknownRead(1)));
        registers.accept(op(1, OpType.OK, 0, new MicroOp.Write(1, 1), read(1, 1)));
        assertEquals(1, lists.transactions());
        assertEquals(1, registers.transactions());
    }
}

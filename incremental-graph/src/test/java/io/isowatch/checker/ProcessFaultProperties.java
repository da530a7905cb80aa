package io.isowatch.checker;

import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import io.isowatch.history.ProcessFault;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The checker refuses exactly the ops {@link ProcessFault} names, the rule the stream job's
 * stage 1 applies too, and goes on checking the rest: any sequence of invocations and
 * completions by a few processes, faults included.
 */
class ProcessFaultProperties {

    record Step(OpType type, long process) {
    }

    @Property(tries = 500)
    void checkerRefusesExactlyTheOpsTheRuleNames(@ForAll("steps") List<Step> steps) {
        IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable());
        Set<Long> pending = new HashSet<>();
        Set<Long> retired = new HashSet<>();
        long index = 0;
        for (Step s : steps) {
            ProcessFault expected = ProcessFault.of(s.type(), pending.contains(s.process()), retired.contains(s.process()));
            Op op = new Op(index, index * 1_000, s.type(), s.process(), microOps(s.type()));
            index++;
            ProcessFault refused = ProcessFault.NONE;
            try {
                checker.accept(op);
            } catch (HistoryViolationException e) {
                refused = e.getMessage().contains("invoked a new transaction while") ? ProcessFault.DOUBLE_INVOCATION
                        : e.getMessage().contains("after its :info completion") ? ProcessFault.REUSED_AFTER_INFO
                        : null;
            }
            assertEquals(expected, refused, () -> s + " after pending " + pending + ", retired " + retired);
            if (expected == ProcessFault.NONE) {
                if (s.type() == OpType.INVOKE) {
                    pending.add(s.process());
                } else {
                    pending.remove(s.process());
                    if (s.type() == OpType.INFO) {
                        retired.add(s.process());
                    }
                }
            }
        }
        checker.finish();
    }

    /** A read of key 1: nil at invocation and in fail/info, the empty list in ok. */
    private static List<MicroOp> microOps(OpType type) {
        return List.of(new MicroOp.Read(1, type == OpType.OK ? new long[0] : null));
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<OpType> types = Arbitraries.frequency(
                net.jqwik.api.Tuple.of(5, OpType.INVOKE), net.jqwik.api.Tuple.of(4, OpType.OK),
                net.jqwik.api.Tuple.of(1, OpType.FAIL), net.jqwik.api.Tuple.of(1, OpType.INFO));
        return Combinators.combine(types, Arbitraries.longs().between(0, 2)).as(Step::new).list().ofMaxSize(30);
    }

    @Test
    void theRule() {
        for (OpType completion : List.of(OpType.OK, OpType.FAIL, OpType.INFO)) {
            assertEquals(ProcessFault.NONE, ProcessFault.of(completion, true, false));
            assertEquals(ProcessFault.NONE, ProcessFault.of(completion, false, false), "completion without invocation");
            assertEquals(ProcessFault.REUSED_AFTER_INFO, ProcessFault.of(completion, false, true));
        }
        assertEquals(ProcessFault.NONE, ProcessFault.of(OpType.INVOKE, false, false));
        assertEquals(ProcessFault.DOUBLE_INVOCATION, ProcessFault.of(OpType.INVOKE, true, false));
        assertEquals(ProcessFault.REUSED_AFTER_INFO, ProcessFault.of(OpType.INVOKE, false, true));
    }
}

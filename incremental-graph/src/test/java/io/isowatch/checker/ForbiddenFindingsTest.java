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
import static org.junit.jupiter.api.Assertions.assertTrue;

/** A write skew is a finding either way; only the models that forbid it count it as forbidden, as the verdict does. */
class ForbiddenFindingsTest {

    private static IncrementalChecker checkWriteSkew(String model) {
        IncrementalChecker checker = new IncrementalChecker(
                CheckerOptions.defaults().toBuilder().consistencyModels(Set.of(ConsistencyModel.of(model)))
                        .build(), new AtomTable());
        long x = 1;
        long y = 2;
        checker.accept(new Op(0, 0, OpType.INVOKE, 1, List.of(new MicroOp.Read(x, null), new MicroOp.Append(y, 1))));
        checker.accept(new Op(1, 1, OpType.INVOKE, 2, List.of(new MicroOp.Read(y, null), new MicroOp.Append(x, 1))));
        checker.accept(new Op(2, 2, OpType.OK, 1, List.of(new MicroOp.Read(x, new long[0]), new MicroOp.Append(y, 1))));
        checker.accept(new Op(3, 3, OpType.OK, 2, List.of(new MicroOp.Read(y, new long[0]), new MicroOp.Append(x, 1))));
        // Closing reads: the appends are read, so the rw edges, and the cycle, come before finish().
        checker.accept(new Op(4, 4, OpType.INVOKE, 3, List.of(new MicroOp.Read(x, null), new MicroOp.Read(y, null))));
        checker.accept(new Op(5, 5, OpType.OK, 3, List.of(new MicroOp.Read(x, new long[] {1}), new MicroOp.Read(y, new long[] {1}))));
        return checker;
    }

    @Test
    void writeSkew_isForbiddenBySerializable_andAllowedBySnapshotIsolation() {
        IncrementalChecker serializable = checkWriteSkew("serializable");
        assertTrue(serializable.findingCount() > 0);
        assertEquals(serializable.findingCount(), serializable.forbiddenFindings());
        assertEquals(Validity.FALSE, serializable.finish().valid());

        IncrementalChecker snapshot = checkWriteSkew("snapshot-isolation");
        assertTrue(snapshot.findingCount() > 0);
        assertEquals(0, snapshot.forbiddenFindings());
        assertEquals(Validity.TRUE, snapshot.finish().valid());
    }
}

package io.isowatch.job.operators;

import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ProtocolKeysTest {

    private static Op txn(MicroOp... mops) {
        return new Op(0, 0, OpType.INVOKE, 1, List.of(mops));
    }

    @Test
    void integerKeys_comeBackFromTheStateBytes() {
        ProtocolKeys fed = new ProtocolKeys();
        fed.fed(txn(new MicroOp.Append(3, 1), new MicroOp.Read(3, new long[] {1}), new MicroOp.Append(7, 2)));
        for (long key = 100; key < 5_000; key++) {
            fed.fed(txn(new MicroOp.Write(key, 1)));
        }
        ProtocolKeys restored = new ProtocolKeys();
        restored.restore(fed.toBytes());
        assertEquals(fed.keys(), restored.keys());
        assertEquals(2 + 4_900, restored.keys().getLongCardinality());
        assertTrue(restored.keys().contains(7));
        assertFalse(restored.keys().contains(8));
        assertTrue(fed.toBytes().length < 100, "a run of keys is a few bytes: " + fed.toBytes().length);
    }

    @Test
    void aStringKey_makesTheHistoryNotResumable() {
        ProtocolKeys fed = new ProtocolKeys();
        fed.fed(txn(new MicroOp.Append(3, 1)));
        assertTrue(fed.resumable());
        long x = new AtomTable().ofString("x");
        fed.fed(txn(new MicroOp.Append(x, 1)));
        assertFalse(fed.resumable(), "a string key's code belongs to one checker's table");
    }
}

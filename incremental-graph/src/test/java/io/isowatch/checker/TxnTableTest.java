package io.isowatch.checker;

import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The transaction table's byte encoding of micro-ops gives back what was stored, for any key and value. */
class TxnTableTest {

    /** Prefix reads rebuild from this "version order": key k's order is k, k+1, k+2, ... */
    private static final TxnTable.PrefixSource ORDER = (key, length) -> {
        long[] out = new long[length];
        for (int i = 0; i < length; i++) {
            out[i] = key + i;
        }
        return out;
    };

    @Property(tries = 500)
    void storedMicroOps_readBackEqual(@ForAll("microOps") List<MicroOp> mops) {
        TxnTable table = new TxnTable();
        int id = table.invoke(new Op(0, 0, OpType.INVOKE, 3, mops));
        assertSame(mops, table.microOps(id, ORDER));
        assertTrue(table.sameWrites(id, mops));
        boolean[] prefix = new boolean[mops.size()];
        for (int i = 0; i < mops.size(); i++) {
            prefix[i] = mops.get(i) instanceof MicroOp.Read r && r.known() && isPrefix(r);
        }
        table.complete(id, new Op(1, 1, OpType.OK, 3, mops));
        table.storeMicroOps(id, mops, prefix);
        assertSame(mops, table.microOps(id, ORDER));
    }

    /**
     * Many transactions, completed in any order and some never: each reads back its own
     * micro-ops, the invocation's while pending, including encodings that cross the arena's pages.
     */
    @Property(tries = 100)
    void manyTransactions_completedInAnyOrder_readBackTheirOwn(
            @ForAll("transactions") List<List<MicroOp>> txns, @ForAll java.util.Random random) {
        TxnTable table = new TxnTable();
        List<Integer> ids = new ArrayList<>();
        for (List<MicroOp> mops : txns) {
            ids.add(table.invoke(new Op(ids.size(), 0, OpType.INVOKE, ids.size(), mops)));
        }
        List<Integer> completing = new ArrayList<>(ids);
        java.util.Collections.shuffle(completing, random);
        completing = completing.subList(0, completing.size() * 3 / 4);
        for (int id : completing) {
            List<MicroOp> mops = txns.get(id);
            table.complete(id, new Op(txns.size() + id, 1, OpType.OK, id, mops));
            table.storeMicroOps(id, mops, new boolean[mops.size()]);
        }
        for (int id : ids) {
            assertSame(txns.get(id), table.microOps(id, ORDER));
        }
    }

    @Provide
    Arbitrary<List<List<MicroOp>>> transactions() {
        Arbitrary<MicroOp> longRead = Arbitraries.longs().list().ofMinSize(300).ofMaxSize(900)
                .map(vs -> new MicroOp.Read(1, vs.stream().mapToLong(Long::longValue).toArray()));
        Arbitrary<List<MicroOp>> txn = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(9, microOps()),
                net.jqwik.api.Tuple.of(1, longRead.map(r -> List.of(r))));
        return txn.list().ofMinSize(1).ofMaxSize(120);
    }

    @Test
    void sameWrites_comparesKindKeyValueAndOrderOfWritesOnly() {
        TxnTable table = new TxnTable();
        List<MicroOp> invoked = List.of(new MicroOp.Append(-5, Long.MAX_VALUE), new MicroOp.Read(7, null),
                new MicroOp.Write(Long.MIN_VALUE, 300));
        int id = table.invoke(new Op(0, 0, OpType.INVOKE, 1, invoked));
        assertTrue(table.sameWrites(id, List.of(new MicroOp.Append(-5, Long.MAX_VALUE),
                new MicroOp.Read(7, new long[] {1, 2}), new MicroOp.Write(Long.MIN_VALUE, 300))));
        assertFalse(table.sameWrites(id, List.of(new MicroOp.Append(-5, Long.MAX_VALUE))), "a write missing");
        assertFalse(table.sameWrites(id, List.of(new MicroOp.Write(Long.MIN_VALUE, 300),
                new MicroOp.Append(-5, Long.MAX_VALUE))), "reordered");
        assertFalse(table.sameWrites(id, List.of(new MicroOp.Append(-5, Long.MAX_VALUE),
                new MicroOp.Write(Long.MIN_VALUE, 301))), "another value");
        assertFalse(table.sameWrites(id, List.of(new MicroOp.Write(-5, Long.MAX_VALUE),
                new MicroOp.Write(Long.MIN_VALUE, 300))), "another kind");
        assertFalse(table.sameWrites(id, List.of(new MicroOp.Append(-5, Long.MAX_VALUE),
                new MicroOp.Write(Long.MIN_VALUE, 300), new MicroOp.Append(1, 1))), "one more");
        assertFalse(table.sameWrites(id, List.of(new MicroOp.Read(7, new long[] {1}))), "no writes at all");
    }

    @Test
    void sameWrites_ofReadOnlyInvocations_needsAReadOnlyCompletion() {
        TxnTable table = new TxnTable();
        int readOnly = table.invoke(new Op(0, 0, OpType.INVOKE, 1, List.of(new MicroOp.Read(7, null))));
        assertTrue(table.sameWrites(readOnly, List.of(new MicroOp.Read(7, new long[] {1}))));
        assertTrue(table.sameWrites(readOnly, List.of()), "no micro-ops: no writes either");
        assertFalse(table.sameWrites(readOnly, List.of(new MicroOp.Read(7, new long[] {1}), new MicroOp.Append(7, 2))),
                "an append the invocation did not have");
        assertFalse(table.sameWrites(readOnly, List.of(new MicroOp.Write(7, 2))), "a register write");
    }

    private static boolean isPrefix(MicroOp.Read r) {
        for (int i = 0; i < r.length(); i++) {
            if (r.values()[i] != r.key() + i) {
                return false;
            }
        }
        return true;
    }

    private static void assertSame(List<MicroOp> expected, List<MicroOp> actual) {
        assertEquals(expected.size(), actual.size());
        for (int i = 0; i < expected.size(); i++) {
            MicroOp e = expected.get(i);
            MicroOp a = actual.get(i);
            assertEquals(e.getClass(), a.getClass());
            assertEquals(e.key(), a.key());
            if (e instanceof MicroOp.Read r) {
                MicroOp.Read ar = (MicroOp.Read) a;
                assertEquals(r.known(), ar.known());
                if (r.known()) {
                    assertArrayEquals(r.values(), ar.values());
                }
            } else {
                assertEquals(e, a);
            }
        }
    }

    @Provide
    Arbitrary<List<MicroOp>> microOps() {
        Arbitrary<Long> numbers = Arbitraries.oneOf(Arbitraries.longs().between(-200, 200), Arbitraries.longs(),
                Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, 63L, 64L, 127L, 128L));
        Arbitrary<MicroOp> append = Combinators.combine(numbers, numbers).as(MicroOp.Append::new);
        Arbitrary<MicroOp> write = Combinators.combine(numbers, numbers).as(MicroOp.Write::new);
        Arbitrary<MicroOp> nilRead = numbers.map(k -> new MicroOp.Read(k, null));
        Arbitrary<MicroOp> anyRead = Combinators.combine(numbers, numbers.list().ofMaxSize(6))
                .as((k, vs) -> new MicroOp.Read(k, vs.stream().mapToLong(Long::longValue).toArray()));
        Arbitrary<MicroOp> prefixRead = Combinators.combine(Arbitraries.longs().between(-1000, 1000),
                Arbitraries.integers().between(0, 5)).as((k, n) -> new MicroOp.Read(k, ORDER.prefix(k, n)));
        return Arbitraries.oneOf(append, write, nilRead, anyRead, prefixRead).list().ofMaxSize(8)
                .map(ArrayList::new);
    }
}

package io.isowatch.trace;

import io.isowatch.graph.EdgeKind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The order in which a register trace reports edges follows the order its lists were built in. */
class RegisterTraceTest {

    private static final long KEY = 7;
    private static final TxnStatus ALL_COMMITTED = new TxnStatus() {
        public boolean pending(int txn) {
            return false;
        }

        public boolean possible(int txn) {
            return false;
        }

        public boolean committed(int txn) {
            return true;
        }

        public boolean failed(int txn) {
            return false;
        }
    };

    private final RegisterTrace trace = new RegisterTrace(KEY);
    private final Recorder out = new Recorder();

    @Test
    void committedWrite_reportsWrToEveryEarlierReader_inReadOrder() {
        List<String> expected = new ArrayList<>();
        for (int reader = 40; reader > 0; reader -= 2) {
            trace.committedRead(reader, false, 5, ALL_COMMITTED, out);
            expected.add("WR 100->" + reader);
        }
        trace.claim(5, 100, false, out);
        trace.committedWrite(100, 5, ALL_COMMITTED, out);
        assertEquals(expected, out.edges);
    }

    @Test
    void retract_keepsTheOrderOfTheOtherSuccessors() {
        for (int v = 1; v <= 4; v++) {
            trace.claim(v, 10 + v, false, out);
        }
        for (int v = 2; v <= 4; v++) {
            assertArrayEquals(new long[0], trace.tryVersionEdge(false, 1, false, v));
        }
        trace.retract(1, 3);
        assertTrue(trace.precedes(false, 1, 4));
        assertFalse(trace.precedes(false, 1, 3));
        for (int v = 2; v <= 4; v++) {
            trace.committedWrite(10 + v, v, ALL_COMMITTED, out);
        }
        out.edges.clear();
        trace.committedWrite(11, 1, ALL_COMMITTED, out);
        assertEquals(List.of("WW 11->12", "WW 11->14"), out.edges);
    }

    @Test
    void tryVersionEdge_closingACycle_returnsItsVersions() {
        assertArrayEquals(new long[0], trace.tryVersionEdge(false, 1, false, 2));
        assertArrayEquals(new long[0], trace.tryVersionEdge(false, 2, false, 3));
        assertArrayEquals(new long[] {1, 2, 3}, trace.tryVersionEdge(false, 3, false, 1));
        assertNull(trace.tryVersionEdge(false, 1, false, 2));
    }

    /** Records edges as "KIND from->to"; the trace reports nothing else in these examples. */
    private static final class Recorder implements TraceListener {
        final List<String> edges = new ArrayList<>();

        public void edge(int from, int to, EdgeKind kind) {
            edges.add(kind + " " + from + "->" + to);
        }

        public void garbageRead(int reader, long key, long element) {
            throw new AssertionError("garbage read");
        }

        public void garbageReadAtCompletion(int reader, long key, long element) {
            throw new AssertionError("garbage read at completion");
        }

        public void abortedRead(int reader, long key, long element, int writer) {
            throw new AssertionError("aborted read");
        }

        public void intermediateRead(int reader, long key, long element, int writer) {
            throw new AssertionError("intermediate read");
        }

        public void duplicateElements(int reader, long key, Map<Long, Integer> counts) {
            throw new AssertionError("duplicate elements");
        }

        public void incompatibleOrder(long key, long[] shorter, long[] longer) {
            throw new AssertionError("incompatible order");
        }

        public void dirtyUpdate(long key, long[] values, int aborted, int committed) {
            throw new AssertionError("dirty update");
        }

        @Override
        public void dirtyUpdatesSuperseded(long key) {
            throw new AssertionError("dirty updates superseded");
        }

        public void cyclicVersions(long key, long[] cycle, String source) {
            throw new AssertionError("cyclic versions");
        }
    }
}

package io.isowatch.trace;

import io.isowatch.collect.IntListPool;
import io.isowatch.graph.EdgeKind;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

class ListAppendTraceTest {

    /** Every transaction has completed ok. */
    private static final TxnStatus ALL_OK = new TxnStatus() {
        @Override
        public boolean pending(int txn) {
            return false;
        }

        @Override
        public boolean possible(int txn) {
            return true;
        }

        @Override
        public boolean committed(int txn) {
            return true;
        }

        @Override
        public boolean failed(int txn) {
            return false;
        }
    };

    /** Records which readers were reported as holding duplicates. */
    private static final class Duplicates implements TraceListener {
        final List<Integer> readers = new ArrayList<>();

        @Override
        public void edge(int from, int to, EdgeKind kind) {
        }

        @Override
        public void garbageRead(int reader, long key, long element) {
        }

        @Override
        public void garbageReadAtCompletion(int reader, long key, long element) {
        }

        @Override
        public void abortedRead(int reader, long key, long element, int writer) {
        }

        @Override
        public void intermediateRead(int reader, long key, long element, int writer) {
        }

        @Override
        public void duplicateElements(int reader, long key, Map<Long, Integer> counts) {
            readers.add(reader);
        }

        @Override
        public void incompatibleOrder(long key, long[] shorter, long[] longer) {
        }

        @Override
        public void dirtyUpdate(long key, long[] values, int aborted, int committed) {
        }

        @Override
        public void dirtyUpdatesSuperseded(long key) {
        }

        @Override
        public void cyclicVersions(long key, long[] cycle, String source) {
        }
    }

    /**
     * Once two reads disagree the order stops growing; a later read that agrees with it as far
     * as it goes, and repeats an element beyond its end, still holds a duplicate.
     */
    @Test
    void readBeyondABrokenKeysOrder_withARepeatPastItsEnd_holdsDuplicates() {
        ListAppendTrace trace = new ListAppendTrace(0, new WaiterPool(), new IntListPool(), false, ReadSettling.atTheEnd());
        Duplicates out = new Duplicates();
        for (int t = 0; t < 3; t++) {
            trace.claim(t + 1, t, false, out);
        }
        trace.read(3, new long[] {1, 2}, true, ALL_OK, out);
        trace.read(4, new long[] {2}, true, ALL_OK, out); // disagrees: the order stays [1 2]
        trace.read(5, new long[] {1, 2, 3, 3}, true, ALL_OK, out);

        assertEquals(List.of(5), out.readers);
    }
}

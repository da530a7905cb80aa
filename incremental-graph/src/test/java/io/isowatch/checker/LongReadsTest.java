package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.Finding;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import io.isowatch.trace.ListAppendTrace;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.LongStream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Reads of hundreds of thousands of elements cost time and memory in proportion to their length,
 * not its square (issue 35): each would take minutes, or run out of memory, if any step were
 * quadratic (a read of 10,000 garbage elements made 10,000 findings of 10,000 elements each). The
 * time limits are far above what a linear check takes (well under a second each) and far below
 * what a quadratic one would.
 */
class LongReadsTest {

    private static final long KEY = 1;
    private static final Duration LIMIT = Duration.ofSeconds(30);

    private final AtomTable atoms = new AtomTable();
    private final IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults(), atoms);
    private long index;
    private long process;

    @Test
    void garbageRead_ofAMillionElements_reportsTheReadersFirstEight_sharingOneTransaction() {
        Verdict v = assertTimeoutPreemptively(LIMIT, () -> {
            readRange(1, 1_000_000);
            return checker.finish();
        });

        assertEquals(Validity.FALSE, v.valid(), () -> "types: " + v.anomalyTypes());
        List<Finding> garbage = v.anomalies().get(AnomalyType.GARBAGE_READ);
        assertEquals(ListAppendTrace.GARBAGE_REPORTED_PER_READER, garbage.size());
        for (int i = 0; i < garbage.size(); i++) {
            Finding.BadRead f = (Finding.BadRead) garbage.get(i);
            assertEquals(i + 1, f.element());
            assertEquals(0, f.mopIndex());
            assertTrue(((Finding.BadRead) garbage.get(0)).reader() == f.reader(), "the findings share the read");
        }
    }

    @Test
    void garbageReads_ofUpToEightElementsEach_areEveryOneReported() {
        append(1, 2);
        read(1, 2, 101, 102, 103, 104, 105, 106, 107, 108);
        read(1, 2, 201, 3, 202); // disagrees with the first: elements read outside the order

        Verdict v = checker.finish();

        List<Long> elements = v.anomalies().get(AnomalyType.GARBAGE_READ).stream()
                .map(f -> ((Finding.BadRead) f).element()).sorted().toList();
        assertEquals(List.of(3L, 101L, 102L, 103L, 104L, 105L, 106L, 107L, 108L, 201L, 202L), elements);
    }

    @Test
    void tenEqualGarbageReadsOfAHundredThousand_reportTheFirstReadersFirstEight() {
        Verdict v = assertTimeoutPreemptively(LIMIT, () -> {
            for (int r = 0; r < 10; r++) {
                readRange(1, 100_000);
            }
            return checker.finish();
        });

        // Each element is reported once, naming the read that revealed it (as before reads were capped).
        List<Finding> garbage = v.anomalies().get(AnomalyType.GARBAGE_READ);
        assertEquals(ListAppendTrace.GARBAGE_REPORTED_PER_READER, garbage.size());
        assertTrue(garbage.stream().allMatch(f -> f.txns().get(0).id() == 0), "all name the first reader");
    }

    @Test
    void readsOfAHundredThousandAppends_eachExtendingTheLast_areValid() {
        int n = 100_000;
        Verdict v = assertTimeoutPreemptively(LIMIT, () -> {
            for (int r = 1; r <= 10; r++) {
                for (long e = (long) n * (r - 1) / 10 + 1; e <= (long) n * r / 10; e++) {
                    append(e);
                }
                readRange(1, n * r / 10);
            }
            for (int r = 0; r < 10; r++) {
                readRange(1, n);
            }
            return checker.finish();
        });

        assertEquals(Validity.TRUE, v.valid(), () -> "types: " + v.anomalyTypes());
        assertEquals(n + 20, v.stats().txns());
    }

    @Test
    void aHundredThousandAbortedAppends_readInOneRead_areEachG1a_asElleReportsThem() {
        int n = 100_000;
        Verdict v = assertTimeoutPreemptively(LIMIT, () -> {
            for (long e = 1; e <= n; e++) {
                complete(OpType.FAIL, new MicroOp.Append(KEY, e));
            }
            readRange(1, n);
            return checker.finish();
        });

        assertEquals(Validity.FALSE, v.valid(), () -> "types: " + v.anomalyTypes());
        List<Finding> g1a = v.anomalies().get(AnomalyType.G1A);
        assertEquals(n, g1a.size());
        assertTrue(((Finding.BadRead) g1a.get(0)).reader().completion()
                == ((Finding.BadRead) g1a.get(n - 1)).reader().completion(), "the findings share the read");
    }

    @Test
    void longOrderOfAlternatelyAbortedAndCommittedAppends_reportsEachDirtyUpdateWithItsRunAlone() {
        int n = 100_000;
        Verdict v = assertTimeoutPreemptively(LIMIT, () -> {
            for (long e = 1; e <= n; e++) {
                complete(e % 2 == 1 ? OpType.FAIL : OpType.OK, new MicroOp.Append(KEY, e));
            }
            readRange(1, n);
            return checker.finish();
        });

        List<Finding> dirty = v.anomalies().get(AnomalyType.DIRTY_UPDATE);
        assertEquals(n / 2, dirty.size());
        Finding.DirtyUpdate last = (Finding.DirtyUpdate) dirty.get(dirty.size() - 1);
        assertEquals(List.of((long) n - 1, (long) n), LongStream.of(last.values()).boxed().toList());
    }

    @Test
    void aMillionRepeatsOfOneElement_thenThousandsOfShortReads_costTheirLengthOnly() {
        Verdict v = assertTimeoutPreemptively(LIMIT, () -> {
            append(1);
            long[] repeats = new long[1_000_000];
            Arrays.fill(repeats, 1);
            read(repeats);
            for (int r = 0; r < 10_000; r++) {
                read(1);
            }
            return checker.finish();
        });

        assertTrue(v.anomalyTypes().contains(AnomalyType.DUPLICATE_ELEMENTS), () -> "types: " + v.anomalyTypes());
        assertEquals(1, v.anomalies().get(AnomalyType.DUPLICATE_ELEMENTS).size());
    }

    /** A transaction of its own process that appends each element to the key and commits. */
    private void append(long... elements) {
        for (long e : elements) {
            complete(OpType.OK, new MicroOp.Append(KEY, e));
        }
    }

    /** A committed read of the key as [from .. to]. */
    private void readRange(long from, long to) {
        read(LongStream.rangeClosed(from, to).toArray());
    }

    /** A committed read of the key as {@code values}. */
    private void read(long... values) {
        complete(OpType.OK, new MicroOp.Read(KEY, values));
    }

    /** A transaction of its own process, invoked and completed as {@code type} with {@code mop}. */
    private void complete(OpType type, MicroOp mop) {
        MicroOp invoked = mop instanceof MicroOp.Read r ? new MicroOp.Read(r.key(), null) : mop;
        long p = process++;
        checker.accept(new Op(index, index++, OpType.INVOKE, p, List.of(invoked)));
        checker.accept(new Op(index, index++, type, p, List.of(mop)));
    }
}

package io.isowatch.checker;

import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import org.junit.jupiter.api.Test;

import java.util.List;

import static io.isowatch.checker.CheckerHistories.history;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A history cut inside a transaction: the checker told the history is truncated skips the
 * completion whose invocation was cut off, and nothing else; a checker of a whole history takes
 * it, as Elle takes a completion alone, for a transaction invoked at an unknown time.
 */
class TruncatedHistoryTest {

    /** Process 1 invokes at index 0; the cut at index 1 leaves its ok as the first event. */
    private static final List<Op> CUT_INSIDE_A_TRANSACTION = history()
            .invoke(1, "a:x:1")
            .txn(2, "r:x:")
            .ok(1, "a:x:1")
            .txn(1, "r:x:1")
            .build().subList(1, 6);

    @Test
    void truncatedChecker_skipsCompletionOfCutOffInvocation_andChecksTheRest() {
        IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable());
        checker.historyTruncated();
        CUT_INSIDE_A_TRANSACTION.forEach(checker::accept);
        Verdict v = checker.finish();

        assertEquals(1, checker.cutOffCompletions());
        assertEquals(2, checker.transactions(), "the read of process 2 and the later read of process 1");
        assertEquals(1, checker.unverifiableReads(), "x = [1] was appended by the transaction that was cut off");
        assertEquals(Validity.TRUE, v.valid(), v.anomalyTypes()::toString);
    }

    @Test
    void wholeChecker_takesTheSameCompletion_asATransactionInvokedAtAnUnknownTime() {
        IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable());
        CUT_INSIDE_A_TRANSACTION.forEach(checker::accept);
        Verdict v = checker.finish();

        assertEquals(1, checker.unseenInvocations());
        assertEquals(0, checker.cutOffCompletions());
        assertEquals(3, checker.transactions(), "the lone ok is a transaction too");
        assertEquals(0, checker.unverifiableReads());
        assertEquals(Validity.TRUE, v.valid(), v.anomalyTypes()::toString);
    }

    @Test
    void truncatedChecker_takesASecondCompletion_asAnotherTransaction_thatRepeatsTheAppend() {
        List<Op> twice = history()
                .txn(1, "a:x:1")
                .ok(1, "a:x:1")
                .build();
        IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable());
        checker.historyTruncated();
        HistoryViolationException e = assertThrows(HistoryViolationException.class,
                () -> twice.forEach(checker::accept));
        assertTrue(e.getMessage().contains("value 1 appended to key 0 more than once"), e.getMessage());
        assertEquals(0, checker.cutOffCompletions());
    }

    /**
     * F (process 0) reads 2 and writes 1, B reads 1 and writes 2, C reads 1. Writes-follow-reads
     * of the whole history is cyclic (F puts 2 before 1, B 1 before 2), so Elle drops the source
     * and infers no rw edge from C to B. Cut after F's invocation, F's completion is skipped and
     * the source looks acyclic: applying it would add C rw B, which the whole history does not
     * have. So a truncated rw-register checker assumes no source. (Fails if it keeps wfr.)
     */
    @Test
    void truncatedRegisterChecker_assumesNoVersionOrderSource_whichOnlyTheWholeHistoryCanJudge() {
        List<Op> h = RegisterHistories.history().invoke(0, "r:x:2 w:x:1").invoke(1, "r:x:1 w:x:2")
                .invoke(2, "r:x:1").ok(1, "r:x:1 w:x:2").ok(2, "r:x:1").ok(0, "r:x:2 w:x:1").build();
        CheckerOptions wfr = RegisterHistories.options(java.util.Set.of("serializable"),
                RegisterHistories.Sources.WFR.options);

        IncrementalChecker whole = new IncrementalChecker(wfr, new AtomTable());
        h.forEach(whole::accept);
        Verdict all = whole.finish();
        assertTrue(all.anomalyTypes().toString().contains("cyclic-versions"), all.anomalyTypes()::toString);
        assertEquals(null, whole.graph().pairKind(2, 1), "no C rw B in the whole history");

        IncrementalChecker cut = new IncrementalChecker(wfr, new AtomTable());
        cut.historyTruncated();
        h.subList(1, h.size()).forEach(cut::accept);
        cut.finish();
        assertEquals(1, cut.cutOffCompletions());
        assertEquals(null, cut.graph().pairKind(1, 0), "C (now 1) must not get an rw edge to B (now 0)");
    }
}

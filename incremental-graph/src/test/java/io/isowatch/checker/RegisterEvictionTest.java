package io.isowatch.checker;

import io.isowatch.history.Op;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static io.isowatch.checker.RegisterHistories.history;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Readable examples of what {@link RegisterInference#evictBelow} keeps and forgets. Each history
 * runs twice through a {@link RegisterInferenceDriver}: whole, and with the oldest transactions
 * evicted before one event. Edges are written "from kind to", each transaction named by the index
 * of its invocation.
 */
class RegisterEvictionTest {

    @Test
    void nilRead_afterEviction_isRwOnlyToRetainedWriters() {
        List<Op> h = history().txn(0, "w:x:1").txn(1, "w:x:2").txn(2, "r:x:").build();
        assertEquals(Set.of("4 rw 0", "4 rw 2"), edges(run(h, RegisterOptions.NONE, -1, 0)));
        assertEquals(Set.of("4 rw 2"), edges(run(h, RegisterOptions.NONE, 2, 1)));
    }

    @Test
    void readOfAForgottenWritersValue_hasNoWriter_andIsCountedNotReported() {
        List<Op> h = history().txn(0, "w:x:1").txn(1, "r:x:1").build();
        assertEquals(Set.of("0 wr 2"), edges(run(h, RegisterOptions.NONE, -1, 0)));
        RegisterInferenceDriver part = run(h, RegisterOptions.NONE, 2, 1);
        assertEquals(Set.of(), edges(part));
        assertEquals(List.of(), part.findings);
        assertEquals(1, part.unverifiableReads.size(), "a read whose writer is unknown, as in a truncated history");
    }

    @Test
    void valueReadBeforeItsWriterWasInvoked_staysForTheWriter() {
        List<Op> h = history().txn(0, "w:y:1").txn(1, "r:x:5").txn(2, "w:x:5").build();
        assertEquals(Set.of("4 wr 2"), edges(run(h, RegisterOptions.NONE, 4, 1)));
    }

    /**
     * The whole history names the first reader of an aborted write, which was forgotten; naming
     * the retained one instead would be a finding the whole history does not report. (Fails if
     * the trace forgets that the first reader was forgotten.)
     */
    @Test
    void abortedWrite_whoseFirstReaderWasForgotten_reportsNoOtherReader() {
        List<Op> h = history().invoke(0, "r:x:1").invoke(1, "w:x:1").invoke(2, "r:x:1")
                .ok(0, "r:x:1").ok(2, "r:x:1").fail(1).build();
        RegisterInferenceDriver whole = run(h, RegisterOptions.NONE, -1, 0);
        assertEquals(List.of("G1a [1, 0] mop 0 element 1"), descriptions(whole));
        assertEquals(List.of(), descriptions(run(h, RegisterOptions.NONE, 4, 1)));
    }

    @Test
    void duplicateWrite_ofARetainedWriter_afterEviction_namesItsInvocation() {
        List<Op> h = history().txn(0, "w:y:1").invoke(1, "w:x:1").invoke(2, "w:x:1").build();
        HistoryViolationException e = assertThrows(HistoryViolationException.class,
                () -> run(h, RegisterOptions.NONE, 3, 1));
        assertTrue(e.getMessage().contains("the one invoked at index 2"), e.getMessage());
    }

    /**
     * F is forgotten while pending, so its completion never reaches the inference. The whole
     * history's writes-follow-reads are cyclic (F: 2 then 1, B: 1 then 2), so Elle drops the
     * source and orders nothing by it. Without F's completion the source looks acyclic, and
     * applying it would give C (a reader of 1) an rw edge to B (the writer of 2) that the whole
     * history does not have: so after an eviction the assumed sources are not applied. (Fails
     * if they are kept.)
     */
    @Test
    void assumedSource_afterEviction_isNotApplied_evenWhereItLooksAcyclic() {
        List<Op> h = history().invoke(0, "r:x:2 w:x:1").invoke(1, "r:x:1 w:x:2").invoke(2, "r:x:1")
                .ok(1, "r:x:1 w:x:2").ok(2, "r:x:1").ok(0, "r:x:2 w:x:1").build();
        RegisterOptions wfr = RegisterHistories.Sources.WFR.options;
        RegisterInferenceDriver whole = run(h, wfr, -1, 0);
        assertEquals(Set.of("0 wr 1", "0 wr 2", "1 wr 0"), edges(whole));
        assertTrue(descriptions(whole).stream().anyMatch(f -> f.startsWith("cyclic-versions")), descriptions(whole)::toString);
        RegisterInferenceDriver part = run(h, wfr, 1, 1);
        assertEquals(Set.of(), edges(part));
        assertEquals(List.of(), part.findings);
    }

    @Test
    void evictBelowZero_forgetsNothing_andKeepsTheAssumedSources() {
        List<Op> h = history().invoke(0, "r:x:2 w:x:1").invoke(1, "r:x:1 w:x:2").invoke(2, "r:x:1")
                .ok(1, "r:x:1 w:x:2").ok(2, "r:x:1").ok(0, "r:x:2 w:x:1").build();
        RegisterOptions wfr = RegisterHistories.Sources.WFR.options;
        RegisterInferenceDriver whole = run(h, wfr, -1, 0);
        RegisterInferenceDriver part = run(h, wfr, 3, 0);
        assertEquals(edges(whole), edges(part));
        assertEquals(descriptions(whole), descriptions(part));
    }

    @Test
    void evictingEveryTransaction_dropsEveryTrace_andLaterOnesStartAfresh() {
        List<Op> h = history().txn(0, "w:x:1 r:y:").txn(1, "r:x:1 w:y:2").build();
        RegisterInferenceDriver driver = new RegisterInferenceDriver(RegisterHistories.Sources.ALL.options);
        h.forEach(driver::accept);
        assertEquals(Set.of(0L, 1L), driver.inference().keysHeld());
        driver.evictBelow(driver.retained());
        assertEquals(Set.of(), driver.inference().keysHeld());
        history().txn(0, "w:x:3").txn(1, "r:x:").build()
                .forEach(op -> driver.accept(new Op(op.index() + 4, op.time(), op.type(), op.process(), op.value())));
        driver.finish();
        assertEquals(Set.of("0 wr 2", "0 rw 2", "6 rw 4"), edges(driver), "the first two before the eviction");
    }

    @Test
    void evictBelow_afterSettlingBuiltAVersionGraph_isRefused() {
        List<Op> h = history().txn(0, "w:x:1").txn(1, "r:x:1 w:x:2").build();
        RegisterInferenceDriver driver = run(h, RegisterHistories.Sources.WFR.options, -1, 0);
        assertThrows(IllegalStateException.class, () -> driver.evictBelow(1));
    }

    // ---- helpers ----

    /** Runs {@code h}, evicting the {@code cut} oldest transactions before event {@code at} (never when -1), and settles. */
    private static RegisterInferenceDriver run(List<Op> h, RegisterOptions sources, int at, int cut) {
        RegisterInferenceDriver driver = new RegisterInferenceDriver(sources);
        for (int i = 0; i < h.size(); i++) {
            if (i == at) {
                driver.evictBelow(cut);
            }
            driver.accept(h.get(i));
        }
        driver.finish();
        return driver;
    }

    private static Set<String> edges(RegisterInferenceDriver driver) {
        return driver.edges.stream().map(Object::toString).collect(Collectors.toSet());
    }

    private static List<String> descriptions(RegisterInferenceDriver driver) {
        return driver.findings.stream().map(RegisterInferenceDriver::describe).toList();
    }
}

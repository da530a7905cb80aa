package io.isowatch.checker;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.history.codec.HistoryReader;
import org.junit.jupiter.api.Test;

import java.io.InputStream;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A busy history from the agent's embedded snapshot-isolation store (5,000 transactions, 8
 * clients, few keys): large components full of write skew. Elle's extension graph for PL-SI adds
 * rw edges out of any transaction with an incoming ww or wr edge, on or off the cycle, and so
 * "finds" SI cycles here; isowatch takes each rw edge only right after a ww or wr edge and stays
 * silent under snapshot isolation, as the store deserves.
 */
class BusySnapshotIsolationTest {

    private static Verdict check(Set<String> models) {
        AtomTable atoms = new AtomTable();
        IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults().toBuilder()
                .consistencyModels(ConsistencyModel.ofNames(models)).build(), atoms);
        try (InputStream in = BusySnapshotIsolationTest.class.getResourceAsStream(
                "/regressions/busy-snapshot-isolation-store.jsonl.gz");
             HistoryReader reader = HistoryReader.open("busy-snapshot-isolation-store.jsonl.gz", in, atoms)) {
            for (Op op = reader.next(); op != null; op = reader.next()) {
                checker.accept(op);
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return checker.finish();
    }

    @Test
    void snapshotIsolationStore_underSnapshotIsolation_isValid() {
        Verdict v = check(Set.of("snapshot-isolation"));
        assertEquals(Validity.TRUE, v.valid(), v.anomalyTypes().toString());
    }

    @Test
    void snapshotIsolationStore_underSerializable_showsWriteSkewButNoSnapshotViolation() {
        Verdict v = check(Set.of("serializable"));
        assertEquals(Validity.FALSE, v.valid());
        assertTrue(v.anomalyTypes().contains(AnomalyType.G2_ITEM), v.anomalyTypes().toString());
        assertFalse(v.anomalyTypes().contains(AnomalyType.PL_SI_CYCLE_EXISTS), v.anomalyTypes().toString());
        assertFalse(v.anomalyTypes().contains(AnomalyType.G_SINGLE_ITEM), v.anomalyTypes().toString());
    }
}

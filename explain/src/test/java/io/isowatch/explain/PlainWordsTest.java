package io.isowatch.explain;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Plain words agree with the lattice: what snapshot isolation allows, serializable forbids, and so on. */
class PlainWordsTest {

    @Test
    void writeSkew_snapshotIsolationAllowsIt_serializableForbidsIt() {
        PlainWords.Summary s = PlainWords.of("G2-item", List.of("snapshot-isolation", "serializable"));
        assertEquals("write skew (an anti-dependency cycle)", s.name());
        assertEquals(List.of("read-uncommitted", "read-committed", "snapshot-isolation"), s.allowedBy());
        assertEquals(List.of("repeatable-read", "serializable", "strict-serializable"), s.forbiddenBy());
        assertEquals(List.of("serializable"), s.breaks());
        assertEquals("G2-item is write skew (an anti-dependency cycle): read uncommitted, read committed and snapshot "
                + "isolation allow it; repeatable read, serializable and strict serializable forbid it. It breaks "
                + "serializable, which was checked.", s.sentence());
    }

    @Test
    void dirtyWrite_everyCommonLevelForbidsIt() {
        PlainWords.Summary s = PlainWords.of("G0", List.of());
        assertTrue(s.allowedBy().isEmpty(), s.toString());
        assertTrue(s.sentence().contains("every common level forbids it. It breaks none of the models checked."),
                s.sentence());
    }

    @Test
    void readSkewAndLostUpdate_haveTheirCommonNames_andVariantsSayWhatClosesTheCycle() {
        assertTrue(PlainWords.commonName("G-single-item").startsWith("read skew"));
        assertEquals("lost update", PlainWords.commonName("lost-update"));
        assertTrue(PlainWords.commonName("G2-item-realtime").endsWith("closed through real-time order"));
        assertTrue(PlainWords.of("lost-update", List.of()).forbiddenBy().contains("snapshot-isolation"));
    }

    @Test
    void unknownVerdictTypes_haveNoPlainWords() {
        assertNull(PlainWords.of("empty-transaction-graph", List.of("serializable")));
    }
}

package io.isowatch.anomaly;

import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Expectations come from Elle (jepsen-io/elle), not from this code: where Elle's own
 * {@code consistency_model_test.clj} states a result, the test repeats it; otherwise the expected
 * sets were worked out by hand from {@code consistency_model.clj} and {@code txn.clj}.
 */
class ConsistencyModelsTest {

    /** Elle's {@code all-anomalies}, in the order its test pins: by depth, then by name. */
    private static final List<String> ELLE_ALL_ANOMALIES = List.of(
            "G-MSR", "G-SI", "G-SIb", "G-cursor", "G-monotonic", "G-single-item", "G-update", "G0",
            "G1b", "GSIa", "PL-1-cycle-exists", "PL-2-cycle-exists", "PL-2.99-cycle-exists",
            "PL-3-cycle-exists", "PL-SI-cycle-exists", "PL-SS-cycle-exists", "cyclic-versions",
            "dirty-update", "duplicate-elements", "future-read", "incompatible-order", "internal",
            "lost-update", "predicate-read-miss", "strong-PL-1-cycle-exists", "strong-PL-2-cycle-exists",
            "strong-session-PL-1-cycle-exists", "strong-session-PL-2-cycle-exists",
            "strong-session-serializable-cycle-exists", "strong-session-snapshot-isolation-cycle-exists",
            "strong-snapshot-isolation-cycle-exists",
            "G-nonadjacent-item", "G-single-item-process", "G1a", "G1c", "write-skew",
            "G-nonadjacent-item-process", "G-single", "G-single-item-realtime", "G1", "G2-item",
            "G-nonadjacent", "G-nonadjacent-item-realtime", "GSIb",
            "G2", "GSI",
            "G0-process",
            "G1c-process",
            "G-single-process", "G1-process", "G2-item-process",
            "G-nonadjacent-process",
            "G2-process",
            "G0-realtime",
            "G1c-realtime",
            "G-single-realtime", "G1-realtime", "G2-item-realtime",
            "G-nonadjacent-realtime",
            "G2-realtime");

    // ---- models ---------------------------------------------------------------------------

    @Test
    void modelNames_elleModelGraph_holdsAliasesAndCanonicalNames() {
        Set<String> names = ConsistencyModels.modelNames();
        for (String m : List.of("read-uncommitted", "read-committed", "repeatable-read", "serializable",
                "strict-serializable", "strong-serializable", "snapshot-isolation", "PL-1", "PL-2",
                "PL-2.99", "PL-SI", "PL-3", "PL-SS", "cursor-stability", "monotonic-view",
                "consistent-view", "update-serializable", "strong-session-serializable",
                "strong-session-read-committed", "strong-read-uncommitted", "update-atomic", "1SR", "PRAM")) {
            assertTrue(names.contains(m), m);
        }
        // 36 canonical vertices in Elle's model graph plus 18 aliases.
        assertEquals(54, names.size());
        assertFalse(names.contains("ROLA"), "the newest Elle routes PSI through update-atomic");
    }

    @Test
    void canonicalModel_aliases_returnElleCanonicalNames() {
        assertEquals("PL-2", ConsistencyModels.canonicalModel("read-committed"));
        assertEquals("PL-1", ConsistencyModels.canonicalModel("read-uncommitted"));
        assertEquals("PL-3", ConsistencyModels.canonicalModel("serializable"));
        assertEquals("PL-3", ConsistencyModels.canonicalModel("conflict-serializable"));
        assertEquals("PL-SS", ConsistencyModels.canonicalModel("strict-serializable"));
        assertEquals("PL-SS", ConsistencyModels.canonicalModel("strong-serializable"));
        assertEquals("PL-2.99", ConsistencyModels.canonicalModel("repeatable-read"));
        assertEquals("strong-session-PL-2", ConsistencyModels.canonicalModel("strong-session-read-committed"));
        assertEquals("read-atomic", ConsistencyModels.canonicalModel("read-atomic"));
        assertEquals("PL-SI", ConsistencyModels.canonicalModel("PL-SI"));
    }

    @Test
    void canonicalModel_unknownName_throwsNamingValueAndKnownModels() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ConsistencyModels.canonicalModel("stricct-snappshot-isolation"));
        assertTrue(e.getMessage().contains("\"stricct-snappshot-isolation\""), e.getMessage());
        assertTrue(e.getMessage().contains("snapshot-isolation"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> ConsistencyModels.canonicalModel(null));
    }

    @Test
    void friendlyModel_canonicalNames_returnNamesEllePrints() {
        assertEquals("serializable", ConsistencyModels.friendlyModel("PL-3"));
        assertEquals("serializable", ConsistencyModels.friendlyModel("conflict-serializable"));
        // Elle's inverted alias map keeps strong-serializable for PL-SS (pinned by its tests).
        assertEquals("strong-serializable", ConsistencyModels.friendlyModel("PL-SS"));
        assertEquals("strong-serializable", ConsistencyModels.friendlyModel("strict-serializable"));
        assertEquals("read-committed", ConsistencyModels.friendlyModel("PL-2"));
        assertEquals("consistent-view", ConsistencyModels.friendlyModel("PL-2+"));
        assertEquals("strong-read-uncommitted", ConsistencyModels.friendlyModel("strong-PL-1"));
        assertEquals("read-atomic", ConsistencyModels.friendlyModel("read-atomic"));
    }

    // ---- anomaly names ---------------------------------------------------------------------

    @Test
    void anomalyNames_elleLattice_equalsElleAllAnomaliesPlusIsowatchExtras() {
        Set<String> expected = new TreeSet<>(ELLE_ALL_ANOMALIES);
        expected.addAll(List.of("garbage-read", "empty-transaction-graph", "cycle-search-timeout"));
        assertEquals(expected, ConsistencyModels.anomalyNames());
    }

    @Test
    void anomalyNames_everyAnomalyType_isKnown() {
        for (AnomalyType t : AnomalyType.values()) {
            ConsistencyModels.checkAnomalyName(t.elleName());
        }
    }

    @Test
    void checkAnomalyName_unknownName_throwsNamingValue() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ConsistencyModels.checkAnomalyName("G-single-itme"));
        assertTrue(e.getMessage().contains("\"G-single-itme\""), e.getMessage());
        assertTrue(e.getMessage().contains("G-single-item"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> ConsistencyModels.allImpliedAnomalies(List.of("G3")));
    }

    // ---- prohibitions ----------------------------------------------------------------------

    @Test
    void anomaliesProhibitedBy_readCommitted_matchesElleTestPlusGarbageRead() {
        assertEquals(Set.of("dirty-update", "G1a", "G1b", "G1c", "G1", "G0", "PL-1-cycle-exists",
                        "PL-2-cycle-exists", "cyclic-versions", "duplicate-elements", "incompatible-order",
                        "future-read", "garbage-read"),
                ConsistencyModels.anomaliesProhibitedBy(List.of("read-committed")));
    }

    @Test
    void anomaliesProhibitedBy_readCommitted_allowsAntiDependencyCycles() {
        SortedSet<String> rc = ConsistencyModels.anomaliesProhibitedBy(List.of("read-committed"));
        for (String a : List.of("G-single-item", "G2-item", "G-nonadjacent-item", "lost-update", "internal")) {
            assertFalse(rc.contains(a), a);
        }
    }

    @Test
    void anomaliesProhibitedBy_serializable_prohibitsDataCyclesButNoVariants() {
        SortedSet<String> ser = ConsistencyModels.anomaliesProhibitedBy(List.of("serializable"));
        for (String a : List.of("G0", "G1a", "G1b", "G1c", "G-single-item", "G-nonadjacent-item",
                "G2-item", "G2", "lost-update", "internal", "garbage-read")) {
            assertTrue(ser.contains(a), a);
        }
        assertTrue(ser.stream().noneMatch(a -> a.endsWith("-process") || a.endsWith("-realtime")), ser::toString);
    }

    @Test
    void anomaliesProhibitedBy_snapshotIsolation_allowsG2ItemOnly() {
        SortedSet<String> si = ConsistencyModels.anomaliesProhibitedBy(List.of("snapshot-isolation"));
        assertFalse(si.contains("G2-item"));
        assertFalse(si.contains("G2"));
        // SI rules out G-nonadjacent (Elle, after Cerone and Gotsman), hence both item forms.
        assertTrue(si.contains("G-single-item"));
        assertTrue(si.contains("G-nonadjacent-item"));
        // ... and lost update, through cursor stability.
        assertTrue(si.contains("lost-update"));
    }

    @Test
    void anomaliesProhibitedBy_strictSerializable_prohibitsEveryEmittedCycleVariant() {
        SortedSet<String> ss = ConsistencyModels.anomaliesProhibitedBy(List.of("strict-serializable"));
        for (AnomalyType t : AnomalyType.values()) {
            if (t.isCycle()) {
                assertTrue(ss.contains(t.elleName()), t.elleName());
            }
        }
        assertEquals(ss, ConsistencyModels.anomaliesProhibitedBy(List.of("PL-SS")));
    }

    @Test
    void anomaliesProhibitedBy_strongSessionSerializable_prohibitsProcessNotRealtime() {
        SortedSet<String> sss = ConsistencyModels.anomaliesProhibitedBy(List.of("strong-session-serializable"));
        for (String a : List.of("G0-process", "G1c-process", "G-single-item-process", "G2-item-process")) {
            assertTrue(sss.contains(a), a);
        }
        for (String a : List.of("G0-realtime", "G1c-realtime", "G2-item-realtime")) {
            assertFalse(sss.contains(a), a);
        }
    }

    @Test
    void anomaliesProhibitedBy_noModels_isEmptyAndUnknownModelThrows() {
        assertEquals(Set.of(), ConsistencyModels.anomaliesProhibitedBy(List.of()));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ConsistencyModels.anomaliesProhibitedBy(List.of("stricct-snappshot-isolation")));
        assertTrue(e.getMessage().contains("stricct-snappshot-isolation"));
    }

    @Test
    void anomaliesProhibitedBy_result_isImmutable() {
        SortedSet<String> rc = ConsistencyModels.anomaliesProhibitedBy(List.of("read-committed"));
        assertThrows(UnsupportedOperationException.class, () -> rc.add("G2"));
    }

    // ---- implication closures --------------------------------------------------------------

    @Test
    void allImpliedAnomalies_gSi_isItself() {
        assertEquals(Set.of("G-SI"), ConsistencyModels.allImpliedAnomalies(List.of("G-SI")));
    }

    @Test
    void allImpliedAnomalies_g0_addsG1AndProcessAndRealtimeForms() {
        assertEquals(Set.of("G0", "G1c", "G1", "G0-process", "G1c-process", "G1-process",
                        "G0-realtime", "G1c-realtime", "G1-realtime"),
                ConsistencyModels.allImpliedAnomalies(List.of("G0")));
    }

    @Test
    void allImpliedAnomalies_garbageRead_doesNotClaimG1a() {
        assertEquals(Set.of("garbage-read"), ConsistencyModels.allImpliedAnomalies(List.of("garbage-read")));
    }

    @Test
    void allAnomaliesImplying_g1_isG1aG1bG1cAndWhatImpliesThem() {
        assertEquals(Set.of("G1", "G1a", "G1b", "G1c", "G0", "future-read", "dirty-update", "incompatible-order"),
                ConsistencyModels.allAnomaliesImplying(List.of("G1")));
        assertEquals(Set.of(), ConsistencyModels.allAnomaliesImplying(List.of()));
    }

    @Test
    void prohibitedAnomalyTypes_noModels_onlyExtrasAndWhatImpliesThem() {
        assertEquals(Set.of("G1c", "G0", "future-read"),
                ConsistencyModels.prohibitedAnomalyTypes(List.of(), List.of("G1c")));
        assertEquals(Set.of("G1a", "dirty-update", "incompatible-order", "garbage-read"),
                ConsistencyModels.prohibitedAnomalyTypes(List.of(), List.of("G1a")));
        assertEquals(Set.of(), ConsistencyModels.prohibitedAnomalyTypes(List.of(), List.of()));
    }

    @Test
    void prohibitedAnomalyTypes_modelsAndExtras_unionBoth() {
        SortedSet<String> p = ConsistencyModels.prohibitedAnomalyTypes(List.of("read-committed"), List.of("G2-item"));
        assertTrue(p.containsAll(ConsistencyModels.anomaliesProhibitedBy(List.of("read-committed"))));
        assertTrue(p.containsAll(Set.of("G2-item", "G-nonadjacent-item", "G-single-item", "lost-update")));
        assertFalse(p.contains("G2"));
    }

    @Test
    void reportableAnomalyTypes_anyOptions_addUnknownTypes() {
        assertEquals(Set.of("empty-transaction-graph", "cycle-search-timeout"),
                ConsistencyModels.reportableAnomalyTypes(List.of(), List.of()));
        SortedSet<String> r = ConsistencyModels.reportableAnomalyTypes(List.of("serializable"), List.of());
        assertTrue(r.containsAll(ConsistencyModels.prohibitedAnomalyTypes(List.of("serializable"), List.of())));
        assertTrue(r.contains("cycle-search-timeout"));
    }

    // ---- impossible models and boundaries --------------------------------------------------

    @Test
    void impossibleModels_elleTestCases_matchAfterFriendlyNames() {
        assertEquals(Set.of("consistent-view", "forward-consistent-view", "strong-serializable", "serializable",
                        "snapshot-isolation", "strong-session-serializable", "strong-session-snapshot-isolation",
                        "strong-snapshot-isolation", "update-serializable"),
                friendly(ConsistencyModels.impossibleModels(List.of("G-single"))));
        assertEquals(Set.of("snapshot-isolation", "serializable", "strong-serializable",
                        "strong-session-serializable", "strong-session-snapshot-isolation", "strong-snapshot-isolation"),
                friendly(ConsistencyModels.impossibleModels(List.of("G-SI"))));
        assertEquals(Set.of("causal-cerone", "parallel-snapshot-isolation", "prefix", "read-atomic", "update-atomic",
                        "serializable", "snapshot-isolation", "strong-serializable", "strong-session-serializable",
                        "strong-session-snapshot-isolation", "strong-snapshot-isolation"),
                friendly(ConsistencyModels.impossibleModels(List.of("internal"))));
    }

    @Test
    void impossibleModels_dirtyUpdate_matchesElleTest() {
        assertEquals(Set.of("read-committed", "monotonic-atomic-view", "snapshot-isolation", "repeatable-read",
                        "update-atomic", "serializable", "strong-serializable", "update-serializable",
                        "cursor-stability", "forward-consistent-view", "consistent-view", "monotonic-view",
                        "monotonic-snapshot-read", "causal-cerone", "parallel-snapshot-isolation", "prefix",
                        "read-atomic", "strong-session-read-committed", "strong-session-serializable",
                        "strong-session-snapshot-isolation", "strong-read-committed", "strong-snapshot-isolation"),
                friendly(ConsistencyModels.impossibleModels(List.of("dirty-update"))));
    }

    @Test
    void impossibleModels_garbageRead_sameAsG1a() {
        assertEquals(ConsistencyModels.impossibleModels(List.of("G1a")),
                ConsistencyModels.impossibleModels(List.of("garbage-read")));
        assertEquals(Set.of(), ConsistencyModels.impossibleModels(List.of("cycle-search-timeout")));
    }

    @Test
    void friendlyBoundary_noAnomalies_isEmpty() {
        Boundary b = ConsistencyModels.friendlyBoundary(List.of());
        assertEquals(Set.of(), b.not());
        assertEquals(Set.of(), b.alsoNot());
        assertTrue(b.isEmpty());
    }

    @Test
    void friendlyBoundary_cyclicVersions_matchesElleTest() {
        Boundary b = ConsistencyModels.friendlyBoundary(List.of("cyclic-versions"));
        assertEquals(Set.of("read-uncommitted"), b.not());
        assertEquals(Set.of("read-committed", "snapshot-isolation", "causal-cerone", "consistent-view",
                "cursor-stability", "forward-consistent-view", "monotonic-atomic-view", "monotonic-snapshot-read",
                "monotonic-view", "parallel-snapshot-isolation", "prefix", "read-atomic", "repeatable-read",
                "update-atomic", "serializable", "strong-read-committed", "strong-read-uncommitted",
                "strong-serializable", "strong-session-read-committed", "strong-session-read-uncommitted",
                "strong-session-serializable", "strong-session-snapshot-isolation", "strong-snapshot-isolation",
                "update-serializable"), b.alsoNot());
    }

    @Test
    void friendlyBoundary_internal_matchesElleTest() {
        Set<String> alsoNot = Set.of("causal-cerone", "parallel-snapshot-isolation", "prefix", "update-atomic",
                "serializable", "snapshot-isolation", "strong-serializable", "strong-session-serializable",
                "strong-session-snapshot-isolation", "strong-snapshot-isolation");
        assertEquals(new Boundary(new TreeSet<>(Set.of("read-atomic")), new TreeSet<>(alsoNot)),
                ConsistencyModels.friendlyBoundary(List.of("internal")));
        assertEquals(new Boundary(new TreeSet<>(Set.of("read-atomic")), new TreeSet<>(alsoNot)),
                ConsistencyModels.friendlyBoundary(List.of("G2", "internal")));
    }

    @Test
    void friendlyBoundary_g1a_matchesElleTest() {
        Boundary b = ConsistencyModels.friendlyBoundary(List.of("G1a"));
        assertEquals(Set.of("read-committed"), b.not());
        assertEquals(Set.of("read-atomic", "update-atomic", "causal-cerone", "consistent-view", "cursor-stability",
                "forward-consistent-view", "monotonic-atomic-view", "monotonic-snapshot-read", "monotonic-view",
                "parallel-snapshot-isolation", "prefix", "repeatable-read", "serializable", "snapshot-isolation",
                "strong-read-committed", "strong-snapshot-isolation", "strong-serializable",
                "strong-session-read-committed", "strong-session-serializable", "strong-session-snapshot-isolation",
                "update-serializable"), b.alsoNot());
        assertEquals(b, ConsistencyModels.friendlyBoundary(List.of("garbage-read")));
    }

    @Test
    void friendlyBoundary_gSingleAndLostUpdateAndRealtime_matchElleTest() {
        Boundary single = ConsistencyModels.friendlyBoundary(List.of("G-single"));
        assertEquals(Set.of("consistent-view"), single.not());
        assertEquals(Set.of("snapshot-isolation", "serializable", "strong-serializable",
                "strong-session-snapshot-isolation", "strong-snapshot-isolation", "strong-session-serializable",
                "forward-consistent-view", "update-serializable"), single.alsoNot());
        assertEquals(Set.of("update-atomic", "cursor-stability"),
                ConsistencyModels.friendlyBoundary(List.of("lost-update")).not());
        Boundary rt = ConsistencyModels.friendlyBoundary(List.of("G-single-realtime"));
        assertEquals(Set.of("strong-snapshot-isolation"), rt.not());
        assertEquals(Set.of("strong-serializable"), rt.alsoNot());
    }

    @Test
    void friendlyBoundary_g2Item_notRepeatableReadRatherThanSerializable() {
        Boundary b = ConsistencyModels.friendlyBoundary(List.of("G2-item"));
        assertEquals(Set.of("repeatable-read"), b.not());
        assertEquals(Set.of("serializable", "strong-serializable", "strong-session-serializable"), b.alsoNot());
    }

    @Test
    void friendlyBoundary_gSingleItem_twoWeakestModelsAndSnapshotIsolationAlsoNot() {
        Boundary b = ConsistencyModels.friendlyBoundary(List.of("G-single-item"));
        assertEquals(Set.of("consistent-view", "repeatable-read"), b.not());
        assertEquals(Set.of("forward-consistent-view", "update-serializable", "serializable", "snapshot-isolation",
                "strong-session-snapshot-isolation", "strong-snapshot-isolation", "strong-session-serializable",
                "strong-serializable"), b.alsoNot());
    }

    @Test
    void boundary_modelInBothSets_throws() {
        assertThrows(IllegalArgumentException.class,
                () -> new Boundary(new TreeSet<>(Set.of("serializable")), new TreeSet<>(Set.of("serializable"))));
    }

    // ---- search order and graphs -----------------------------------------------------------

    @Test
    void anomalyDepthCompare_shuffledElleAnomalies_sortIntoElleOrder() {
        List<String> shuffled = new ArrayList<>(ELLE_ALL_ANOMALIES);
        Collections.shuffle(shuffled, new Random(42));
        shuffled.sort(ConsistencyModels::anomalyDepthCompare);
        assertEquals(ELLE_ALL_ANOMALIES, shuffled);
        assertTrue(ConsistencyModels.anomalyDepthCompare("garbage-read", "G-MSR") < 0);
    }

    @Test
    void cycleSearchOrder_emittedCycleTypes_followElleDepthOrder() {
        assertEquals(List.of("G-single-item", "G0",
                        "G-nonadjacent-item", "G-single-item-process", "G1c",
                        "G-nonadjacent-item-process", "G-single-item-realtime", "G2-item",
                        "G-nonadjacent-item-realtime",
                        "G0-process", "G1c-process", "G2-item-process",
                        "G0-realtime", "G1c-realtime", "G2-item-realtime"),
                ConsistencyModels.cycleSearchOrder());
    }

    @Test
    void realtimeNeeded_strictSerializable_realtimeGraphOnly() {
        Set<String> r = ConsistencyModels.reportableAnomalyTypes(List.of("strict-serializable"), List.of());
        assertTrue(ConsistencyModels.realtimeNeeded(r));
        assertFalse(ConsistencyModels.processNeeded(r));
    }

    @Test
    void processNeeded_strongSessionSerializable_processGraphOnly() {
        Set<String> r = ConsistencyModels.reportableAnomalyTypes(List.of("strong-session-serializable"), List.of());
        assertFalse(ConsistencyModels.realtimeNeeded(r));
        assertTrue(ConsistencyModels.processNeeded(r));
        Set<String> ser = ConsistencyModels.reportableAnomalyTypes(List.of("serializable"), List.of());
        assertFalse(ConsistencyModels.realtimeNeeded(ser));
        assertFalse(ConsistencyModels.processNeeded(ser));
    }

    @Test
    void realtimeNeeded_elleCycleTypesOnly_countTowardGraphs() {
        // G2-realtime is one of Elle's cycle types (a predicate one); G1-process is not a cycle type.
        assertTrue(ConsistencyModels.realtimeNeeded(Set.of("G2-realtime")));
        assertFalse(ConsistencyModels.processNeeded(Set.of("G1-process")));
        assertThrows(IllegalArgumentException.class, () -> ConsistencyModels.realtimeNeeded(Set.of("G0-realtme")));
    }

    private static Set<String> friendly(Set<String> canonicalModels) {
        Set<String> out = new TreeSet<>();
        canonicalModels.forEach(m -> out.add(ConsistencyModels.friendlyModel(m)));
        return out;
    }
}

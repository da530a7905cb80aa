package io.isowatch.checker;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.anomaly.ConsistencyModels;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import java.util.List;
import java.util.Set;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every cycle type a component of the final graph holds is among the incremental checker's
 * findings, on dense histories ({@link DenseHistories}) where one component holds several types.
 *
 * <p>The reference searches each component of Elle's graph ({@link BatchReference#graphOf}) once
 * per cycle type, as Elle's {@code cycle-cases-in-scc} does, but without Elle's shortcuts: a type
 * is there when some simple cycle of the component is explained as that type, pair by pair, in
 * Elle's explainer order. The checker must have streamed a finding of each such type, whatever it
 * found first in that component: Elle leaves out a type implied by one its own search found, but
 * that search can miss the implying type, and then Elle reports the implied one
 * (docs/elle-compatibility.md, "Cycle search"). The verdict is not what is checked here: it
 * follows Elle's reporting rule, and {@link CheckerProperties} compares it with Elle's.
 */
class CycleTypeProperties {

    @Provide
    Arbitrary<String> models() {
        return Arbitraries.of("serializable", "strict-serializable", "strong-session-serializable");
    }

    @Property(tries = 250, seed = "20261205")
    void denseHistory_everyCycleTypeOfEveryComponent_isAFinding(
            @ForAll long seed, @ForAll @IntRange(min = 6, max = 22) int txns,
            @ForAll @IntRange(min = 1, max = 3) int keys, @ForAll @IntRange(min = 2, max = 6) int processes,
            @ForAll("models") String model) {
        List<Op> history = DenseHistories.generate(seed, txns, keys, processes, 0.3, 0.05);
        Set<String> models = Set.of(model);
        Set<String> expected = typesInComponents(BatchReference.graphOf(history, models));
        Assume.that(expected != null);
        Set<String> found = new TreeSet<>();
        IncrementalChecker checker = new IncrementalChecker(
                CheckerOptions.defaults().toBuilder().consistencyModels(ConsistencyModel.ofNames(models)).build(),
                new AtomTable(),
                f -> found.add(f.type().elleName()));
        history.forEach(checker::accept);
        checker.finish();
        Set<String> missed = new TreeSet<>(expected);
        missed.removeAll(found);
        assertTrue(missed.isEmpty(), "types in components " + expected + ", findings " + found + ", missed "
                + missed + " under " + model + " in\n" + CheckerHistories.jsonLines(history));
    }

    /**
     * For each component, each cycle type in Elle's search order that some simple cycle of the
     * component is explained as; null when a component has more cycles than the reference lists.
     */
    static Set<String> typesInComponents(BatchCycles.Graph graph) {
        Set<String> out = new TreeSet<>();
        for (List<Integer> scc : BatchCycles.components(graph)) {
            List<List<Integer>> cycles = BatchCycles.simpleCycles(graph, scc);
            if (cycles == null) {
                return null;
            }
            for (String type : ConsistencyModels.cycleSearchOrder()) {
                for (List<Integer> cycle : cycles) {
                    if (BatchElleSearch.explainedType(graph, cycle, BatchElleSearch.LIST_APPEND_ORDER).equals(type)) {
                        out.add(type);
                        break;
                    }
                }
            }
        }
        return out;
    }
}

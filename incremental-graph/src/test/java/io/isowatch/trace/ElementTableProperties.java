package io.isowatch.trace;

import io.isowatch.collect.LongIntMap;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link ElementTable} reads back what one map per column would, and visits writers in the order
 * of a {@link LongIntMap} given the claims alone (the order traces relied on before the table).
 */
class ElementTableProperties {

    /** One step: claim (column {@link ElementTable#WRITER}) or set another column. */
    record Step(long element, int column, int value, boolean intermediate) {
    }

    @Property(tries = 1_000)
    void anySteps_readBackAsOneMapPerColumn(@ForAll("steps") List<Step> steps) {
        ElementTable table = new ElementTable();
        List<Map<Long, Integer>> columns = List.of(new HashMap<>(), new HashMap<>(), new HashMap<>(), new HashMap<>());
        Set<Long> intermediate = new HashSet<>();
        LongIntMap claimOrder = new LongIntMap();
        Set<Long> touched = new HashSet<>();
        for (Step s : steps) {
            touched.add(s.element());
            if (s.column() == ElementTable.WRITER) {
                if (columns.get(ElementTable.WRITER).containsKey(s.element())) {
                    continue; // a trace claims an element once
                }
                table.claim(s.element(), s.value(), s.intermediate());
                claimOrder.put(s.element(), s.value());
                if (s.intermediate()) {
                    intermediate.add(s.element());
                }
            } else {
                table.set(s.element(), s.column(), s.value());
            }
            columns.get(s.column()).put(s.element(), s.value());
            for (long e : touched) {
                for (int c = 0; c < columns.size(); c++) {
                    assertEquals(columns.get(c).getOrDefault(e, LongIntMap.MISSING), table.get(e, c),
                            "element " + e + " column " + c);
                }
                assertEquals(intermediate.contains(e), table.intermediate(e), "intermediate " + e);
            }
        }
        List<long[]> expected = new ArrayList<>();
        claimOrder.forEach((e, w) -> expected.add(new long[] {e, w}));
        List<long[]> visited = new ArrayList<>();
        table.forEachWriter((e, w) -> visited.add(new long[] {e, w}));
        assertEquals(expected.size(), visited.size());
        for (int i = 0; i < expected.size(); i++) {
            assertEquals(expected.get(i)[0], visited.get(i)[0], "element visited at " + i);
            assertEquals(expected.get(i)[1], visited.get(i)[1], "writer visited at " + i);
        }
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        // Dense runs (as histories number elements), a far cluster, zero and extremes: the
        // claim map then uses both its window and its hash table.
        Arbitrary<Long> elements = Arbitraries.oneOf(
                Arbitraries.longs().between(0, 40),
                Arbitraries.longs().between(1_000_000, 1_000_004),
                Arbitraries.of(Long.MIN_VALUE, Long.MAX_VALUE, -1L));
        Arbitrary<Integer> values = Arbitraries.oneOf(
                Arbitraries.integers().between(-1, 50),
                Arbitraries.of(Integer.MAX_VALUE, Integer.MIN_VALUE + 1));
        return Combinators.combine(elements, Arbitraries.integers().between(0, 3), values, Arbitraries.of(true, false))
                .as(Step::new)
                .list().ofMaxSize(80);
    }
}

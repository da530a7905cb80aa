package io.isowatch.collect;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link LongIntMap} behaves as a {@code HashMap<Long, Integer>} for any sequence of puts and
 * lookups, whether keys come in runs (the dense window), scattered (the hash table), both at once,
 * or at the ends of the long range; and {@link LongIntMap#forEach} visits each entry once.
 */
class LongIntMapProperties {

    /** A put ({@code value} set) or a lookup of {@code key}. */
    record Step(long key, Integer value) {
    }

    @Property(tries = 1_000)
    void anySteps_sameAnswersAsAHashMap(@ForAll("steps") List<Step> steps) {
        LongIntMap map = new LongIntMap();
        Map<Long, Integer> reference = new HashMap<>();
        for (Step s : steps) {
            if (s.value() != null) {
                Integer before = reference.put(s.key(), s.value());
                assertEquals(before == null ? LongIntMap.MISSING : before, map.put(s.key(), s.value()), s::toString);
            } else {
                Integer expected = reference.get(s.key());
                assertEquals(expected == null ? LongIntMap.MISSING : expected, map.get(s.key()), s::toString);
                assertEquals(expected != null, map.containsKey(s.key()));
            }
            assertEquals(reference.size(), map.size());
        }
        Map<Long, Integer> visited = new HashMap<>();
        map.forEach((k, v) -> assertNull(visited.put(k, v), () -> "visited twice: " + k));
        assertEquals(reference, visited);
        map.clear();
        assertEquals(0, map.size());
        for (Long k : reference.keySet()) {
            assertEquals(LongIntMap.MISSING, map.get(k));
        }
    }

    @Test
    void aRunOfKeys_andOutliersOnBothSides_allFound() {
        LongIntMap map = new LongIntMap();
        for (long k = 1_000; k < 101_000; k++) {
            map.put(k, (int) k);
        }
        long[] outliers = {0, -1, Long.MIN_VALUE, Long.MAX_VALUE, 999, 101_000, 5_000_000, -5_000_000};
        for (long o : outliers) {
            map.put(o, 7);
        }
        for (long k = 1_000; k < 101_000; k++) {
            assertEquals((int) k, map.get(k));
        }
        for (long o : outliers) {
            assertEquals(7, map.get(o), () -> "outlier " + o);
        }
        assertEquals(100_000 + outliers.length, map.size());
        // Filling the gap between the run and a scattered key moves it into the window.
        for (long k = 101_001; k < 400_000; k++) {
            map.put(k, 1);
        }
        assertEquals(7, map.get(101_000));
        assertEquals(1, map.get(399_999));
    }

    @Test
    void missing_cannotBeStored() {
        assertThrows(IllegalArgumentException.class, () -> new LongIntMap().put(1, LongIntMap.MISSING));
        LongIntMap map = new LongIntMap();
        map.put(Long.MAX_VALUE, 3);
        assertTrue(map.containsKey(Long.MAX_VALUE));
        assertEquals(LongIntMap.MISSING, map.get(Long.MIN_VALUE));
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<Long> run = Arbitraries.longs().between(-40, 400);
        Arbitrary<Long> scattered = Arbitraries.longs();
        Arbitrary<Long> edges = Arbitraries.of(Long.MIN_VALUE, Long.MIN_VALUE + 1, Long.MAX_VALUE, Long.MAX_VALUE - 1,
                Long.MAX_VALUE - 8, 0L, -1L, 1L);
        Arbitrary<Long> strided = Arbitraries.integers().between(0, 200).map(i -> 7_000L + 64L * i);
        Arbitrary<Long> keys = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, run), net.jqwik.api.Tuple.of(2, scattered),
                net.jqwik.api.Tuple.of(1, edges), net.jqwik.api.Tuple.of(2, strided));
        Arbitrary<Integer> values = Arbitraries.integers().filter(v -> v != LongIntMap.MISSING).injectNull(0.4);
        return Combinators.combine(keys, values).as(Step::new).list().ofMaxSize(400);
    }
}

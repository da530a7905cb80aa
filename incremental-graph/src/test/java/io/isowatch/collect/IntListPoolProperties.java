package io.isowatch.collect;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Lists in an {@link IntListPool} behave as {@code List<Integer>}s for any interleaving of adds,
 * removals of a last occurrence and lookups over many lists at once: each keeps its own elements
 * in insertion order while blocks grow, shrink, move and are reused by the others.
 */
class IntListPoolProperties {

    private static final int LISTS = 12;

    enum Kind { ADD, REMOVE_LAST, CONTAINS }

    record Step(Kind kind, int list, int value) {
    }

    @Property(tries = 1_000)
    void anySteps_sameListsAsTheModel(@ForAll("steps") List<Step> steps) {
        IntListPool pool = new IntListPool();
        int[] heads = new int[LISTS];
        List<List<Integer>> model = new ArrayList<>();
        for (int i = 0; i < LISTS; i++) {
            model.add(new ArrayList<>());
        }
        for (Step s : steps) {
            List<Integer> expected = model.get(s.list());
            switch (s.kind()) {
                case ADD -> {
                    expected.add(s.value());
                    heads[s.list()] = pool.add(heads[s.list()], s.value());
                }
                case REMOVE_LAST -> {
                    int at = expected.lastIndexOf(s.value());
                    if (at >= 0) {
                        expected.remove(at);
                    }
                    heads[s.list()] = pool.removeLast(heads[s.list()], s.value());
                }
                case CONTAINS -> assertEquals(expected.contains(s.value()), pool.contains(heads[s.list()], s.value()),
                        s::toString);
            }
            assertEquals(expected, elements(pool, heads[s.list()]), s::toString);
        }
        for (int i = 0; i < LISTS; i++) {
            assertEquals(model.get(i), elements(pool, heads[i]), "list " + i);
            assertEquals(model.get(i).isEmpty(), heads[i] == IntListPool.EMPTY, "list " + i);
        }
    }

    @Test
    void negativeElements_andIndicesOutOfRange_rejected() {
        IntListPool pool = new IntListPool();
        assertThrows(IllegalArgumentException.class, () -> pool.add(IntListPool.EMPTY, -1));
        int one = pool.add(IntListPool.EMPTY, 0);
        assertEquals(0, pool.get(one, 0));
        assertThrows(IndexOutOfBoundsException.class, () -> pool.get(one, 1));
        assertThrows(IndexOutOfBoundsException.class, () -> pool.get(IntListPool.EMPTY, 0));
        int three = pool.add(pool.add(one, 5), 6);
        assertThrows(IndexOutOfBoundsException.class, () -> pool.get(three, 3));
        assertThrows(IndexOutOfBoundsException.class, () -> pool.get(three, -1));
    }

    private static List<Integer> elements(IntListPool pool, int head) {
        List<Integer> out = new ArrayList<>();
        for (int i = 0; i < pool.size(head); i++) {
            out.add(pool.get(head, i));
        }
        return out;
    }

    @Provide
    Arbitrary<List<Step>> steps() {
        Arbitrary<Kind> kinds = Arbitraries.frequency(
                Tuple.of(6, Kind.ADD), Tuple.of(3, Kind.REMOVE_LAST), Tuple.of(2, Kind.CONTAINS));
        // Few lists take most steps, so that some grow through several block sizes.
        Arbitrary<Integer> lists = Arbitraries.frequencyOf(
                Tuple.of(5, Arbitraries.integers().between(0, 2)), Tuple.of(3, Arbitraries.integers().between(0, LISTS - 1)));
        // Small values repeat, so removals find them (often more than once); large ones test the range.
        Arbitrary<Integer> values = Arbitraries.frequencyOf(
                Tuple.of(8, Arbitraries.integers().between(0, 6)),
                Tuple.of(1, Arbitraries.integers().between(0, Integer.MAX_VALUE)),
                Tuple.of(1, Arbitraries.of(0, Integer.MAX_VALUE)));
        return Combinators.combine(kinds, lists, values).as(Step::new).list().ofMaxSize(600);
    }
}

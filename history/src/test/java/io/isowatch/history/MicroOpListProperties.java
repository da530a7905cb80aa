package io.isowatch.history;

import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The facts an op's micro-op list carries against the same facts found by brute force, and the
 * list against the immutable list it replaced.
 */
class MicroOpListProperties {

    @Property(tries = 2000, seed = "20261127")
    void facts_areThoseOfTheSteps(@ForAll long seed) {
        Random random = new Random(seed);
        List<MicroOp> steps = randomSteps(random);
        MicroOpList list = MicroOpList.of(steps);
        String shown = steps.toString();

        assertEquals(steps.stream().anyMatch(m -> m instanceof MicroOp.Append), MicroOpList.hasAppend(list), shown);
        assertEquals(steps.stream().anyMatch(m -> m instanceof MicroOp.Write), MicroOpList.hasWrite(list), shown);
        assertEquals(steps.stream().anyMatch(m -> !(m instanceof MicroOp.Read)), MicroOpList.writes(list), shown);
        assertEquals(steps.stream().anyMatch(m -> m instanceof MicroOp.Read r && !r.known()),
                MicroOpList.hasUnknownRead(list), shown);
        boolean repeats = steps.stream().map(MicroOp::key).distinct().count() < steps.size();
        if (repeats) {
            assertTrue(MicroOpList.mayRepeatKey(list), "a repeated key must never be missed: " + shown);
        } else if (steps.size() <= 16) {
            assertFalse(MicroOpList.mayRepeatKey(list), "distinct keys, short enough to look: " + shown);
        }
        // A list of another class gets the same answers.
        assertEquals(MicroOpList.mayRepeatKey(list), MicroOpList.mayRepeatKey(new ArrayList<>(steps)), shown);
    }

    @Property(tries = 500, seed = "20261128")
    void list_isTheImmutableListOfTheSteps(@ForAll long seed) {
        List<MicroOp> steps = randomSteps(new Random(seed));
        MicroOpList list = MicroOpList.of(steps);
        List<MicroOp> reference = List.copyOf(steps);
        assertEquals(reference, list);
        assertEquals(list, reference);
        assertEquals(reference.hashCode(), list.hashCode());
        assertEquals(reference.toString(), list.toString());
        assertSame(list, MicroOpList.of(list));
        // The reader's way: the first steps of a longer scratch array.
        MicroOp[] scratch = Arrays.copyOf(steps.toArray(new MicroOp[0]), steps.size() + 3);
        MicroOpList read = MicroOpList.copyOf(scratch, steps.size());
        assertEquals(list, read);
        assertEquals(MicroOpList.mayRepeatKey(list), MicroOpList.mayRepeatKey(read));
        assertEquals(MicroOpList.hasUnknownRead(list), MicroOpList.hasUnknownRead(read));
        scratch[0] = new MicroOp.Append(99, 99);
        assertEquals(reference, read, "a copy, not a view of the scratch array");
        assertThrows(UnsupportedOperationException.class, () -> list.add(new MicroOp.Append(1, 1)));
        if (!list.isEmpty()) {
            assertThrows(UnsupportedOperationException.class, () -> list.set(0, new MicroOp.Append(1, 1)));
        }
    }

    @Example
    void copy_isNotAView() {
        List<MicroOp> steps = new ArrayList<>(List.of(new MicroOp.Append(1, 1), new MicroOp.Append(2, 2)));
        MicroOpList list = MicroOpList.of(steps);
        steps.add(new MicroOp.Append(1, 3));
        assertEquals(2, list.size());
        assertFalse(MicroOpList.mayRepeatKey(list));
    }

    @Example
    void nullSteps_areRefusedAsListCopyOfRefusesThem() {
        assertThrows(NullPointerException.class, () -> MicroOpList.of(Arrays.asList(new MicroOp.Append(1, 1), null)));
        assertThrows(NullPointerException.class, () -> MicroOpList.of(null));
    }

    private static List<MicroOp> randomSteps(Random random) {
        int n = random.nextInt(5) == 0 ? random.nextInt(24) : random.nextInt(5);
        int keys = 1 + random.nextInt(random.nextBoolean() ? 4 : 40);
        List<MicroOp> steps = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long key = random.nextInt(keys);
            steps.add(switch (random.nextInt(4)) {
                case 0 -> new MicroOp.Append(key, i);
                case 1 -> new MicroOp.Write(key, i);
                case 2 -> new MicroOp.Read(key, null);
                default -> new MicroOp.Read(key, new long[] {i});
            });
        }
        return steps;
    }
}

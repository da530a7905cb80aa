package io.isowatch.collect;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;

import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link IntPages#removeBelow} and the {@code truncate} of both page columns keep what a plain
 * array keeps, across page boundaries, and slots ensured again afterwards hold the fill, not
 * what was there before.
 */
class IntPagesProperties {

    private static final int FILL = -1;

    @Property(tries = 200, seed = "20261128")
    void removeBelowAndTruncate_keepWhatAnArrayKeeps(@ForAll long seed) {
        Random random = new Random(seed);
        IntPages pages = new IntPages(FILL);
        int[] model = new int[0];
        for (int round = 0; round < 6; round++) {
            int size = model.length + random.nextInt(3 * IntPages.PAGE);
            pages.ensure(size - 1);
            int grown = model.length;
            model = Arrays.copyOf(model, size);
            for (int i = 0; i < size; i++) {
                assertEquals(i < grown ? model[i] : FILL, pages.get(i), "slot " + i + " before writing");
                model[i] = random.nextInt();
                pages.set(i, model[i]);
            }
            int cut = random.nextInt(4) == 0 ? random.nextInt(4) * IntPages.PAGE : random.nextInt(size + 1);
            cut = Math.min(cut, size);
            if (random.nextBoolean()) {
                pages.removeBelow(cut, size);
                model = Arrays.copyOfRange(model, cut, size);
            } else {
                pages.truncate(size - cut);
                model = Arrays.copyOf(model, size - cut);
            }
            assertEquals((model.length + IntPages.MASK) / IntPages.PAGE * IntPages.PAGE, pages.capacity(),
                    "pages past the kept slots are dropped");
            for (int i = 0; i < model.length; i++) {
                assertEquals(model[i], pages.get(i), "slot " + i + " after removing " + cut);
            }
        }
    }

    @Property(tries = 100, seed = "20261128")
    void bytePagesTruncate_refillsTheRestOfTheLastPage(@ForAll long seed) {
        Random random = new Random(seed);
        BytePages pages = new BytePages((byte) 7);
        long size = 1 + random.nextInt(3 * BytePages.PAGE);
        pages.ensure(size - 1);
        for (long i = 0; i < size; i++) {
            pages.set(i, (byte) i);
        }
        long kept = random.nextInt((int) size + 1);
        pages.truncate(kept);
        pages.ensure(size - 1);
        for (long i = 0; i < size; i++) {
            assertEquals(i < kept ? (byte) i : (byte) 7, pages.get(i), "slot " + i + " after keeping " + kept);
        }
    }
}

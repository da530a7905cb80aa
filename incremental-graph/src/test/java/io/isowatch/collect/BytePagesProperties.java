package io.isowatch.collect;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * {@link BytePages#getVarints} reads back what was written as varints, at any offset of the
 * target array, whether the run lies inside one page (the fast path) or crosses into the next.
 */
class BytePagesProperties {

    @Property(tries = 300)
    void varintsWrittenAnywhere_readBackEqual(@ForAll("values") List<Integer> values,
                                              @ForAll @IntRange(min = 0, max = 40) int beforePageEnd,
                                              @ForAll @IntRange(min = 0, max = 3) int offset) {
        BytePages pages = new BytePages((byte) 0);
        long start = BytePages.PAGE - beforePageEnd;
        long at = start;
        for (int v : values) {
            for (int n = v; ; n >>>= 7) {
                pages.ensure(at);
                if ((n & ~0x7F) == 0) {
                    pages.set(at++, (byte) n);
                    break;
                }
                pages.set(at++, (byte) ((n & 0x7F) | 0x80));
            }
        }
        int[] into = new int[offset + values.size()];
        Arrays.fill(into, -1);
        long end = pages.getVarints(start, values.size(), into, offset);
        assertEquals(at, end, "position after the varints");
        int[] expected = new int[offset + values.size()];
        Arrays.fill(expected, -1);
        for (int i = 0; i < values.size(); i++) {
            expected[offset + i] = values.get(i);
        }
        assertArrayEquals(expected, into);
    }

    @Provide
    Arbitrary<List<Integer>> values() {
        Arbitrary<Integer> value = Arbitraries.oneOf(Arbitraries.integers().between(0, 300),
                Arbitraries.integers().between(0, Integer.MAX_VALUE));
        return value.list().ofMaxSize(20);
    }
}

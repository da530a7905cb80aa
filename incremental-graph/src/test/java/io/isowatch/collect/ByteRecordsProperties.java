package io.isowatch.collect;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;

/** {@link ByteRecords} gives every record back as appended or copied, whatever their lengths and however they fall across pages. */
class ByteRecordsProperties {

    @Property(tries = 200)
    void appendedRecords_readBackEqual(@ForAll("records") List<byte[]> records) {
        ByteRecords store = new ByteRecords();
        List<Long> positions = new ArrayList<>();
        for (byte[] r : records) {
            byte[] padded = java.util.Arrays.copyOf(r, r.length + 3); // only the given length counts
            positions.add(store.append(padded, r.length));
        }
        for (int i = records.size() - 1; i >= 0; i--) {
            assertArrayEquals(records.get(i), store.read(positions.get(i)), "record " + i);
        }
    }

    @Property(tries = 200)
    void copiedRecords_readBackEqual(@ForAll("records") List<byte[]> records, @ForAll("records") List<byte[]> before) {
        ByteRecords source = new ByteRecords();
        List<Long> positions = new ArrayList<>();
        for (byte[] r : records) {
            positions.add(source.append(r, r.length));
        }
        ByteRecords copy = new ByteRecords();
        for (byte[] r : before) { // copies land at other positions than in the source
            copy.append(r, r.length);
        }
        List<Long> copied = new ArrayList<>();
        for (int i = records.size() - 1; i >= 0; i--) { // in another order than appended
            copied.add(copy.appendCopy(source, positions.get(i)));
        }
        for (int i = 0; i < records.size(); i++) {
            assertArrayEquals(records.get(records.size() - 1 - i), copy.read(copied.get(i)), "copy " + i);
        }
    }

    @Provide
    Arbitrary<List<byte[]>> records() {
        Arbitrary<byte[]> small = Arbitraries.bytes().array(byte[].class).ofMaxSize(130);
        Arbitrary<byte[]> large = Arbitraries.bytes().array(byte[].class).ofMinSize(BytePages.PAGE - 10)
                .ofMaxSize(BytePages.PAGE * 2 + 10);
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(20, small), net.jqwik.api.Tuple.of(1, large)).list().ofMaxSize(60);
    }
}

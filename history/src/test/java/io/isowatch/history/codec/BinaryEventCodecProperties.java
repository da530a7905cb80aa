package io.isowatch.history.codec;

import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Round trips of {@link BinaryEventCodec}. Events are generated with keys and values as plain
 * objects (a {@link Long} or a {@link String}) and turned into atoms inside each try, so every
 * try has its own tables.
 */
class BinaryEventCodecProperties {

    /** A micro-op before atoms: kind a/r/w; for a read, value is null or a List of elements. */
    record MopSpec(char kind, Object key, Object value) {
    }

    record EventSpec(String source, long sequence, long index, long time, OpType type, long process, List<MopSpec> mops) {
    }

    @Property(tries = 500, seed = "20240601")
    void decode_ofEncode_withTheSameTable_givesAnEqualEvent(@ForAll("events") EventSpec spec) {
        AtomTable atoms = new AtomTable();
        HistoryEvent event = toEvent(spec, atoms);
        BinaryEventCodec codec = new BinaryEventCodec(atoms);
        byte[] bytes = codec.encode(event);
        assertEquals(bytes.length, codec.encodedSize(event));
        assertEquals(event, codec.decode(bytes));
    }

    @Property(tries = 500, seed = "20240602")
    void decode_withAFreshTable_reencodesToTheSameBytes(@ForAll("events") EventSpec spec) {
        AtomTable atoms = new AtomTable();
        byte[] bytes = new BinaryEventCodec(atoms).encode(toEvent(spec, atoms));
        AtomTable fresh = new AtomTable();
        HistoryEvent back = new BinaryEventCodec(fresh).decode(bytes);
        assertEquals(toEvent(spec, fresh), back, "same values, the fresh table's codes");
        assertArrayEquals(bytes, new BinaryEventCodec(fresh).encode(back));
    }

    @Property(tries = 300, seed = "20240603")
    void encode_throughArraysAndBuffers_writesTheSameBytes(@ForAll("events") EventSpec spec, @ForAll("offsets") int offset) {
        AtomTable atoms = new AtomTable();
        HistoryEvent event = toEvent(spec, atoms);
        BinaryEventCodec codec = new BinaryEventCodec(atoms);
        byte[] expected = codec.encode(event);
        byte[] array = new byte[offset + expected.length];
        codec.encode(event, array, offset);
        ByteBuffer heap = ByteBuffer.allocate(offset + expected.length).position(offset);
        ByteBuffer direct = ByteBuffer.allocateDirect(offset + expected.length).position(offset);
        codec.encode(event, heap);
        codec.encode(event, direct);
        for (ByteBuffer b : List.of(heap.flip().position(offset), direct.flip().position(offset))) {
            byte[] got = new byte[expected.length];
            b.duplicate().get(got);
            assertArrayEquals(expected, got);
            assertEquals(event, codec.decode(b));
        }
        assertEquals(event, codec.decode(array, offset, expected.length));
    }

    @Property(tries = 1000, seed = "20240604")
    void decode_ofCorruptedBytes_failsOnlyWithFormatErrors(@ForAll("events") EventSpec spec, @ForAll long noise) {
        AtomTable atoms = new AtomTable();
        byte[] bytes = new BinaryEventCodec(atoms).encode(toEvent(spec, atoms));
        Random random = new Random(noise);
        int flips = 1 + random.nextInt(3);
        for (int f = 0; f < flips; f++) {
            // keep the header mostly intact so the fuzzing reaches the body
            int at = bytes.length <= 5 ? 0 : 5 + random.nextInt(bytes.length - 5);
            bytes[at] = (byte) random.nextInt(256);
        }
        try {
            new BinaryEventCodec(new AtomTable()).decode(bytes);
        } catch (BinaryFormatException expected) {
            // the only acceptable failure
        }
    }

    // ---- generators ----

    @Provide
    Arbitrary<Integer> offsets() {
        return Arbitraries.integers().between(0, 9);
    }

    @Provide
    Arbitrary<EventSpec> events() {
        Arbitrary<String> source = Arbitraries.oneOf(Arbitraries.of("agent-1", "a", "host-7:pid-12"),
                Arbitraries.strings().ofMinLength(1).ofMaxLength(20));
        Arbitrary<Long> sequence = Arbitraries.oneOf(Arbitraries.longs().between(0, 1_000_000), Arbitraries.longs().between(0, Long.MAX_VALUE));
        Arbitrary<Long> index = Arbitraries.oneOf(Arbitraries.longs().between(0, 1_000_000), Arbitraries.longs());
        Arbitrary<Long> time = Arbitraries.oneOf(Arbitraries.just(-1L), Arbitraries.longs().between(0, Long.MAX_VALUE), Arbitraries.longs());
        Arbitrary<OpType> type = Arbitraries.of(OpType.class);
        Arbitrary<Long> process = Arbitraries.oneOf(Arbitraries.longs().between(0, 50), Arbitraries.longs());
        return Combinators.combine(source, sequence, index, time, type, process, mop().list().ofMaxSize(8))
                .as(EventSpec::new);
    }

    private Arbitrary<MopSpec> mop() {
        Arbitrary<MopSpec> append = Combinators.combine(atom(), atom()).as((k, v) -> new MopSpec('a', k, v));
        Arbitrary<MopSpec> write = Combinators.combine(atom(), atom()).as((k, v) -> new MopSpec('w', k, v));
        Arbitrary<Object> result = atom().list().ofMaxSize(6).map(l -> (Object) l).injectNull(0.3);
        Arbitrary<MopSpec> read = Combinators.combine(atom(), result).as((k, v) -> new MopSpec('r', k, v));
        return Arbitraries.oneOf(append, write, read);
    }

    private Arbitrary<Object> atom() {
        Arbitrary<Object> small = Arbitraries.longs().between(-5, 200).map(l -> l);
        Arbitrary<Object> any = Arbitraries.longs().filter(l -> !AtomTable.isString(l)).map(l -> l);
        Arbitrary<Object> edge = Arbitraries.of(Long.MAX_VALUE, Long.MIN_VALUE + (1L << 40), -1L, 0L, 127L, 128L, 63L, 64L, -64L, -65L)
                .map(l -> l);
        Arbitrary<Object> word = Arbitraries.strings().withCharRange('a', 'z').ofMinLength(0).ofMaxLength(4).map(s -> s);
        Arbitrary<Object> wild = Arbitraries.strings().withCharRange(' ', '~').withChars('\n', '\u0000', 'é', '中', '"')
                .ofMaxLength(8).map(s -> s);
        Arbitrary<Object> emoji = Arbitraries.of("😀", "a😀b", "𝄞").map(s -> s);
        return Arbitraries.frequencyOf(Tuple.of(5, small), Tuple.of(2, any), Tuple.of(1, edge), Tuple.of(3, word),
                Tuple.of(2, wild), Tuple.of(1, emoji));
    }

    private static HistoryEvent toEvent(EventSpec s, AtomTable atoms) {
        List<MicroOp> mops = new ArrayList<>();
        for (MopSpec m : s.mops()) {
            long key = atomOf(m.key(), atoms);
            mops.add(switch (m.kind()) {
                case 'a' -> new MicroOp.Append(key, atomOf(m.value(), atoms));
                case 'w' -> new MicroOp.Write(key, atomOf(m.value(), atoms));
                default -> {
                    if (m.value() == null) {
                        yield new MicroOp.Read(key, null);
                    }
                    List<?> elements = (List<?>) m.value();
                    long[] values = new long[elements.size()];
                    for (int i = 0; i < values.length; i++) {
                        values[i] = atomOf(elements.get(i), atoms);
                    }
                    yield new MicroOp.Read(key, values);
                }
            });
        }
        return new HistoryEvent(s.source(), s.sequence(), new Op(s.index(), s.time(), s.type(), s.process(), mops));
    }

    private static long atomOf(Object value, AtomTable atoms) {
        return value instanceof String str ? atoms.ofString(str) : AtomTable.ofInteger((Long) value);
    }
}

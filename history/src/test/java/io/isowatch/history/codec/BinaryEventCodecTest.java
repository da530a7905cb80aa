package io.isowatch.history.codec;

import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import org.junit.jupiter.api.Test;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BinaryEventCodecTest {

    private static HistoryEvent event(long seq, OpType type, MicroOp... mops) {
        return new HistoryEvent("agent-1", seq, new Op(7, 1_000, type, 3, List.of(mops)));
    }

    private static final HistoryEvent SMALL = event(5, OpType.OK,
            new MicroOp.Append(1, 2), new MicroOp.Read(1, new long[] {2}), new MicroOp.Write(-1, 300),
            new MicroOp.Read(4, null));

    /**
     * The spool's form does not change for a named history (issue 37): the name is the agent's,
     * known from its configuration, and travels beside the record (a Kafka header).
     */
    @Test
    void aNamedHistory_encodesToTheSameBytes_andDecodesUnnamed() {
        Op op = new Op(0, 5, OpType.INVOKE, 2_000_000_001L, List.of(new MicroOp.Append(3, 2_000_000_001L)));
        HistoryEvent own = new HistoryEvent("orders-2", 0, op).declaringAgentProtocol();
        BinaryEventCodec codec = new BinaryEventCodec(new AtomTable());
        byte[] bytes = codec.encode(own);
        assertArrayEquals(bytes, codec.encode(own.inHistory("orders")));
        assertEquals(own, codec.decode(bytes));
    }

    @Test
    void encode_smallIntegerEvent_writesTheDocumentedLayout() {
        byte[] bytes = new BinaryEventCodec(new AtomTable()).encode(SMALL);
        byte[] expected = {
            0x49, 0x57, 0x48, 0x45, 1,                 // magic "IWHE", version 1
            7, 'a', 'g', 'e', 'n', 't', '-', '1',      // source
            5,                                         // sequence
            14,                                        // index 7 zig-zag
            (byte) 0xd0, 0x0f,                         // time 1000 zig-zag = 2000
            1,                                         // ok
            6,                                         // process 3
            0,                                         // no strings
            4,                                         // four micro-ops
            0, 2, 4,                                   // append 1 2
            3, 2, 1, 4,                                // read 1 [2]
            1, 1, (byte) 0xd8, 0x04,                   // write -1 300
            2, 8                                       // read 4 unknown
        };
        assertArrayEquals(expected, bytes);
    }

    @Test
    void decode_ofEncode_givesEqualEvent_throughArrayWithOffset() {
        BinaryEventCodec codec = new BinaryEventCodec(new AtomTable());
        byte[] dst = new byte[100];
        Arrays.fill(dst, (byte) 0x7f);
        int n = codec.encode(SMALL, dst, 11);
        assertEquals(codec.encodedSize(SMALL), n);
        assertEquals(0x7f, dst[10]);
        assertEquals(0x7f, dst[11 + n]);
        assertEquals(SMALL, codec.decode(dst, 11, n));
    }

    @Test
    void decode_ofEncode_givesEqualEvent_throughHeapAndDirectBuffers() {
        BinaryEventCodec codec = new BinaryEventCodec(new AtomTable());
        for (ByteBuffer buffer : List.of(ByteBuffer.allocate(64), ByteBuffer.allocateDirect(64))) {
            buffer.position(3);
            int n = codec.encode(SMALL, buffer);
            assertEquals(3 + n, buffer.position());
            buffer.flip().position(3);
            assertEquals(SMALL, codec.decode(buffer));
            assertEquals(buffer.limit(), buffer.position());
        }
    }

    @Test
    void decode_stringAtoms_internsTextsIntoTheReadersOwnTable() {
        AtomTable writerAtoms = new AtomTable();
        writerAtoms.ofString("unrelated");
        long x = writerAtoms.ofString("x");
        long quote = writerAtoms.ofString("é\"中😀");
        HistoryEvent e = event(0, OpType.OK, new MicroOp.Append(x, quote), new MicroOp.Read(x, new long[] {quote, 9, x}));
        byte[] bytes = new BinaryEventCodec(writerAtoms).encode(e);

        AtomTable readerAtoms = new AtomTable();
        HistoryEvent back = new BinaryEventCodec(readerAtoms).decode(bytes);
        MicroOp.Append a = (MicroOp.Append) back.op().value().get(0);
        MicroOp.Read r = (MicroOp.Read) back.op().value().get(1);
        assertEquals("x", readerAtoms.valueOf(a.key()));
        assertEquals("é\"中😀", readerAtoms.valueOf(a.value()));
        assertNotEquals(x, a.key(), "the reader's table assigns its own codes");
        assertArrayEquals(new long[] {a.value(), 9, a.key()}, r.values());
        // re-encoding from the reader's table gives the same bytes: the wire carries texts, not codes
        assertArrayEquals(bytes, new BinaryEventCodec(readerAtoms).encode(back));
    }

    @Test
    void decodeKeeping_integerEvent_keepsTheVeryArrayAsItsEncoding() {
        byte[] bytes = new BinaryEventCodec(new AtomTable()).encode(SMALL);
        HistoryEvent back = new BinaryEventCodec(new AtomTable()).decodeKeeping(bytes);
        assertEquals(SMALL, back);
        assertSame(bytes, back.encoding(), "kept, not copied");
        assertNull(SMALL.encoding(), "an event made in memory has none");
        assertNull(new BinaryEventCodec(new AtomTable()).decode(bytes).encoding(), "plain decode keeps nothing");
        assertEquals(SMALL.hashCode(), back.hashCode(), "the bytes are not part of the value");
        assertEquals(SMALL.toString(), back.toString());
    }

    @Test
    void decodeKeeping_eventNamingStrings_keepsNothing() {
        AtomTable atoms = new AtomTable();
        HistoryEvent e = event(0, OpType.OK, new MicroOp.Append(atoms.ofString("x"), 1));
        byte[] bytes = new BinaryEventCodec(atoms).encode(e);
        HistoryEvent back = new BinaryEventCodec(new AtomTable()).decodeKeeping(bytes);
        assertNull(back.encoding(), "its codes belong to the reader's table, which its holder re-codes");
    }

    @Test
    void decode_foreignMagic_namesWhatItFoundAndWhatItSupports() {
        byte[] bytes = new BinaryEventCodec(new AtomTable()).encode(SMALL);
        bytes[0] = '{';
        BinaryFormatException e = assertThrows(BinaryFormatException.class,
                () -> new BinaryEventCodec(new AtomTable()).decode(bytes));
        assertEquals("not an isowatch binary event: magic number 0x7b574845 (\"{WHE\");"
                + " this reader supports 0x49574845 (\"IWHE\")", e.getMessage());
        assertEquals(0, e.offset());
    }

    @Test
    void decode_unknownVersion_namesWhatItFoundAndWhatItSupports() {
        byte[] bytes = new BinaryEventCodec(new AtomTable()).encode(SMALL);
        bytes[4] = 2;
        BinaryFormatException e = assertThrows(BinaryFormatException.class,
                () -> new BinaryEventCodec(new AtomTable()).decode(bytes));
        assertTrue(e.getMessage().startsWith("isowatch binary event format version 2 is not supported;"
                + " this reader supports version 1"), e.getMessage());
        assertEquals(4, e.offset());
    }

    @Test
    void decode_everyTruncation_failsWithAFormatError() {
        BinaryEventCodec codec = new BinaryEventCodec(new AtomTable());
        byte[] bytes = codec.encode(SMALL);
        for (int length = 0; length < bytes.length; length++) {
            int n = length;
            BinaryFormatException e = assertThrows(BinaryFormatException.class, () -> codec.decode(bytes, 0, n),
                    "prefix of " + n);
            assertTrue(e.getMessage().startsWith("truncated event") || e.getMessage().contains("cannot fit"),
                    e.getMessage());
        }
    }

    @Test
    void decode_trailingBytes_areRejected() {
        BinaryEventCodec codec = new BinaryEventCodec(new AtomTable());
        byte[] bytes = Arrays.copyOf(codec.encode(SMALL), codec.encodedSize(SMALL) + 2);
        BinaryFormatException e = assertThrows(BinaryFormatException.class, () -> codec.decode(bytes));
        assertEquals("event is followed by 2 unexpected byte(s); each record must hold exactly one event", e.getMessage());
    }

    @Test
    void decode_unknownMicroOpTag_namesThePosition() {
        BinaryEventCodec codec = new BinaryEventCodec(new AtomTable());
        byte[] bytes = codec.encode(event(0, OpType.INVOKE, new MicroOp.Append(1, 2), new MicroOp.Append(3, 4)));
        bytes[bytes.length - 3] = 9;
        BinaryFormatException e = assertThrows(BinaryFormatException.class, () -> codec.decode(bytes));
        assertTrue(e.getMessage().startsWith("micro-op 1: unknown tag 9"), e.getMessage());
    }

    @Test
    void decode_hugeCount_isRejectedWithoutAllocating() {
        // header, source "a", seq 0, index 0, time 0, invoke, process 0, strings 0, micro-ops 2^62
        byte[] bytes = {0x49, 0x57, 0x48, 0x45, 1, 1, 'a', 0, 0, 0, 0, 0, 0,
            (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, (byte) 0x80, 0x40};
        BinaryFormatException e = assertThrows(BinaryFormatException.class,
                () -> new BinaryEventCodec(new AtomTable()).decode(bytes));
        assertEquals("micro-op count 4611686018427387904 cannot fit in the 0 byte(s) left", e.getMessage());
    }

    @Test
    void encode_intoTooSmallArray_throwsAndWritesNothing() {
        BinaryEventCodec codec = new BinaryEventCodec(new AtomTable());
        byte[] dst = new byte[codec.encodedSize(SMALL) - 1];
        assertThrows(BufferOverflowException.class, () -> codec.encode(SMALL, dst, 0));
        assertArrayEquals(new byte[dst.length], dst);
        ByteBuffer buffer = ByteBuffer.allocateDirect(dst.length);
        assertThrows(BufferOverflowException.class, () -> codec.encode(SMALL, buffer));
        assertEquals(0, buffer.position());
    }

    @Test
    void encode_stringAtomOfAnotherTable_isAnArgumentError() {
        AtomTable other = new AtomTable();
        long atom = other.ofString("k");
        BinaryEventCodec codec = new BinaryEventCodec(new AtomTable());
        assertThrows(IllegalArgumentException.class, () -> codec.encode(event(0, OpType.INVOKE, new MicroOp.Append(atom, 1))));
    }

    @Test
    void encode_integerOnlyEvent_withSameAgent_reusesTheCachedAgentId() {
        BinaryEventCodec codec = new BinaryEventCodec(new AtomTable());
        byte[] first = codec.encode(SMALL);
        HistoryEvent other = new HistoryEvent("agent-2", 5, SMALL.op());
        byte[] second = codec.encode(other);
        assertEquals('2', second[12]);
        assertArrayEquals(first, codec.encode(SMALL));
    }

    @Test
    void theAgentProtocolDeclaration_travelsInTheFirstEventsTypeByte_andNowhereElse() {
        BinaryEventCodec codec = new BinaryEventCodec(new AtomTable());
        HistoryEvent first = event(0, OpType.INVOKE, new MicroOp.Append(1, 2)).declaringAgentProtocol();
        byte[] declared = codec.encode(first);
        byte[] plain = codec.encode(event(0, OpType.INVOKE, new MicroOp.Append(1, 2)));
        assertEquals(plain.length, declared.length, "the flag costs no byte");
        HistoryEvent decoded = codec.decode(ByteBuffer.wrap(declared));
        assertTrue(decoded.declaresAgentProtocol());
        assertEquals(first, decoded);
        assertTrue(!codec.decode(ByteBuffer.wrap(plain)).declaresAgentProtocol());
        assertTrue(codec.decodeKeeping(declared).declaresAgentProtocol(), "and when the bytes are kept");
    }

    @Test
    void aDeclarationOnALaterEvent_isRefusedNamingTheRule() {
        byte[] bytes = new BinaryEventCodec(new AtomTable()).encode(event(0, OpType.INVOKE, new MicroOp.Append(1, 2))
                .declaringAgentProtocol());
        bytes[13] = 3; // the sequence varint: event 3 instead of 0
        BinaryFormatException e = assertThrows(BinaryFormatException.class,
                () -> new BinaryEventCodec(new AtomTable()).decode(ByteBuffer.wrap(bytes)));
        assertTrue(e.getMessage().contains("only a history's first event"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> SMALL.declaringAgentProtocol(), "SMALL is event 5");
    }
}

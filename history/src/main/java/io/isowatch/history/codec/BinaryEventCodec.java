package io.isowatch.history.codec;

import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.nio.BufferOverflowException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;

/**
 * The compact, versioned binary form of a {@link HistoryEvent}, used by the agent's on-disk
 * spool (one event per record) and available to any transport that wants fewer bytes than JSON.
 *
 * <p><b>Layout, version 1.</b> Integers are unsigned LEB128 varints ({@code uvar}) or zig-zag
 * varints for signed values ({@code zvar}); strings are a {@code uvar} byte length followed by
 * UTF-8.
 * <pre>
 *   magic      4 bytes  0x49 0x57 0x48 0x45 ("IWHE"), big-endian {@link #MAGIC}
 *   version    1 byte   {@link #VERSION}
 *   source     string   the agent id
 *   sequence   uvar     the agent's event counter (below 2^63)
 *   index      zvar     the op's index
 *   time       zvar     nanoseconds, -1 when unknown
 *   type       1 byte   0 invoke, 1 ok, 2 fail, 3 info; plus {@link #DECLARES_AGENT_PROTOCOL} on a
 *                       history's first event whose producer keeps the agent protocol
 *   process    zvar
 *   strings    uvar n, then n strings: the text of every string atom in the event, once each
 *   micro-ops  uvar m, then m micro-ops, each a tag byte and atoms:
 *                0 append  key value
 *                1 write   key value
 *                2 read    key                (result unknown, e.g. in an invocation)
 *                3 read    key uvar count, count values
 * </pre>
 * An atom is a {@code zvar}. Integers are their own atoms; a string atom is written as
 * {@code Long.MIN_VALUE + i}, where {@code i} is its position in the event's string list. That
 * band is reserved for strings by {@link AtomTable}, so the two never collide, and a reader
 * interns the texts into its own table: writer and reader need not share an
 * {@link AtomTable}. The op's {@link Op#sourceLine()} is not written; decoded ops carry -1.
 * Small integer events take about 20 bytes plus the agent id.
 *
 * <p><b>Compatibility.</b> The reader rejects a foreign magic number or an unknown version with
 * a {@link BinaryFormatException} naming what it found and what it supports. A later version
 * keeps the 5-byte header and bumps {@link #VERSION}.
 *
 * <p><b>Memory.</b> {@code encode} writes directly into the caller's array or buffer and
 * allocates nothing for integer-only events after the first event of an agent (the agent id's
 * UTF-8 form is cached). {@code decode} allocates the event it returns.
 *
 * <p>Not thread-safe: it reuses scratch state between calls, and string atoms go through the
 * {@link AtomTable}, which is not thread-safe either. Use one codec per thread.
 */
public final class BinaryEventCodec {

    /** "IWHE": isowatch history event. */
    public static final int MAGIC = 0x49574845;
    /** The format version this codec writes, and the only one it reads. */
    public static final int VERSION = 1;
    /** Magic number plus version byte. */
    public static final int HEADER_SIZE = 5;

    static final int TAG_APPEND = 0;
    static final int TAG_WRITE = 1;
    static final int TAG_READ_UNKNOWN = 2;
    static final int TAG_READ = 3;

    private static final OpType[] TYPES = {OpType.INVOKE, OpType.OK, OpType.FAIL, OpType.INFO};
    /**
     * The type byte's flag for {@link HistoryEvent#declaresAgentProtocol}. A reader from before
     * it names the byte as an unknown type, as for any later change: upgrade the job first.
     */
    static final int DECLARES_AGENT_PROTOCOL = 0x80;

    private final AtomTable atoms;
    private final BinaryOutput out = new BinaryOutput();
    private final BinaryInput in = new BinaryInput();

    private String cachedSource;
    private byte[] cachedSourceBytes;

    // String atoms of the event being encoded: atom -> UTF-8 text, in first-use order.
    private long[] stringAtoms = new long[4];
    private byte[][] stringBytes = new byte[4][];
    private int stringCount;
    private HistoryEvent sized;
    private int sizedLength;

    /**
     * @param atoms renders string atoms when encoding and interns them when decoding; an
     *              integer-only history never touches it
     */
    public BinaryEventCodec(AtomTable atoms) {
        this.atoms = Objects.requireNonNull(atoms, "atoms");
    }

    /**
     * Whether {@code value} starts with this format's magic number: how a reader that takes both
     * this form and JSON (the stream job's record decoder) tells them apart. JSON text never
     * starts with these bytes ({@code "IWHE"} is no JSON value), so the test cannot mistake one
     * for the other; whether the rest is a valid event is {@link #decode}'s business.
     */
    public static boolean startsWithMagic(byte[] value) {
        return value != null && value.length >= 4
                && ((value[0] & 0xFF) << 24 | (value[1] & 0xFF) << 16 | (value[2] & 0xFF) << 8 | value[3] & 0xFF) == MAGIC;
    }

    /** The table string atoms are rendered from and interned into. */
    public AtomTable atoms() {
        return atoms;
    }

    /**
     * The exact number of bytes {@link #encode} writes for this event.
     *
     * @throws IllegalArgumentException when a string atom is unknown to this codec's table
     */
    public int encodedSize(HistoryEvent event) {
        Objects.requireNonNull(event, "event");
        if (event == sized) {
            return sizedLength;
        }
        stringCount = 0;
        Op op = event.op();
        byte[] source = sourceBytes(event.source());
        int size = HEADER_SIZE
                + BinaryOutput.uvarintSize(source.length) + source.length
                + BinaryOutput.uvarintSize(event.sequence())
                + BinaryOutput.zigZagSize(op.index())
                + BinaryOutput.zigZagSize(op.time())
                + 1
                + BinaryOutput.zigZagSize(op.process());
        int mopsSize = BinaryOutput.uvarintSize(op.value().size());
        for (MicroOp m : op.value()) {
            mopsSize += 1 + atomSize(m.key());
            if (m instanceof MicroOp.Append a) {
                mopsSize += atomSize(a.value());
            } else if (m instanceof MicroOp.Write w) {
                mopsSize += atomSize(w.value());
            } else {
                long[] values = ((MicroOp.Read) m).values();
                if (values != null) {
                    mopsSize += BinaryOutput.uvarintSize(values.length);
                    for (long v : values) {
                        mopsSize += atomSize(v);
                    }
                }
            }
        }
        int stringsSize = BinaryOutput.uvarintSize(stringCount);
        for (int i = 0; i < stringCount; i++) {
            stringsSize += BinaryOutput.uvarintSize(stringBytes[i].length) + stringBytes[i].length;
        }
        sized = event;
        sizedLength = size + stringsSize + mopsSize;
        return sizedLength;
    }

    /**
     * Writes the event into {@code dst} at {@code offset}.
     *
     * @return the number of bytes written
     * @throws BufferOverflowException  when fewer than {@link #encodedSize} bytes are left;
     *                                  nothing is written then
     * @throws IllegalArgumentException when a string atom is unknown to this codec's table
     */
    public int encode(HistoryEvent event, byte[] dst, int offset) {
        Objects.checkFromIndexSize(offset, 0, dst.length);
        int size = encodedSize(event);
        if (dst.length - offset < size) {
            throw overflow(size, dst.length - offset);
        }
        try {
            write(event, out.wrap(dst, offset));
        } finally {
            out.release();
        }
        return size;
    }

    /**
     * Writes the event at the buffer's position and advances the position past it. Heap
     * buffers are written through their array, direct buffers byte by byte in place.
     *
     * @return the number of bytes written
     * @throws BufferOverflowException when fewer than {@link #encodedSize} bytes remain; the
     *                                 buffer is unchanged then
     */
    public int encode(HistoryEvent event, ByteBuffer dst) {
        int size = encodedSize(event);
        if (dst.remaining() < size) {
            throw overflow(size, dst.remaining());
        }
        try {
            write(event, out.wrap(dst));
        } finally {
            out.release();
        }
        dst.position(dst.position() + size);
        return size;
    }

    /** Encodes into a new array of exactly the event's size. */
    public byte[] encode(HistoryEvent event) {
        byte[] bytes = new byte[encodedSize(event)];
        encode(event, bytes, 0);
        return bytes;
    }

    /**
     * Reads one event that fills {@code src[offset, offset + length)} exactly.
     *
     * @throws BinaryFormatException when the bytes are not one event of a supported version
     */
    public HistoryEvent decode(byte[] src, int offset, int length) {
        try {
            return read(in.wrap(src, offset, length), length, null);
        } finally {
            in.release();
        }
    }

    /** Reads one event that fills the whole array. */
    public HistoryEvent decode(byte[] src) {
        return decode(src, 0, src.length);
    }

    /**
     * Reads one event that fills the whole array, which the event keeps as its
     * {@link HistoryEvent#encoding} when it names no strings (so writing it on is a copy). The
     * caller hands the array over: it must not change it afterwards.
     *
     * @throws BinaryFormatException when the bytes are not one event of a supported version
     */
    public HistoryEvent decodeKeeping(byte[] src) {
        try {
            return read(in.wrap(src, 0, src.length), src.length, src);
        } finally {
            in.release();
        }
    }

    /**
     * Reads one event that fills the buffer from its position to its limit, and advances the
     * position to the limit.
     *
     * @throws BinaryFormatException when the bytes are not one event of a supported version;
     *                               the position is unchanged then
     */
    public HistoryEvent decode(ByteBuffer src) {
        try {
            HistoryEvent event = read(in.wrap(src), src.remaining(), null);
            src.position(src.limit());
            return event;
        } finally {
            in.release();
        }
    }

    // ---- writing ----

    private void write(HistoryEvent event, BinaryOutput o) {
        Op op = event.op();
        o.putInt(MAGIC);
        o.put(VERSION);
        o.putUVarint(cachedSourceBytes.length);
        o.putBytes(cachedSourceBytes);
        o.putUVarint(event.sequence());
        o.putZigZag(op.index());
        o.putZigZag(op.time());
        o.put(typeCode(op.type()) | (event.declaresAgentProtocol() ? DECLARES_AGENT_PROTOCOL : 0));
        o.putZigZag(op.process());
        o.putUVarint(stringCount);
        for (int i = 0; i < stringCount; i++) {
            o.putUVarint(stringBytes[i].length);
            o.putBytes(stringBytes[i]);
        }
        List<MicroOp> mops = op.value();
        o.putUVarint(mops.size());
        for (MicroOp m : mops) {
            if (m instanceof MicroOp.Append a) {
                o.put(TAG_APPEND);
                putAtom(o, a.key());
                putAtom(o, a.value());
            } else if (m instanceof MicroOp.Write w) {
                o.put(TAG_WRITE);
                putAtom(o, w.key());
                putAtom(o, w.value());
            } else {
                MicroOp.Read r = (MicroOp.Read) m;
                long[] values = r.values();
                o.put(values == null ? TAG_READ_UNKNOWN : TAG_READ);
                putAtom(o, r.key());
                if (values != null) {
                    o.putUVarint(values.length);
                    for (long v : values) {
                        putAtom(o, v);
                    }
                }
            }
        }
    }

    private static int typeCode(OpType type) {
        return switch (type) {
            case INVOKE -> 0;
            case OK -> 1;
            case FAIL -> 2;
            case INFO -> 3;
        };
    }

    private void putAtom(BinaryOutput o, long atom) {
        if (AtomTable.isString(atom)) {
            o.putZigZag(Long.MIN_VALUE + stringIndex(atom));
        } else {
            o.putZigZag(atom);
        }
    }

    private byte[] sourceBytes(String source) {
        if (!source.equals(cachedSource)) {
            cachedSourceBytes = source.getBytes(StandardCharsets.UTF_8);
            cachedSource = source;
        }
        return cachedSourceBytes;
    }

    /** The atom's encoded size, registering a string atom in the event's string list. */
    private int atomSize(long atom) {
        if (!AtomTable.isString(atom)) {
            return BinaryOutput.zigZagSize(atom);
        }
        int i = stringIndex(atom);
        if (i < 0) {
            if (stringCount == stringAtoms.length) {
                stringAtoms = Arrays.copyOf(stringAtoms, stringCount * 2);
                stringBytes = Arrays.copyOf(stringBytes, stringCount * 2);
            }
            String text = (String) atoms.valueOf(atom);
            i = stringCount++;
            stringAtoms[i] = atom;
            stringBytes[i] = text.getBytes(StandardCharsets.UTF_8);
        }
        return BinaryOutput.zigZagSize(Long.MIN_VALUE + i);
    }

    /** Linear search: events carry a handful of distinct strings at most. */
    private int stringIndex(long atom) {
        for (int i = 0; i < stringCount; i++) {
            if (stringAtoms[i] == atom) {
                return i;
            }
        }
        return -1;
    }

    private static BufferOverflowException overflow(int needed, int available) {
        BufferOverflowException e = new BufferOverflowException();
        e.initCause(new IllegalArgumentException(BinaryMessages.bufferTooSmall(needed, available)));
        return e;
    }

    // ---- reading ----

    private HistoryEvent read(BinaryInput i, int length, byte[] keep) {
        if (length < HEADER_SIZE) {
            throw new BinaryFormatException(0, BinaryMessages.tooShortForHeader(length));
        }
        int magic = i.getInt();
        if (magic != MAGIC) {
            throw new BinaryFormatException(0, BinaryMessages.badMagic(magic));
        }
        int version = i.get();
        if (version != VERSION) {
            throw new BinaryFormatException(4, BinaryMessages.badVersion(version));
        }
        String source = i.getUtf8(i.getCount("agent id byte", 1));
        int at = i.offset();
        long sequence = i.getUVarint();
        if (sequence < 0) {
            throw new BinaryFormatException(at, BinaryMessages.negativeSequence(sequence));
        }
        long index = i.getZigZag();
        long time = i.getZigZag();
        at = i.offset();
        int typeByte = i.get();
        boolean declaresProtocol = (typeByte & DECLARES_AGENT_PROTOCOL) != 0;
        int typeCode = typeByte & ~DECLARES_AGENT_PROTOCOL;
        if (typeCode >= TYPES.length) {
            throw new BinaryFormatException(at, BinaryMessages.unknownType(typeByte));
        }
        if (declaresProtocol && sequence != 0) {
            throw new BinaryFormatException(at, BinaryMessages.protocolDeclaredLate(sequence));
        }
        long process = i.getZigZag();
        int nStrings = i.getCount("string", 1);
        String[] strings = new String[nStrings];
        for (int s = 0; s < nStrings; s++) {
            strings[s] = i.getUtf8(i.getCount("string byte", 1));
        }
        int nMops = i.getCount("micro-op", 2);
        List<MicroOp> mops = new ArrayList<>(nMops);
        for (int p = 0; p < nMops; p++) {
            mops.add(readMicroOp(i, p, strings));
        }
        if (i.remaining() > 0) {
            throw i.fail(BinaryMessages.trailingBytes(i.remaining()));
        }
        try {
            Op op = new Op(index, time, TYPES[typeCode], process, mops);
            HistoryEvent event = keep != null && nStrings == 0 ? HistoryEvent.decodedFrom(source, sequence, op, keep)
                    : new HistoryEvent(source, sequence, op);
            return declaresProtocol ? event.declaringAgentProtocol() : event;
        } catch (IllegalArgumentException e) {
            throw new BinaryFormatException(0, BinaryMessages.invalidEvent(e.getMessage()));
        }
    }

    private MicroOp readMicroOp(BinaryInput i, int position, String[] strings) {
        int at = i.offset();
        int tag = i.get();
        if (tag > TAG_READ) {
            throw new BinaryFormatException(at, BinaryMessages.unknownMicroOp(position, tag));
        }
        long key = getAtom(i, position, strings);
        switch (tag) {
            case TAG_APPEND:
                return new MicroOp.Append(key, getAtom(i, position, strings));
            case TAG_WRITE:
                return new MicroOp.Write(key, getAtom(i, position, strings));
            case TAG_READ_UNKNOWN:
                return new MicroOp.Read(key, null);
            case TAG_READ: {
                long[] values = new long[i.getCount("read value", 1)];
                for (int v = 0; v < values.length; v++) {
                    values[v] = getAtom(i, position, strings);
                }
                return new MicroOp.Read(key, values);
            }
            default:
                throw new BinaryFormatException(at, BinaryMessages.unknownMicroOp(position, tag));
        }
    }

    private long getAtom(BinaryInput i, int position, String[] strings) {
        int at = i.offset();
        long atom = i.getZigZag();
        if (!AtomTable.isString(atom)) {
            return atom;
        }
        long ref = atom - Long.MIN_VALUE;
        if (ref >= strings.length) {
            throw new BinaryFormatException(at, BinaryMessages.badStringRef(position, ref, strings.length));
        }
        return atoms.ofString(strings[(int) ref]);
    }
}

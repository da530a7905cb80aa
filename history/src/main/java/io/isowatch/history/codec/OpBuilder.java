package io.isowatch.history.codec;

import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.MicroOpList;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.util.Arrays;

/**
 * Collects the fields of one op as a format reader parses them, in whatever order they come,
 * and turns them into an {@link Op} (or a skip) at the end of the op. Shared by the JSON and
 * EDN readers so both apply one set of rules.
 *
 * <p>Faults in {@code value} are deferred until the op is complete: a non-client
 * op (the nemesis) may carry any value at all, and its {@code process} may come after its
 * {@code value}. Only the first deferred fault is kept. The scratch buffers are reused from op
 * to op, so parsing allocates little beyond the ops themselves.
 */
final class OpBuilder {

    private static final long[] NO_VALUES = new long[0];

    private static final int PROCESS_MISSING = 0;
    private static final int PROCESS_CLIENT = 1;
    private static final int PROCESS_OTHER = 2;

    private final String sourceName;
    private final AtomTable atoms;
    private long ordinal;
    private long skipped;

    private long line;
    private int column;
    private boolean hasIndex;
    private long index;
    private long time;
    private OpType type;
    private int processKind;
    private long process;
    private HistoryFormatException deferred;
    private MicroOp[] microOps = new MicroOp[8];
    private int microOpCount;
    private long[] reads = new long[16];
    private int readCount;

    OpBuilder(String sourceName, AtomTable atoms) {
        this.sourceName = sourceName;
        this.atoms = atoms;
    }

    String sourceName() {
        return sourceName;
    }

    /** Non-client ops skipped so far. */
    long skipped() {
        return skipped;
    }

    /** Ops finished so far (skipped or not): the index of an op that has none. */
    long finished() {
        return ordinal;
    }

    /** Forgets the ops finished since the counters read {@code finishedBefore} and {@code skippedBefore}. */
    void rewind(long finishedBefore, long skippedBefore) {
        ordinal = finishedBefore;
        skipped = skippedBefore;
    }

    /** Starts an op whose opening brace sits at this line and column. */
    void begin(long opLine, int opColumn) {
        line = opLine;
        column = opColumn;
        hasIndex = false;
        time = -1;
        type = null;
        processKind = PROCESS_MISSING;
        deferred = null;
        microOpCount = 0;
    }

    void index(long value) {
        hasIndex = true;
        index = value;
    }

    void time(long value) {
        time = value;
    }

    void type(OpType value) {
        type = value;
    }

    void clientProcess(long value) {
        processKind = PROCESS_CLIENT;
        process = value;
    }

    void nonClientProcess() {
        processKind = PROCESS_OTHER;
    }

    /** Starts the {@code value} field: an empty list of micro-ops (all a nil value has). */
    void beginValue() {
        microOpCount = 0;
    }

    /** Records a fault that matters only if this op turns out to be a client op. */
    void defer(HistoryFormatException fault) {
        if (deferred == null) {
            deferred = fault;
        }
    }

    void append(long key, long value) {
        add(new MicroOp.Append(key, value));
    }

    void write(long key, long value) {
        add(new MicroOp.Write(key, value));
    }

    /** A read whose result is unknown ({@code nil}). */
    void readUnknown(long key) {
        add(new MicroOp.Read(key, null));
    }

    /** A register read of a single value. */
    void readScalar(long key, long value) {
        add(new MicroOp.Read(key, new long[] {value}));
    }

    private void add(MicroOp m) {
        if (microOpCount == microOps.length) {
            microOps = Arrays.copyOf(microOps, microOpCount * 2);
        }
        microOps[microOpCount++] = m;
    }

    void beginReadList() {
        readCount = 0;
    }

    void readElement(long value) {
        if (readCount == reads.length) {
            reads = Arrays.copyOf(reads, reads.length * 2);
        }
        reads[readCount++] = value;
    }

    void endReadList(long key) {
        long[] values = readCount == 0 ? NO_VALUES : Arrays.copyOf(reads, readCount);
        add(new MicroOp.Read(key, values));
    }

    /** The atom of a string key or value. */
    long stringAtom(String s) {
        return atoms.ofString(s);
    }

    /** The atom of a keyword key or value (its name, without the colon). */
    long keywordAtom(String name) {
        return atoms.ofKeyword(name);
    }

    /** The atom of a symbol key or value. */
    long symbolAtom(String name) {
        return atoms.ofSymbol(name);
    }

    /**
     * The atom of an integer key or value.
     *
     * @throws HistoryFormatException when the integer falls in the band reserved for strings
     */
    long integerAtom(long value, long atLine, int atColumn, int position) {
        try {
            return AtomTable.ofInteger(value);
        } catch (IllegalArgumentException e) {
            throw fault(atLine, atColumn, "value", Long.toString(value),
                    CodecMessages.reservedInteger(position, e.getMessage()));
        }
    }

    /**
     * Completes the op.
     *
     * @return the op, or null when it belongs to a non-client process and is skipped
     * @throws HistoryFormatException when a required field is missing or a deferred fault applies
     */
    Op finish() {
        long ordinalIndex = ordinal++;
        if (type == null) {
            throw missing("type");
        }
        // Jepsen's client-op? is (integer? (:process op)): an op without a process is no client's.
        if (processKind != PROCESS_CLIENT) {
            skipped++;
            return null;
        }
        // Elle never looks at :f: a client op is a transaction whatever its :f, and its micro-ops
        // are its :value, none when the value is nil or absent (docs/elle-compatibility.md).
        if (deferred != null) {
            throw deferred;
        }
        return new Op(hasIndex ? index : ordinalIndex, time, type, process,
                MicroOpList.copyOf(microOps, microOpCount), line);
    }

    private HistoryFormatException missing(String field) {
        return fault(line, -1, field, null, CodecMessages.missingField());
    }

    HistoryFormatException fault(long atLine, int atColumn, String field, String valueText, String detail) {
        return new HistoryFormatException(sourceName, atLine, atColumn, field, valueText, detail);
    }

    /** The line of the op being built. */
    long line() {
        return line;
    }

    /** The column of the op being built. */
    int column() {
        return column;
    }
}

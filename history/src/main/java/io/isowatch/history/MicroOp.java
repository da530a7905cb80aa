package io.isowatch.history;

import java.util.Arrays;

/**
 * One step of a transaction: an append, a read, or a register write.
 *
 * <p>Keys and values are atoms: 64-bit codes made by {@link AtomTable}. Integers stand for
 * themselves, so a history of integer keys and values needs no table at all; strings get codes
 * from the table that parsed them. Keeping atoms primitive lets the checker work on longs
 * without boxing.
 */
public sealed interface MicroOp permits MicroOp.Append, MicroOp.Read, MicroOp.Write {

    /** The object key this step touches. */
    long key();

    /** {@code ["append", k, v]}: appends the element {@code v} to the list at {@code k}. */
    record Append(long key, long value) implements MicroOp {

        // Written out, as Read's are: a record's generated equals goes through a method handle,
        // which the JIT does not always inline, and completions compare every append.
        @Override
        public boolean equals(Object other) {
            return other instanceof Append that && that.key == key && that.value == value;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(key) * 31 + Long.hashCode(value);
        }
    }

    /**
     * {@code ["r", k, v]}: reads key {@code k}. {@code values} is null when the value is unknown
     * (an invocation, or a completion that did not report it); for a list it holds the elements
     * in order, for a register a single element (or none for nil).
     *
     * <p>The array is owned by this record once constructed; callers must not mutate it.
     */
    record Read(long key, long[] values) implements MicroOp {

        /** True when the read's result is known (it is not {@code nil} as in an invocation). */
        public boolean known() {
            return values != null;
        }

        /** The number of elements read; 0 for an unknown read. */
        public int length() {
            return values == null ? 0 : values.length;
        }

        @Override
        public boolean equals(Object other) {
            return other instanceof Read that && that.key == key && Arrays.equals(that.values, values);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(key) * 31 + Arrays.hashCode(values);
        }

        @Override
        public String toString() {
            return "Read[key=" + key + ", values=" + Arrays.toString(values) + "]";
        }
    }

    /** {@code ["w", k, v]}: sets the register at {@code k} to {@code v}. */
    record Write(long key, long value) implements MicroOp {

        @Override
        public boolean equals(Object other) {
            return other instanceof Write that && that.key == key && that.value == value;
        }

        @Override
        public int hashCode() {
            return Long.hashCode(key) * 31 + Long.hashCode(value);
        }
    }
}

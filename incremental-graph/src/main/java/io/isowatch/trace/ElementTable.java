package io.isowatch.trace;

import io.isowatch.collect.LongIntMap;

import java.util.Arrays;

/**
 * What one list-append key knows of each of its elements, as one row of int columns per element:
 * its writer, its position in the version order, the read that revealed it there, and the head
 * of the readers waiting for its writer; plus a flag for intermediate appends.
 *
 * <p>A trace used to keep one map (or list) per column. Their keys are nearly the same
 * elements, so one row index per element and the columns side by side in one array take less:
 * in a contended 1M-transaction check, 760 bytes in 4 objects a key instead of 1,220 bytes in
 * about 15. Rows are indexed through {@code claimed}, which takes elements in claim order
 * exactly as the former element-to-writer map did, so {@link #forEachWriter} visits writers in
 * the same order as before (and with it the edges and findings that follow); its values carry
 * the intermediate flag in their lowest bit, which spares a set of flags per key. The few
 * elements that need a row before their append is invoked (reads from the future) are indexed by
 * a second map, made when first needed; a later claim reuses their row.
 *
 * <p>Every column reads {@link LongIntMap#MISSING} until set; it cannot be stored. Not
 * thread-safe.
 */
final class ElementTable {

    static final int WRITER = 0;
    static final int POSITION = 1;
    static final int REVEALER = 2;
    static final int WAITING = 3;
    private static final int COLUMNS = 4;
    /** Rows the first array holds: most keys see a few dozen elements, doubling from here. */
    private static final int FIRST_ROWS = 8;

    /** Claimed element to {@code row << 1 | intermediate}. */
    private final LongIntMap claimed = new LongIntMap();
    /** Element to row, for elements given a row before their claim. */
    private LongIntMap unclaimed;
    private int[] cells;
    private int rows;

    /** {@code element}'s value in {@code column}, or {@link LongIntMap#MISSING}. */
    int get(long element, int column) {
        int row = row(element);
        return row == LongIntMap.MISSING ? LongIntMap.MISSING : cells[row * COLUMNS + column];
    }

    /** Sets a column other than {@link #WRITER} (which {@link #claim} sets), making the row when absent. */
    void set(long element, int column, int value) {
        if (value == LongIntMap.MISSING) {
            throw new IllegalArgumentException("an ElementTable cannot store its MISSING marker " + value);
        }
        int row = row(element);
        if (row == LongIntMap.MISSING) {
            row = newRow();
            if (unclaimed == null) {
                unclaimed = new LongIntMap();
            }
            unclaimed.put(element, row);
        }
        cells[row * COLUMNS + column] = value;
    }

    /** Records {@code writer} as the appender of the unclaimed {@code element}. */
    void claim(long element, int writer, boolean intermediateAppend) {
        int row = unclaimed == null ? LongIntMap.MISSING : unclaimed.get(element);
        if (row == LongIntMap.MISSING) {
            row = newRow();
        }
        claimed.put(element, row << 1 | (intermediateAppend ? 1 : 0));
        cells[row * COLUMNS + WRITER] = writer;
    }

    /** Whether {@code element} was claimed by an append its own transaction appended to again. */
    boolean intermediate(long element) {
        int value = claimed.get(element);
        return value != LongIntMap.MISSING && (value & 1) == 1;
    }

    /** Calls {@code visitor} with each claimed element and its writer, in the order described above. */
    void forEachWriter(LongIntMap.Visitor visitor) {
        claimed.forEach((element, value) -> visitor.visit(element, cells[(value >>> 1) * COLUMNS + WRITER]));
    }

    private int row(long element) {
        int value = claimed.get(element);
        if (value != LongIntMap.MISSING) {
            return value >>> 1;
        }
        return unclaimed == null ? LongIntMap.MISSING : unclaimed.get(element);
    }

    private int newRow() {
        if (cells == null) {
            cells = new int[FIRST_ROWS * COLUMNS];
            Arrays.fill(cells, LongIntMap.MISSING);
        } else if (rows * COLUMNS == cells.length) {
            int old = cells.length;
            cells = Arrays.copyOf(cells, old * 2);
            Arrays.fill(cells, old, cells.length, LongIntMap.MISSING);
        }
        return rows++;
    }
}

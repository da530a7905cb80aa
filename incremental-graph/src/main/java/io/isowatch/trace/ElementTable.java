package io.isowatch.trace;

import io.isowatch.collect.LongIntMap;

import java.util.Arrays;

/**
 * What one list-append key knows of each of its elements, as one row of int columns per element:
 * its writer, its position in the version order, the read that revealed it there, and the head
 * of the readers waiting for its writer; plus a flag for intermediate appends.
 *
 * <p>Why rows and not a map (or list) per column: the columns' keys are nearly the same
 * elements, so one row index per element and the columns side by side in one array take less:
 * in a contended 1M-transaction check, 760 bytes in 4 objects a key against 1,220 bytes in
 * about 15. Rows are indexed through {@code claimed}, which takes elements in claim order, so
 * {@link #forEachWriter} visits writers in claim order: the order the edges and findings that
 * follow depend on, which must not change with the layout. Its values carry the intermediate
 * flag in their lowest bit, which spares a set of flags per key. The few
 * elements that need a row before their append is invoked (reads from the future) are indexed by
 * a second map, made when first needed; a later claim reuses their row.
 *
 * <p>An eviction ({@link #evictBelow}) renumbers the transactions the columns name and forgets
 * those below its cut. An element whose writer it forgot stays, unclaimed and marked forgotten
 * (the lowest bit of its value in {@code unclaimed}): its writer will never complete here, so
 * nothing should wait for it, yet it was appended, so it is neither garbage nor free to claim
 * again.
 *
 * <p>Every column reads {@link LongIntMap#MISSING} until set; it cannot be stored. Not
 * thread-safe.
 */
final class ElementTable {

    static final int WRITER = 0;
    static final int POSITION = 1;
    static final int REVEALER = 2;
    static final int WAITING = 3;
    /** A {@link #REVEALER} an eviction forgot. */
    static final int FORGOTTEN = -1;
    private static final int COLUMNS = 4;
    /** Rows the first array holds: most keys see a few dozen elements, doubling from here. */
    private static final int FIRST_ROWS = 8;

    /** What {@link #evictBelow} finds a row to be. */
    private static final byte UNCLAIMED_ROW = 0;
    private static final byte FORGOTTEN_ROW = 1;
    private static final byte CLAIMED_ROW = 2;
    private static final byte INTERMEDIATE_ROW = 3;

    /** Claimed element to {@code row << 1 | intermediate}. */
    private LongIntMap claimed = new LongIntMap();
    /** Element to {@code row << 1 | writerForgotten}, for elements given a row before (or without) a claim. */
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
            unclaimed.put(element, row << 1);
        }
        cells[row * COLUMNS + column] = value;
    }

    /**
     * Records {@code writer} as the appender of the unclaimed {@code element}. Returns false,
     * claiming nothing, when an eviction forgot the element's writer (it was appended before).
     */
    boolean claim(long element, int writer, boolean intermediateAppend) {
        int value = unclaimed == null ? LongIntMap.MISSING : unclaimed.get(element);
        if (value != LongIntMap.MISSING && (value & 1) == 1) {
            return false;
        }
        int row = value == LongIntMap.MISSING ? newRow() : value >>> 1;
        claimed.put(element, row << 1 | (intermediateAppend ? 1 : 0));
        cells[row * COLUMNS + WRITER] = writer;
        return true;
    }

    /** Whether {@code element} was appended by a transaction an eviction forgot. */
    boolean writerForgotten(long element) {
        if (unclaimed == null) {
            return false;
        }
        int value = unclaimed.get(element);
        return value != LongIntMap.MISSING && (value & 1) == 1;
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
        if (unclaimed == null) {
            return LongIntMap.MISSING;
        }
        value = unclaimed.get(element);
        return value == LongIntMap.MISSING ? LongIntMap.MISSING : value >>> 1;
    }

    /**
     * Forgets the transactions below {@code cut} and renumbers the rest by {@code -cut}: a
     * forgotten writer's element becomes unclaimed and marked forgotten, and nothing waits for it
     * any more; a forgotten revealer becomes {@link #FORGOTTEN}; forgotten waiters are dropped,
     * the others move to {@code to} in their order. Rows left with nothing to say are dropped,
     * the rest keep their order. O(rows + waiters).
     */
    void evictBelow(int cut, WaiterPool from, WaiterPool to) {
        int oldRows = rows;
        int[] old = cells;
        long[] elementAt = new long[oldRows];
        byte[] kindAt = new byte[oldRows];
        if (unclaimed != null) {
            unclaimed.forEach((e, v) -> {
                elementAt[v >>> 1] = e;
                kindAt[v >>> 1] = (v & 1) == 1 ? FORGOTTEN_ROW : UNCLAIMED_ROW;
            });
        }
        // A claim keeps its element's earlier unclaimed entry, so claims are read last and win.
        claimed.forEach((e, v) -> {
            elementAt[v >>> 1] = e;
            kindAt[v >>> 1] = (v & 1) == 1 ? INTERMEDIATE_ROW : CLAIMED_ROW;
        });
        // Sized for every old row at once: growing by doubling while copying cost more than the copy.
        claimed = new LongIntMap(claimed.size());
        unclaimed = null;
        cells = null;
        rows = 0;
        if (oldRows > FIRST_ROWS) {
            cells = new int[oldRows * COLUMNS];
            Arrays.fill(cells, LongIntMap.MISSING);
        }
        for (int row = 0; row < oldRows; row++) {
            copyRow(elementAt[row], kindAt[row], old, row * COLUMNS, cut, from, to);
        }
        if (cells != null && rows * COLUMNS * 4L < cells.length) {
            cells = Arrays.copyOf(cells, Math.max(FIRST_ROWS, rows * 2) * COLUMNS); // most rows were dropped
        }
    }

    private void copyRow(long element, byte kind, int[] old, int at, int cut, WaiterPool from, WaiterPool to) {
        int writer = old[at + WRITER];
        boolean claimedRow = kind >= CLAIMED_ROW;
        boolean forgotten = kind == FORGOTTEN_ROW || claimedRow && writer < cut;
        int position = old[at + POSITION];
        int waiting = forgotten ? WaiterPool.END : from.copyFrom(old[at + WAITING], cut, to);
        if (!claimedRow && !forgotten && position == LongIntMap.MISSING && waiting == WaiterPool.END) {
            return; // nothing left to know: no claim, no place in the order, nobody waiting
        }
        int row = newRow();
        if (forgotten) {
            if (unclaimed == null) {
                unclaimed = new LongIntMap();
            }
            unclaimed.put(element, row << 1 | 1);
        } else if (claimedRow) {
            claimed.put(element, row << 1 | (kind == INTERMEDIATE_ROW ? 1 : 0));
            cells[row * COLUMNS + WRITER] = writer - cut;
        } else {
            if (unclaimed == null) {
                unclaimed = new LongIntMap();
            }
            unclaimed.put(element, row << 1);
        }
        cells[row * COLUMNS + POSITION] = position;
        int revealer = old[at + REVEALER];
        if (revealer != LongIntMap.MISSING) {
            cells[row * COLUMNS + REVEALER] = revealer >= cut ? revealer - cut : FORGOTTEN;
        }
        if (waiting != WaiterPool.END) {
            cells[row * COLUMNS + WAITING] = waiting;
        }
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

package io.isowatch.history;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Maps the keys and values of a history to 64-bit atoms and back.
 *
 * <p>An integer is its own atom. A string gets a code from a reserved band at the very bottom of
 * the long range, {@code [Long.MIN_VALUE, Long.MIN_VALUE + 2^40)}; an integer inside that band
 * cannot be represented and is rejected by {@link #ofInteger(long)}. One table serves one
 * history (or one stream); it is not thread-safe.
 */
public final class AtomTable {

    private static final long STRING_BASE = Long.MIN_VALUE;
    private static final long STRING_LIMIT = Long.MIN_VALUE + (1L << 40);

    private final Map<String, Long> codes = new HashMap<>();
    private final List<String> strings = new ArrayList<>();

    /** The atom of an integer key or value. */
    public static long ofInteger(long value) {
        if (value >= STRING_BASE && value < STRING_LIMIT) {
            throw new IllegalArgumentException("integer " + value
                    + " is too small to be checked: values below " + STRING_LIMIT + " are reserved");
        }
        return value;
    }

    /** The atom of a string key or value, allocating a code on first use. */
    public long ofString(String value) {
        Long code = codes.get(value);
        if (code != null) {
            return code;
        }
        long fresh = STRING_BASE + strings.size();
        strings.add(value);
        codes.put(value, fresh);
        return fresh;
    }

    /** How many distinct strings the table holds; 0 means every atom it has handed out is an integer. */
    public int stringCount() {
        return strings.size();
    }

    /** True when the atom stands for a string of this table. */
    public static boolean isString(long atom) {
        return atom >= STRING_BASE && atom < STRING_LIMIT;
    }

    /** The original key or value: a {@link Long} or a {@link String}. */
    public Object valueOf(long atom) {
        if (isString(atom)) {
            int i = (int) (atom - STRING_BASE);
            if (i < strings.size()) {
                return strings.get(i);
            }
            throw new IllegalArgumentException("atom " + atom + " is not a string of this table");
        }
        return atom;
    }

    /** Renders an atom as Jepsen/EDN text: integers bare, strings quoted. */
    public String render(long atom) {
        Object v = valueOf(atom);
        if (v instanceof String s) {
            return '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
        }
        return v.toString();
    }
}

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
 *
 * <p>EDN keywords and symbols get codes from the same band, apart from strings: Elle compares
 * keys and values with Clojure's equality, under which {@code :x}, {@code "x"} and {@code x} are
 * three different keys, so they are three different atoms here too. {@link #valueOf} gives the
 * name of either as a string, which is how formats without keywords (JSON, the agent's binary
 * spool) carry them; {@link #render} writes each back as EDN does.
 */
public final class AtomTable {

    private static final long STRING_BASE = Long.MIN_VALUE;
    private static final long STRING_LIMIT = Long.MIN_VALUE + (1L << 40);

    private static final byte STRING = 0;
    private static final byte KEYWORD = 1;
    private static final byte SYMBOL = 2;

    private final Map<String, Long> codes = new HashMap<>();
    private Map<String, Long> keywordCodes;
    private Map<String, Long> symbolCodes;
    private final List<String> strings = new ArrayList<>();
    /** The kind of each code, once any code is not a string; null while all are strings. */
    private byte[] kinds;

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
        return code != null ? code : fresh(codes, value, STRING);
    }

    /** The atom of an EDN keyword {@code :name} (given without its colon); never a string's atom. */
    public long ofKeyword(String name) {
        if (keywordCodes == null) {
            keywordCodes = new HashMap<>();
        }
        Long code = keywordCodes.get(name);
        return code != null ? code : fresh(keywordCodes, name, KEYWORD);
    }

    /** The atom of an EDN symbol {@code name}; never a string's or a keyword's atom. */
    public long ofSymbol(String name) {
        if (symbolCodes == null) {
            symbolCodes = new HashMap<>();
        }
        Long code = symbolCodes.get(name);
        return code != null ? code : fresh(symbolCodes, name, SYMBOL);
    }

    private long fresh(Map<String, Long> byText, String text, byte kind) {
        int i = strings.size();
        if (kind != STRING && kinds == null) {
            kinds = new byte[Math.max(16, i * 2)];
        }
        if (kinds != null) {
            if (i == kinds.length) {
                kinds = java.util.Arrays.copyOf(kinds, i * 2);
            }
            kinds[i] = kind;
        }
        long fresh = STRING_BASE + i;
        strings.add(text);
        byText.put(text, fresh);
        return fresh;
    }

    /** What a string-band atom stands for: Elle tells the three apart (see the class comment). */
    public enum Kind { STRING, KEYWORD, SYMBOL }

    /** The atom of a name of the given kind, allocating a code on first use. */
    public long of(Kind kind, String name) {
        return switch (kind) {
            case STRING -> ofString(name);
            case KEYWORD -> ofKeyword(name);
            case SYMBOL -> ofSymbol(name);
        };
    }

    /** The kind of a string, keyword or symbol atom of this table. */
    public Kind kindOf(long atom) {
        if (!isString(atom)) {
            throw new IllegalArgumentException("atom " + atom + " is an integer, not a string, keyword or symbol");
        }
        valueOf(atom); // rejects an atom of another table
        return kinds == null ? Kind.STRING : Kind.values()[kinds[(int) (atom - STRING_BASE)]];
    }

    /** How many distinct strings, keywords and symbols the table holds; 0 means every atom it has handed out is an integer. */
    public int stringCount() {
        return strings.size();
    }

    /** True when the atom stands for a string of this table. */
    public static boolean isString(long atom) {
        return atom >= STRING_BASE && atom < STRING_LIMIT;
    }

    /** The original key or value: a {@link Long}, or a {@link String} (a keyword's or symbol's name). */
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

    /** Renders an atom as Jepsen/EDN text: integers and symbols bare, strings quoted, keywords with their colon. */
    public String render(long atom) {
        Object v = valueOf(atom);
        if (v instanceof String s) {
            byte kind = kinds == null ? STRING : kinds[(int) (atom - STRING_BASE)];
            return switch (kind) {
                case KEYWORD -> ":" + s;
                case SYMBOL -> s;
                default -> '"' + s.replace("\\", "\\\\").replace("\"", "\\\"") + '"';
            };
        }
        return v.toString();
    }
}

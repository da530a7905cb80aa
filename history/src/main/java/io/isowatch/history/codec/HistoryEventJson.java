package io.isowatch.history.codec;

import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * Renders a {@link HistoryEvent} as one Jepsen op map in JSON (UTF-8, no trailing newline), the
 * value of each Kafka record:
 * {@code {"index":3,"time":120,"type":"ok","process":1,"f":"txn","value":[["append",5,1],["r",6,[1]]],"agent":"a1","seq":3}}.
 *
 * <p>The one writer of ops as JSON: the op fields come first, in the order index, time, type,
 * process, f, value ({@code time} left out when unknown, reads always as a list or null);
 * {@code agent} and {@code seq} carry the event's identity at the end, followed by
 * {@code history} when the event names its history ({@link HistoryEvent#namesHistory}: one
 * recorded by several agents together). {@link HistoryReader} ignores those three, so records concatenated with newlines form a readable history, and
 * {@link JsonLinesWriter} writes its lines with {@link #writeLine} without them. The findings
 * JSON ({@code io.isowatch.explain.FindingJson}) takes its ops, micro-ops, read values and atoms
 * from {@link #op}, {@link #microOp}, {@link #readValue} and {@link #atom}, which differ only in
 * that they may print reads in Elle's rw-register notation, as elle-cli does. Keywords and
 * symbols go out as strings, their names ({@link AtomTable#valueOf}); a string escapes quotes,
 * backslashes and control characters, with upper-case hex in backslash-u escapes as Jackson
 * writes them, so the findings JSON kept its bytes when it moved to this writer. A hand-written
 * writer rather than a JSON library: this runs once per shipped or written event, and a reused
 * buffer keeps it allocation-free apart from {@link #render}'s returned array.
 *
 * <p>Not thread-safe; one per shipper thread.
 */
public final class HistoryEventJson {

    private static final byte[] HEX = "0123456789ABCDEF".getBytes(StandardCharsets.US_ASCII);

    private byte[] buf = new byte[512];
    private int len;

    /**
     * Renders the event, with string atoms taken from {@code atoms}.
     *
     * @throws IllegalArgumentException when a string atom is unknown to {@code atoms}
     */
    public byte[] render(HistoryEvent event, AtomTable atoms) {
        len = 0;
        opFields(event.op(), atoms, false);
        ascii(",\"agent\":");
        string(event.source());
        ascii(",\"seq\":");
        number(event.sequence());
        if (event.namesHistory()) {
            ascii(",\"history\":");
            string(event.history());
        }
        put('}');
        return Arrays.copyOf(buf, len);
    }

    /**
     * Writes the op as one JSON line (its fields only, then a newline) to {@code out}.
     *
     * @throws IllegalArgumentException when a string atom is unknown to {@code atoms}
     */
    public void writeLine(Op op, AtomTable atoms, OutputStream out) throws IOException {
        len = 0;
        opFields(op, atoms, false);
        put('}');
        put('\n');
        out.write(buf, 0, len);
    }

    /**
     * The op as one JSON object (its fields only, no newline), for a larger document. With
     * {@code registerReads} its reads print as {@link #readValue} prints them.
     *
     * @throws IllegalArgumentException when a string atom is unknown to {@code atoms}
     */
    public String op(Op op, AtomTable atoms, boolean registerReads) {
        len = 0;
        opFields(op, atoms, registerReads);
        put('}');
        return text();
    }

    /**
     * A micro-op as a JSON array: {@code ["append",k,v]}, {@code ["w",k,v]} or {@code ["r",k,..]}
     * with the read's value as {@link #readValue} prints it.
     *
     * @throws IllegalArgumentException when a string atom is unknown to {@code atoms}
     */
    public String microOp(MicroOp m, AtomTable atoms, boolean registerReads) {
        len = 0;
        putMicroOp(m, atoms, registerReads);
        return text();
    }

    /**
     * What a read saw: {@code null} when unknown, else the list. With {@code registerReads}, as
     * Elle prints an rw-register read: {@code null} also for the initial state (an empty list),
     * and one value bare rather than in a list.
     *
     * @throws IllegalArgumentException when a string atom is unknown to {@code atoms}
     */
    public String readValue(long[] values, AtomTable atoms, boolean registerReads) {
        len = 0;
        putReadValue(values, atoms, registerReads);
        return text();
    }

    /**
     * A key or value: a JSON number, or a JSON string for a string atom.
     *
     * @throws IllegalArgumentException when a string atom is unknown to {@code atoms}
     */
    public String atom(long atom, AtomTable atoms) {
        len = 0;
        putAtom(atom, atoms);
        return text();
    }

    /** The buffer as text; it holds ASCII and whole UTF-8 sequences only. */
    private String text() {
        return new String(buf, 0, len, StandardCharsets.UTF_8);
    }

    /** The op's object up to, not including, its closing brace. */
    private void opFields(Op op, AtomTable atoms, boolean registerReads) {
        ascii("{\"index\":");
        number(op.index());
        if (op.time() != -1) {
            ascii(",\"time\":");
            number(op.time());
        }
        ascii(",\"type\":\"");
        ascii(op.type().jepsenName());
        ascii("\",\"process\":");
        number(op.process());
        ascii(",\"f\":\"txn\",\"value\":[");
        boolean first = true;
        for (MicroOp m : op.value()) {
            if (!first) {
                put(',');
            }
            first = false;
            putMicroOp(m, atoms, registerReads);
        }
        put(']');
    }

    private void putMicroOp(MicroOp m, AtomTable atoms, boolean registerReads) {
        if (m instanceof MicroOp.Append a) {
            ascii("[\"append\",");
            putAtom(a.key(), atoms);
            put(',');
            putAtom(a.value(), atoms);
        } else if (m instanceof MicroOp.Write w) {
            ascii("[\"w\",");
            putAtom(w.key(), atoms);
            put(',');
            putAtom(w.value(), atoms);
        } else {
            MicroOp.Read r = (MicroOp.Read) m;
            ascii("[\"r\",");
            putAtom(r.key(), atoms);
            put(',');
            putReadValue(r.values(), atoms, registerReads);
        }
        put(']');
    }

    private void putReadValue(long[] values, AtomTable atoms, boolean registerReads) {
        if (values == null || registerReads && values.length == 0) {
            ascii("null");
        } else if (registerReads && values.length == 1) {
            putAtom(values[0], atoms);
        } else {
            put('[');
            for (int i = 0; i < values.length; i++) {
                if (i > 0) {
                    put(',');
                }
                putAtom(values[i], atoms);
            }
            put(']');
        }
    }

    private void putAtom(long atom, AtomTable atoms) {
        if (AtomTable.isString(atom)) {
            string((String) atoms.valueOf(atom));
        } else {
            number(atom);
        }
    }

    private void ascii(String s) {
        ensure(s.length());
        for (int i = 0; i < s.length(); i++) {
            buf[len++] = (byte) s.charAt(i);
        }
    }

    private void put(char c) {
        ensure(1);
        buf[len++] = (byte) c;
    }

    private void number(long v) {
        if (v == Long.MIN_VALUE) {
            ascii("-9223372036854775808");
            return;
        }
        ensure(20);
        if (v < 0) {
            buf[len++] = '-';
            v = -v;
        }
        int start = len;
        do {
            buf[len++] = (byte) ('0' + (int) (v % 10));
            v /= 10;
        } while (v != 0);
        for (int i = start, j = len - 1; i < j; i++, j--) {
            byte t = buf[i];
            buf[i] = buf[j];
            buf[j] = t;
        }
    }

    /** A JSON string: quotes, backslashes and control characters escaped; the rest as UTF-8. */
    private void string(String s) {
        ensure(s.length() * 6 + 2);
        buf[len++] = '"';
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c == '"' || c == '\\') {
                buf[len++] = '\\';
                buf[len++] = (byte) c;
            } else if (c < 0x20) {
                shortEscapeOrHex(c);
            } else if (c < 0x80) {
                buf[len++] = (byte) c;
            } else if (c < 0x800) {
                buf[len++] = (byte) (0xC0 | c >> 6);
                buf[len++] = (byte) (0x80 | c & 0x3F);
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length() && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                buf[len++] = (byte) (0xF0 | cp >> 18);
                buf[len++] = (byte) (0x80 | cp >> 12 & 0x3F);
                buf[len++] = (byte) (0x80 | cp >> 6 & 0x3F);
                buf[len++] = (byte) (0x80 | cp & 0x3F);
            } else if (Character.isSurrogate(c)) {
                escape(c); // a lone surrogate has no UTF-8 form; a JSON backslash-u escape keeps it
            } else {
                buf[len++] = (byte) (0xE0 | c >> 12);
                buf[len++] = (byte) (0x80 | c >> 6 & 0x3F);
                buf[len++] = (byte) (0x80 | c & 0x3F);
            }
        }
        buf[len++] = '"';
    }

    /** JSON's two-character escapes where it has one ({@code \n}, {@code \t}, ...), else a backslash-u escape. */
    private void shortEscapeOrHex(char c) {
        char shortForm = switch (c) {
            case '\n' -> 'n';
            case '\r' -> 'r';
            case '\t' -> 't';
            case '\b' -> 'b';
            case '\f' -> 'f';
            default -> 0;
        };
        if (shortForm == 0) {
            escape(c);
        } else {
            buf[len++] = '\\';
            buf[len++] = (byte) shortForm;
        }
    }

    private void escape(char c) {
        buf[len++] = '\\';
        buf[len++] = 'u';
        buf[len++] = HEX[c >> 12 & 0xF];
        buf[len++] = HEX[c >> 8 & 0xF];
        buf[len++] = HEX[c >> 4 & 0xF];
        buf[len++] = HEX[c & 0xF];
    }

    private void ensure(int more) {
        if (len + more > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
        }
    }
}

package io.isowatch.history.codec;

import io.isowatch.history.AtomTable;
import io.isowatch.history.HistoryEvent;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Arrays;

/**
 * Renders a {@link HistoryEvent} as one Jepsen op map in JSON (UTF-8, no trailing newline), the
 * value of each Kafka record:
 * {@code {"index":3,"time":120,"type":"ok","process":1,"f":"txn","value":[["append",5,1],["r",6,[1]]],"agent":"a1","seq":3}}.
 *
 * <p>The one writer of ops as JSON: the op fields come first, in the order index, time, type,
 * process, f, value ({@code time} left out when unknown, reads always as a list or null);
 * {@code agent} and {@code seq} carry the event's identity at the end. {@link HistoryReader}
 * ignores those two, so records concatenated with newlines form a readable history, and
 * {@link JsonLinesWriter} writes its lines with {@link #writeLine} without them. Keywords and
 * symbols go out as strings, their names ({@link AtomTable#valueOf}). A hand-written writer
 * rather than a JSON library: this runs once per shipped or written event, and a reused buffer
 * keeps it allocation-free apart from {@link #render}'s returned array.
 *
 * <p>Not thread-safe; one per shipper thread.
 */
public final class HistoryEventJson {

    private static final byte[] HEX = "0123456789abcdef".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private byte[] buf = new byte[512];
    private int len;

    /**
     * Renders the event, with string atoms taken from {@code atoms}.
     *
     * @throws IllegalArgumentException when a string atom is unknown to {@code atoms}
     */
    public byte[] render(HistoryEvent event, AtomTable atoms) {
        len = 0;
        opFields(event.op(), atoms);
        ascii(",\"agent\":");
        string(event.source());
        ascii(",\"seq\":");
        number(event.sequence());
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
        opFields(op, atoms);
        put('}');
        put('\n');
        out.write(buf, 0, len);
    }

    /** The op's object up to, not including, its closing brace. */
    private void opFields(Op op, AtomTable atoms) {
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
            microOp(m, atoms);
        }
        put(']');
    }

    private void microOp(MicroOp m, AtomTable atoms) {
        if (m instanceof MicroOp.Append a) {
            ascii("[\"append\",");
            atom(a.key(), atoms);
            put(',');
            atom(a.value(), atoms);
        } else if (m instanceof MicroOp.Write w) {
            ascii("[\"w\",");
            atom(w.key(), atoms);
            put(',');
            atom(w.value(), atoms);
        } else {
            MicroOp.Read r = (MicroOp.Read) m;
            ascii("[\"r\",");
            atom(r.key(), atoms);
            long[] values = r.values();
            if (values == null) {
                ascii(",null");
            } else {
                ascii(",[");
                for (int i = 0; i < values.length; i++) {
                    if (i > 0) {
                        put(',');
                    }
                    atom(values[i], atoms);
                }
                put(']');
            }
        }
        put(']');
    }

    private void atom(long atom, AtomTable atoms) {
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

package io.isowatch.history.codec;

import io.isowatch.history.OpType;

import java.nio.charset.StandardCharsets;

/**
 * Decodes one line of JSON lines holding one op map, straight from its bytes into an
 * {@link OpBuilder}, for the shape nearly every line of a history has: ASCII, no escapes,
 * integer or plain-string keys and values, well-formed micro-ops.
 *
 * <p>It decides only what it is sure of. Anything else — an escape, a non-ASCII byte, a number
 * that is not a plain integer of at most 18 digits, a duplicate field, a value that is not a
 * list of well-formed micro-ops, any fault at all, a second value on the line — makes it answer
 * {@link #UNSURE}, and the caller hands the line to the general JSON reader, which decides
 * everything (and words every error) as it always has. So this scanner adds speed, never a rule:
 * on the lines it accepts it calls the builder exactly as {@link JsonOpReader} would. Unknown
 * fields are skipped, but only when they are JSON the general reader would accept too (strict
 * numbers, literals, strings and nesting). Allocates nothing but string atoms it has not seen.
 */
final class JsonLineScanner {

    /** The line held one op map, now in the builder; the caller finishes it. */
    static final int OP = 0;
    /** The line held only whitespace. */
    static final int BLANK = 1;
    /** The line needs the general reader. */
    static final int UNSURE = 2;

    /**
     * Digits any long holds without overflow; from the 19th on each digit is checked, so times in
     * nanoseconds since the epoch (19 digits, as the agent stamps them) stay on the fast path.
     */
    private static final int SAFE_DIGITS = 18;
    private static final int MAX_DEPTH = 64;

    private static final int APPEND = 0;
    private static final int READ = 1;
    private static final int WRITE = 2;

    private static final int F_INDEX = 1;
    private static final int F_TIME = 2;
    private static final int F_TYPE = 4;
    private static final int F_PROCESS = 8;
    private static final int F_VALUE = 16;
    private static final int F_AGENT = 32;
    private static final int F_SEQ = 64;
    private static final int F_HISTORY = 128;

    /** Thrown, without a stack trace, to leave a line the scanner is not sure of. */
    private static final class Unsure extends RuntimeException {
        Unsure() {
            super(null, null, false, false);
        }
    }

    private static final Unsure NOT_SURE = new Unsure();

    private final OpBuilder ops;
    /** Where the shipper's {@code agent}, {@code seq} and {@code history} go; null when nobody wants them (then they are skipped). */
    private final ShippedIdentity identity;
    private byte[] b;
    private int p;
    private int end;
    private long lineNumber;

    JsonLineScanner(OpBuilder ops, ShippedIdentity identity) {
        this.ops = ops;
        this.identity = identity;
    }

    /**
     * Scans {@code bytes[start, end)}, one line without its {@code \n}, the {@code line}-th of the
     * input: {@link #OP}, {@link #BLANK} or {@link #UNSURE}.
     */
    int scan(byte[] bytes, int start, int stop, long line) {
        at(bytes, start, stop, line);
        try {
            skipSpace();
            if (p == end) {
                return BLANK;
            }
            if (b[p] != '{') {
                return UNSURE;
            }
            opMap(start);
            return p == end ? OP : UNSURE;
        } catch (Unsure e) {
            return UNSURE;
        }
    }

    /**
     * Scans the line that starts at {@code bytes[start]} without knowing yet where it ends, so
     * that the bytes are read once rather than searched for the line break first: returns the
     * line's end (its {@code \n}, or {@code stop} when {@code stopEndsInput}) when the line holds
     * one op map, now in the builder, as {@link #scan} would have taken it; -1 when the caller
     * must find the line's end and {@link #scan} it (a blank line, anything unsure, a line
     * running past {@code stop}). The grammar accepts no line break within a value, so the scan
     * cannot run past the line.
     */
    int scanToLineEnd(byte[] bytes, int start, int stop, boolean stopEndsInput, long line) {
        at(bytes, start, stop, line);
        try {
            skipSpace();
            if (p == end || b[p] != '{') {
                return -1;
            }
            opMap(start);
            if (p < end && b[p] == '\n') {
                return p;
            }
            // A carriage return ends a line only just before its \n, as in scan().
            if (p + 1 < end && b[p] == '\r' && b[p + 1] == '\n') {
                return p + 1;
            }
            return p == end && stopEndsInput ? p : -1;
        } catch (Unsure e) {
            return -1;
        }
    }

    private void at(byte[] bytes, int start, int stop, long line) {
        b = bytes;
        p = start;
        end = stop;
        lineNumber = line;
    }

    /** The op map whose brace is at {@code p}, into the builder, and the space after it. */
    private void opMap(int lineStart) {
        ops.begin(lineNumber, p - lineStart + 1);
        if (identity != null) {
            identity.clear();
        }
        p++;
        readFields();
        skipSpace();
    }

    private void readFields() {
        int seen = 0;
        skipSpace();
        if (peek() == '}') {
            p++;
            return;
        }
        while (true) {
            int field = fieldName();
            skipSpace();
            expect(':');
            skipSpace();
            if (field != 0) {
                if ((seen & field) != 0) {
                    throw NOT_SURE;
                }
                seen |= field;
            }
            switch (field) {
                case F_INDEX -> {
                    if (!literalNull()) {
                        ops.index(plainInteger());
                    }
                }
                case F_TIME -> {
                    if (!literalNull()) {
                        ops.time(plainInteger());
                    }
                }
                case F_TYPE -> ops.type(opType());
                case F_PROCESS -> process();
                case F_VALUE -> value();
                case F_AGENT -> {
                    int from = plainString();
                    identity.agent(new String(b, from, p - 1 - from, StandardCharsets.US_ASCII));
                }
                case F_SEQ -> {
                    long seq = plainInteger();
                    if (seq < 0) {
                        throw NOT_SURE;
                    }
                    identity.seq(seq);
                }
                case F_HISTORY -> {
                    int from = plainString();
                    identity.history(new String(b, from, p - 1 - from, StandardCharsets.US_ASCII));
                }
                default -> skipValue(0);
            }
            skipSpace();
            byte c = next();
            if (c == '}') {
                return;
            }
            if (c != ',') {
                throw NOT_SURE;
            }
            skipSpace();
        }
    }

    /**
     * The field's bit for the five fields the op is made of and, when someone wants them, the
     * shipper's three; 0 for any other (valid) name.
     */
    private int fieldName() {
        int from = plainString();
        int length = p - 1 - from;
        if (same(from, length, "index")) {
            return F_INDEX;
        }
        if (same(from, length, "time")) {
            return F_TIME;
        }
        if (same(from, length, "type")) {
            return F_TYPE;
        }
        if (same(from, length, "process")) {
            return F_PROCESS;
        }
        if (same(from, length, "value")) {
            return F_VALUE;
        }
        if (identity != null && same(from, length, "agent")) {
            return F_AGENT;
        }
        if (identity != null && same(from, length, "seq")) {
            return F_SEQ;
        }
        if (identity != null && same(from, length, "history")) {
            return F_HISTORY;
        }
        return 0;
    }

    private OpType opType() {
        int from = plainString();
        int length = p - 1 - from;
        if (length > 0 && b[from] == ':') {
            from++;
            length--;
        }
        if (same(from, length, "ok")) {
            return OpType.OK;
        }
        if (same(from, length, "invoke")) {
            return OpType.INVOKE;
        }
        if (same(from, length, "fail")) {
            return OpType.FAIL;
        }
        if (same(from, length, "info")) {
            return OpType.INFO;
        }
        throw NOT_SURE;
    }

    /** Jepsen's {@code client-op?}: an integer process is a client; any other valid value is not. */
    private void process() {
        byte c = peek();
        if (c == '-' || (c >= '0' && c <= '9')) {
            ops.clientProcess(plainInteger());
        } else {
            skipValue(0);
            ops.nonClientProcess();
        }
    }

    private void value() {
        if (literalNull()) {
            ops.beginValue();
            return;
        }
        expect('[');
        ops.beginValue();
        skipSpace();
        if (peek() == ']') {
            p++;
            return;
        }
        int position = 0;
        while (true) {
            microOp(++position);
            skipSpace();
            byte c = next();
            if (c == ']') {
                return;
            }
            if (c != ',') {
                throw NOT_SURE;
            }
            skipSpace();
        }
    }

    private void microOp(int position) {
        expect('[');
        skipSpace();
        int kind = microOpKind();
        comma();
        long key = atom(position);
        comma();
        switch (kind) {
            case APPEND -> ops.append(key, atom(position));
            case WRITE -> ops.write(key, atom(position));
            default -> readResult(key, position);
        }
        skipSpace();
        expect(']');
    }

    private int microOpKind() {
        int from = plainString();
        int length = p - 1 - from;
        if (length > 0 && b[from] == ':') {
            from++;
            length--;
        }
        if (same(from, length, "append")) {
            return APPEND;
        }
        if (same(from, length, "r")) {
            return READ;
        }
        if (same(from, length, "w")) {
            return WRITE;
        }
        throw NOT_SURE;
    }

    private void readResult(long key, int position) {
        byte c = peek();
        if (c == 'n') {
            if (!literalNull()) {
                throw NOT_SURE;
            }
            ops.readUnknown(key);
        } else if (c == '[') {
            p++;
            ops.beginReadList();
            skipSpace();
            if (peek() == ']') {
                p++;
            } else if (!plainElements()) {
                while (true) {
                    ops.readElement(atom(position));
                    skipSpace();
                    byte d = next();
                    if (d == ']') {
                        break;
                    }
                    if (d != ',') {
                        throw NOT_SURE;
                    }
                    skipSpace();
                }
            }
            ops.endReadList(key);
        } else {
            ops.readScalar(key, atom(position));
        }
    }

    /**
     * The elements of a list read in the shape nearly every read has, {@code 1,2,3]}: integers
     * of 1 to 18 digits, without sign, leading zero or space, each followed by a comma or the
     * closing bracket. Such an integer is its own atom (only negative ones can fall in the band
     * reserved for strings). Runs one loop over the bytes instead of the general steps per
     * element. Returns true past the bracket; false, at the element it did not take, for the
     * general loop to go on from there.
     */
    private boolean plainElements() {
        byte[] bytes = b;
        int i = p;
        int stop = end;
        while (true) {
            int from = i;
            long value = 0;
            while (i < stop) {
                int d = bytes[i] - '0';
                if (d < 0 || d > 9) {
                    break;
                }
                value = value * 10 + d;
                i++;
            }
            int digits = i - from;
            if (digits == 0 || digits > SAFE_DIGITS || (digits > 1 && bytes[from] == '0') || i == stop) {
                p = from;
                return false;
            }
            byte c = bytes[i];
            if (c == ',') {
                ops.readElement(value);
                i++;
            } else if (c == ']') {
                ops.readElement(value);
                p = i + 1;
                return true;
            } else {
                p = from;
                return false;
            }
        }
    }

    /** An integer or plain-string key or value. */
    private long atom(int position) {
        byte c = peek();
        if (c == '"') {
            int from = plainString();
            return ops.stringAtom(new String(b, from, p - 1 - from, StandardCharsets.US_ASCII));
        }
        long value = plainInteger();
        try {
            return ops.integerAtom(value, lineNumber, -1, position);
        } catch (HistoryFormatException e) {
            throw NOT_SURE;
        }
    }

    /** {@code ,} between the parts of a micro-op, with space around it. */
    private void comma() {
        skipSpace();
        expect(',');
        skipSpace();
    }

    /**
     * A JSON integer as Jackson reads one ({@code -?(0|[1-9][0-9]*)}), of at most 18 digits so
     * it fits a long, followed by a delimiter rather than a fraction or an exponent.
     */
    private long plainInteger() {
        // Locals rather than fields in the loop: this runs for every key, element and time.
        byte[] bytes = b;
        int i = p;
        int stop = end;
        boolean negative = i < stop && bytes[i] == '-';
        if (negative) {
            i++;
        }
        int from = i;
        long value = 0;
        while (i < stop) {
            int d = bytes[i] - '0';
            if (d < 0 || d > 9) {
                break;
            }
            if (i - from >= SAFE_DIGITS && value > (Long.MAX_VALUE - d) / 10) {
                throw NOT_SURE; // beyond a long (Long.MIN_VALUE too): the general reader words it
            }
            value = value * 10 + d;
            i++;
        }
        p = i;
        int digits = i - from;
        if (digits == 0 || (bytes[from] == '0' && digits > 1)) {
            throw NOT_SURE;
        }
        endOfScalar();
        return negative ? -value : value;
    }

    /** True, past it, when a {@code null} literal is next. */
    private boolean literalNull() {
        if (p + 4 <= end && b[p] == 'n' && b[p + 1] == 'u' && b[p + 2] == 'l' && b[p + 3] == 'l') {
            p += 4;
            endOfScalar();
            return true;
        }
        return false;
    }

    /**
     * A string of printable ASCII without escapes; returns where its text starts, leaving
     * {@code p} past the closing quote (so the text is {@code [from, p - 1)}).
     */
    private int plainString() {
        expect('"');
        byte[] bytes = b;
        int from = p;
        int stop = end;
        for (int i = from; i < stop; i++) {
            byte c = bytes[i];
            if (c == '"') {
                p = i + 1;
                return from;
            }
            // Bytes are signed: anything from 0x80 up (non-ASCII) is negative and lands here too.
            if (c < 0x20 || c == '\\') {
                throw NOT_SURE;
            }
        }
        throw NOT_SURE;
    }

    /** Skips one JSON value the general reader would accept as well; anything doubtful is unsure. */
    private void skipValue(int depth) {
        if (depth > MAX_DEPTH) {
            throw NOT_SURE;
        }
        byte c = peek();
        switch (c) {
            case '"' -> plainString();
            case '[' -> {
                p++;
                skipSpace();
                if (peek() == ']') {
                    p++;
                    return;
                }
                while (true) {
                    skipValue(depth + 1);
                    skipSpace();
                    byte d = next();
                    if (d == ']') {
                        return;
                    }
                    if (d != ',') {
                        throw NOT_SURE;
                    }
                    skipSpace();
                }
            }
            case '{' -> {
                p++;
                skipSpace();
                if (peek() == '}') {
                    p++;
                    return;
                }
                while (true) {
                    plainString();
                    skipSpace();
                    expect(':');
                    skipSpace();
                    skipValue(depth + 1);
                    skipSpace();
                    byte d = next();
                    if (d == '}') {
                        return;
                    }
                    if (d != ',') {
                        throw NOT_SURE;
                    }
                    skipSpace();
                }
            }
            case 't' -> literal("true");
            case 'f' -> literal("false");
            case 'n' -> literal("null");
            default -> skipNumber();
        }
    }

    private void literal(String word) {
        for (int i = 0; i < word.length(); i++) {
            if (next() != word.charAt(i)) {
                throw NOT_SURE;
            }
        }
        endOfScalar();
    }

    /** A JSON number: {@code -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)?}. */
    private void skipNumber() {
        if (peek() == '-') {
            p++;
        }
        int from = p;
        int digits = digits();
        if (digits == 0 || (b[from] == '0' && digits > 1)) {
            throw NOT_SURE;
        }
        if (p < end && b[p] == '.') {
            p++;
            if (digits() == 0) {
                throw NOT_SURE;
            }
        }
        if (p < end && (b[p] == 'e' || b[p] == 'E')) {
            p++;
            if (p < end && (b[p] == '+' || b[p] == '-')) {
                p++;
            }
            if (digits() == 0) {
                throw NOT_SURE;
            }
        }
        endOfScalar();
    }

    private int digits() {
        int from = p;
        while (p < end && b[p] >= '0' && b[p] <= '9') {
            p++;
        }
        return p - from;
    }

    /** A number or literal must be followed by a delimiter, as Jackson requires. */
    private void endOfScalar() {
        if (p == end) {
            return;
        }
        byte c = b[p];
        if (c != ',' && c != ']' && c != '}' && c != ' ' && c != '\t' && c != '\r') {
            throw NOT_SURE;
        }
    }

    /**
     * Spaces and tabs; a carriage return only as the line's last byte (before its newline).
     * Small enough for the JIT to inline at each of its many calls, even under the launcher's
     * inlining limits; the loop runs only where there is space, which most histories never have.
     */
    private void skipSpace() {
        if (p < end && b[p] <= ' ') {
            skipSpaceRun();
        }
    }

    private void skipSpaceRun() {
        while (p < end) {
            byte c = b[p];
            if (c == ' ' || c == '\t') {
                p++;
            } else if (c == '\r' && p == end - 1) {
                p++;
            } else {
                return;
            }
        }
    }

    private byte peek() {
        if (p >= end) {
            throw NOT_SURE;
        }
        return b[p];
    }

    private byte next() {
        if (p >= end) {
            throw NOT_SURE;
        }
        return b[p++];
    }

    private void expect(char c) {
        if (next() != c) {
            throw NOT_SURE;
        }
    }

    private boolean same(int from, int length, String s) {
        if (length != s.length()) {
            return false;
        }
        for (int i = 0; i < length; i++) {
            if (b[from + i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }
}

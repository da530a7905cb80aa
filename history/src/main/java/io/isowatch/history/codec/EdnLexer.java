package io.isowatch.history.codec;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * A pull tokenizer for the subset of EDN that Jepsen histories use, reading UTF-8 bytes from a
 * stream through a fixed buffer.
 *
 * <p>It understands maps, vectors, lists, sets, strings, keywords, symbols ({@code nil},
 * {@code true}, {@code false} among them), integers (with an optional {@code N}), other numbers
 * (floats, ratios: returned as {@link Token#OTHER_NUMBER}, never interpreted), characters,
 * comments, commas as whitespace, {@code #_} discards and tagged elements such as
 * {@code #inst "..."} or {@code #jepsen.history.Op{...}}, whose tag is dropped. Brackets are
 * checked for balance as they come, so {@link #depth()} can be trusted when skipping. Memory is
 * bounded by the buffer and the longest single token; cost is linear in the input.
 *
 * <p>The class is longer than most here because buffer handling, position tracking and string
 * decoding share the same few fields on the hot path; splitting them would only add indirection.
 */
final class EdnLexer {

    enum Token {
        EOF, MAP_START, SET_START, VECTOR_START, LIST_START, MAP_END, VECTOR_END, LIST_END,
        STRING, KEYWORD, SYMBOL, NIL, TRUE, FALSE, INTEGER, BIG_INTEGER, OTHER_NUMBER, CHARACTER;

        boolean isOpen() {
            return this == MAP_START || this == SET_START || this == VECTOR_START || this == LIST_START;
        }

        boolean isClose() {
            return this == MAP_END || this == VECTOR_END || this == LIST_END;
        }
    }

    /** Bytes that may continue a symbol, keyword or number: all but whitespace, brackets, quote and ';'. */
    private static final boolean[] SYMBOL_CHAR = symbolChars();

    private final InputStream in;
    private final String sourceName;
    private final byte[] buf = new byte[1 << 16];
    private int pos;
    private int limit;
    private long bufferStart;
    private boolean bomChecked;

    private long line = 1;
    private long lineStart;
    private long tokenLine = 1;
    private int tokenColumn = 1;

    private byte[] text = new byte[64];
    private int textLength;
    private long integer;

    private byte[] closers = new byte[16];
    private long[] openerLines = new long[16];
    private int depth;

    EdnLexer(String sourceName, InputStream in) {
        this.sourceName = sourceName;
        this.in = in;
    }

    /** The next token; tags and discarded forms are consumed silently. */
    Token next() {
        for (;;) {
            int c = skipBlank();
            tokenLine = line;
            tokenColumn = (int) (bufferStart + pos - lineStart) + 1;
            if (c < 0) {
                if (depth > 0) {
                    throw fault("unexpected end of input: the " + opener(closers[depth - 1])
                            + " opened on line " + openerLines[depth - 1] + " is never closed");
                }
                return Token.EOF;
            }
            pos++;
            switch (c) {
                case '{': push('}'); return Token.MAP_START;
                case '[': push(']'); return Token.VECTOR_START;
                case '(': push(')'); return Token.LIST_START;
                case '}': pop(c); return Token.MAP_END;
                case ']': pop(c); return Token.VECTOR_END;
                case ')': pop(c); return Token.LIST_END;
                case '"': readString(); return Token.STRING;
                case ':':
                    textLength = 0;
                    readSymbolRest();
                    if (textLength == 0) {
                        throw fault("a ':' must start a keyword");
                    }
                    return Token.KEYWORD;
                case '\\':
                    readCharacter();
                    return Token.CHARACTER;
                case '#': {
                    int d = peek();
                    if (d == '{') {
                        pos++;
                        push('}');
                        return Token.SET_START;
                    }
                    if (d == '_') {
                        pos++;
                        skipForm(next());
                        continue;
                    }
                    textLength = 0;
                    if (d == '#') {
                        pos++;
                        readSymbolRest();
                        return Token.OTHER_NUMBER;
                    }
                    if (isSymbolChar(d)) {
                        readSymbolRest();
                        continue;
                    }
                    throw fault("unexpected " + describeByte(d) + " after '#'");
                }
                default:
                    if (isSymbolChar(c)) {
                        textLength = 0;
                        appendText(c);
                        readSymbolRest();
                        boolean numeric = c >= '0' && c <= '9'
                                || (c == '+' || c == '-') && textLength > 1 && text[1] >= '0' && text[1] <= '9';
                        return numeric ? number() : symbol();
                    }
                    throw fault("unexpected " + describeByte(c));
            }
        }
    }

    /** Skips the rest of the form that begins with {@code first}; a no-op for a scalar. */
    void skipForm(Token first) {
        if (first.isClose()) {
            throw fault("expected a value, found " + describe(first));
        }
        if (first.isOpen()) {
            skipToDepth(depth - 1);
        }
    }

    /** Consumes tokens until the bracket depth falls to {@code target}. */
    void skipToDepth(int target) {
        while (depth > target) {
            next();
        }
    }

    /** The number of brackets open after the current token. */
    int depth() {
        return depth;
    }

    long tokenLine() {
        return tokenLine;
    }

    int tokenColumn() {
        return tokenColumn;
    }

    /** The value of an {@link Token#INTEGER}. */
    long integer() {
        return integer;
    }

    /** The text of a string, keyword (without its colon), symbol or number token. */
    String text() {
        return new String(text, 0, textLength, StandardCharsets.UTF_8);
    }

    /** True when the current token's text is the ASCII {@code s}, ignoring one leading colon. */
    boolean textIs(String s) {
        int off = textLength > 0 && text[0] == ':' ? 1 : 0;
        if (textLength - off != s.length()) {
            return false;
        }
        for (int i = 0; i < s.length(); i++) {
            if (text[off + i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The current token as a message shows it. */
    String describe(Token t) {
        return switch (t) {
            case EOF -> "the end of input";
            case MAP_START -> "a map";
            case SET_START -> "a set";
            case VECTOR_START -> "a vector";
            case LIST_START -> "a list";
            case MAP_END -> "}";
            case VECTOR_END -> "]";
            case LIST_END -> ")";
            case STRING -> CodecMessages.quote(text());
            default -> raw(t);
        };
    }

    /** The current token's text as found in the input (a string without its quotes). */
    String raw(Token t) {
        return switch (t) {
            case EOF -> null;
            case MAP_START -> "{";
            case SET_START -> "#{";
            case VECTOR_START -> "[";
            case LIST_START -> "(";
            case MAP_END -> "}";
            case VECTOR_END -> "]";
            case LIST_END -> ")";
            case KEYWORD -> ":" + text();
            case CHARACTER -> "\\" + text();
            case OTHER_NUMBER -> text();
            default -> text();
        };
    }

    /** A syntax fault at the current token. */
    HistoryFormatException fault(String detail) {
        return new HistoryFormatException(sourceName, tokenLine, tokenColumn, null, null,
                CodecMessages.invalidEdn(detail));
    }

    private int skipBlank() {
        if (!bomChecked) {
            bomChecked = true;
            if (peek() == 0xEF && limit - pos >= 3 && (buf[pos + 1] & 0xff) == 0xBB && (buf[pos + 2] & 0xff) == 0xBF) {
                pos += 3;
                lineStart = 3;
            }
        }
        for (;;) {
            int c = peek();
            switch (c) {
                case ' ', ',', '\t', '\r', '\f' -> pos++;
                case '\n' -> read();
                case ';' -> {
                    while ((c = peek()) >= 0 && c != '\n') {
                        pos++;
                    }
                }
                default -> {
                    return c;
                }
            }
        }
    }

    private Token number() {
        int i = 0;
        boolean negative = false;
        if (text[0] == '+' || text[0] == '-') {
            negative = text[0] == '-';
            i = 1;
        }
        int end = text[textLength - 1] == 'N' ? textLength - 1 : textLength;
        if (i >= end) {
            return Token.OTHER_NUMBER;
        }
        long v = 0;
        boolean overflow = false;
        for (; i < end; i++) {
            int d = text[i] - '0';
            if (d < 0 || d > 9) {
                return Token.OTHER_NUMBER;
            }
            if (v < Long.MIN_VALUE / 10 || v == Long.MIN_VALUE / 10 && d > 8) {
                overflow = true;
            } else {
                v = v * 10 - d;
            }
        }
        if (overflow || !negative && v == Long.MIN_VALUE) {
            return Token.BIG_INTEGER;
        }
        integer = negative ? v : -v;
        return Token.INTEGER;
    }

    private Token symbol() {
        if (textIsExactly("nil")) {
            return Token.NIL;
        }
        if (textIsExactly("true")) {
            return Token.TRUE;
        }
        if (textIsExactly("false")) {
            return Token.FALSE;
        }
        return Token.SYMBOL;
    }

    private boolean textIsExactly(String s) {
        if (textLength != s.length()) {
            return false;
        }
        for (int i = 0; i < textLength; i++) {
            if (text[i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    private void readString() {
        textLength = 0;
        for (;;) {
            int c = read();
            if (c < 0) {
                throw fault("a string starting here is never closed");
            }
            if (c == '"') {
                return;
            }
            if (c != '\\') {
                appendText(c);
                continue;
            }
            int e = read();
            switch (e) {
                case 't' -> appendText('\t');
                case 'n' -> appendText('\n');
                case 'r' -> appendText('\r');
                case 'b' -> appendText('\b');
                case 'f' -> appendText('\f');
                case '"', '\\', '/' -> appendText(e);
                case 'u' -> readUnicodeEscape();
                default -> throw faultHere("invalid escape '\\" + (e < 0 ? "" : String.valueOf((char) e)) + "' in a string");
            }
        }
    }

    private void readUnicodeEscape() {
        int unit = hex4();
        if (Character.isHighSurrogate((char) unit)) {
            if (read() != '\\' || read() != 'u') {
                throw faultHere("a \\u escape of a high surrogate must be followed by one of a low surrogate");
            }
            int low = hex4();
            if (!Character.isLowSurrogate((char) low)) {
                throw faultHere("a \\u escape of a high surrogate must be followed by one of a low surrogate");
            }
            appendCodePoint(Character.toCodePoint((char) unit, (char) low));
        } else if (Character.isLowSurrogate((char) unit)) {
            throw faultHere("a \\u escape of a lone low surrogate");
        } else {
            appendCodePoint(unit);
        }
    }

    private int hex4() {
        int v = 0;
        for (int i = 0; i < 4; i++) {
            int d = Character.digit(read(), 16);
            if (d < 0) {
                throw faultHere("a \\u escape needs four hexadecimal digits");
            }
            v = v * 16 + d;
        }
        return v;
    }

    private void appendCodePoint(int cp) {
        if (cp < 0x80) {
            appendText(cp);
        } else if (cp < 0x800) {
            appendText(0xC0 | cp >> 6);
            appendText(0x80 | cp & 0x3F);
        } else if (cp < 0x10000) {
            appendText(0xE0 | cp >> 12);
            appendText(0x80 | cp >> 6 & 0x3F);
            appendText(0x80 | cp & 0x3F);
        } else {
            appendText(0xF0 | cp >> 18);
            appendText(0x80 | cp >> 12 & 0x3F);
            appendText(0x80 | cp >> 6 & 0x3F);
            appendText(0x80 | cp & 0x3F);
        }
    }

    private void readCharacter() {
        textLength = 0;
        int c = read();
        if (c < 0 || c == '\n') {
            throw fault("a '\\' must start a character literal");
        }
        appendText(c);
        readSymbolRest();
    }

    /**
     * The rest of a symbol, keyword or number: each run of symbol bytes the buffer holds is found
     * in one loop and copied at once (nearly every token of a history is one of these).
     */
    private void readSymbolRest() {
        for (;;) {
            byte[] b = buf;
            int stop = limit;
            int i = pos;
            while (i < stop && SYMBOL_CHAR[b[i] & 0xFF]) {
                i++;
            }
            appendText(b, pos, i);
            pos = i;
            if (i < stop || !fill()) {
                return;
            }
        }
    }

    private static boolean isSymbolChar(int c) {
        return c >= 0 && SYMBOL_CHAR[c];
    }

    private static boolean[] symbolChars() {
        boolean[] table = new boolean[256];
        Arrays.fill(table, true);
        for (char c : " ,\t\n\r\f{}[]()\";".toCharArray()) {
            table[c] = false;
        }
        return table;
    }

    private void appendText(int b) {
        if (textLength == text.length) {
            text = Arrays.copyOf(text, text.length * 2);
        }
        text[textLength++] = (byte) b;
    }

    private void appendText(byte[] bytes, int from, int to) {
        int n = to - from;
        if (textLength + n > text.length) {
            text = Arrays.copyOf(text, Math.max(text.length * 2, textLength + n));
        }
        System.arraycopy(bytes, from, text, textLength, n);
        textLength += n;
    }

    private void push(int closer) {
        if (depth == closers.length) {
            closers = Arrays.copyOf(closers, depth * 2);
            openerLines = Arrays.copyOf(openerLines, depth * 2);
        }
        closers[depth] = (byte) closer;
        openerLines[depth] = tokenLine;
        depth++;
    }

    private void pop(int closer) {
        if (depth == 0) {
            throw fault("unexpected '" + (char) closer + "' with no open bracket to close");
        }
        if (closers[depth - 1] != closer) {
            throw fault("unexpected '" + (char) closer + "': the " + opener(closers[depth - 1])
                    + " opened on line " + openerLines[depth - 1] + " must be closed with '"
                    + (char) closers[depth - 1] + "' first");
        }
        depth--;
    }

    private static String opener(byte closer) {
        return switch (closer) {
            case '}' -> "map or set";
            case ']' -> "vector";
            default -> "list";
        };
    }

    private static String describeByte(int c) {
        if (c < 0) {
            return "end of input";
        }
        if (c >= 0x20 && c < 0x7F) {
            return "character '" + (char) c + "'";
        }
        return String.format("byte 0x%02x", c);
    }

    private HistoryFormatException faultHere(String detail) {
        return new HistoryFormatException(sourceName, line, (int) (bufferStart + pos - lineStart), null, null,
                CodecMessages.invalidEdn(detail));
    }

    private int peek() {
        if (pos == limit && !fill()) {
            return -1;
        }
        return buf[pos] & 0xFF;
    }

    private int read() {
        if (pos == limit && !fill()) {
            return -1;
        }
        int c = buf[pos++] & 0xFF;
        if (c == '\n') {
            line++;
            lineStart = bufferStart + pos;
        }
        return c;
    }

    private boolean fill() {
        bufferStart += limit;
        pos = 0;
        limit = 0;
        try {
            int n;
            do {
                n = in.read(buf, 0, buf.length);
            } while (n == 0);
            if (n < 0) {
                return false;
            }
            limit = n;
            return true;
        } catch (IOException e) {
            throw new UncheckedIOException(sourceName + ": cannot read: " + e.getMessage(), e);
        }
    }
}

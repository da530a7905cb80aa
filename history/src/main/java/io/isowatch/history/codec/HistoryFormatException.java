package io.isowatch.history.codec;

/**
 * The input is not a readable Jepsen history: bad JSON or EDN syntax, a missing or ill-typed
 * field, an unknown micro-op, a key that is neither an integer nor a string.
 *
 * <p>The message names the place and the value, e.g. {@code history.jsonl:17: field "type":
 * unknown operation type "okay" (expected invoke, ok, fail or info)}. Syntax errors, which have
 * no field, also name the column: {@code history.jsonl:17:42: invalid JSON: ...}; for a field
 * fault the column is still available from {@link #column()}. Semantic faults of a well-formed
 * history (double invocations, unpaired completions) are not format errors; the checker reports
 * those.
 */
public final class HistoryFormatException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    private final String sourceName;
    private final long line;
    private final int column;
    private final String field;
    private final String valueText;
    private final String detail;

    /**
     * @param sourceName the file name (or stream description) to show
     * @param line       the 1-based line of the fault
     * @param column     the 1-based column, or -1 when the fault concerns a whole field
     * @param field      the op field at fault ({@code "type"}, {@code "value"}, ...), or null
     * @param valueText  the offending text as found in the input, or null
     * @param detail     what is wrong, without the place
     */
    public HistoryFormatException(String sourceName, long line, int column, String field,
                                  String valueText, String detail) {
        super(render(sourceName, line, column, field, detail));
        this.sourceName = sourceName;
        this.line = line;
        this.column = column;
        this.field = field;
        this.valueText = valueText;
        this.detail = detail;
    }

    private static String render(String sourceName, long line, int column, String field, String detail) {
        StringBuilder b = new StringBuilder(sourceName).append(':').append(line);
        if (column > 0 && field == null) {
            b.append(':').append(column);
        }
        b.append(": ");
        if (field != null) {
            b.append("field \"").append(field).append("\": ");
        }
        return b.append(detail).toString();
    }

    /** The file name or stream description given to the reader. */
    public String sourceName() {
        return sourceName;
    }

    /** The 1-based line of the fault. */
    public long line() {
        return line;
    }

    /**
     * The 1-based column of the fault, or -1 when not known. Counted in bytes for EDN and for
     * JSON read from a byte stream.
     */
    public int column() {
        return column;
    }

    /** The op field at fault, or null for a syntax error or a fault of the whole op. */
    public String field() {
        return field;
    }

    /** The offending input text (a string without its quotes), or null. */
    public String valueText() {
        return valueText;
    }

    /** The message without the place. */
    public String detail() {
        return detail;
    }
}

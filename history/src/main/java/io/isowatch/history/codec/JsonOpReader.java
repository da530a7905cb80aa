package io.isowatch.history.codec;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonStreamContext;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.exc.InputCoercionException;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.regex.Pattern;

/**
 * Reads Jepsen op maps from JSON: either a sequence of root-level objects (JSON lines; any
 * whitespace between them will do) or one root-level array of objects.
 *
 * <p>The general reader: {@link JsonLinesOpReader} scans the usual op line itself and hands this
 * reader the lines, or the rest of the input, it is not sure of. One Jackson streaming parser
 * runs over what it is given, so memory stays bounded whatever the size. Field names come back interned from Jackson's symbol table; type and micro-op
 * names are matched on the parser's character buffer, so the common path allocates only the
 * ops themselves (and strings for string keys). Cost is linear in the input.
 */
final class JsonOpReader implements OpSource {

    private static final int APPEND = 0;
    private static final int READ = 1;
    private static final int WRITE = 2;

    /** Jackson embeds "[Source: ...; line: L, column: C]" in some messages; we print "line L, column C". */
    private static final Pattern JACKSON_LOCATION =
            Pattern.compile("\\[Source: [^\\]]*?; line: (\\d+), column: (\\d+)\\]");

    private final JsonParser parser;
    private final OpBuilder ops;
    private final String sourceName;
    /** Lines of the input before the first byte this parser sees (it may start mid-input). */
    private final long lineBase;
    /** Where the shipper's identity fields go; null when the caller does not want them. */
    private final ShippedIdentity identity;
    private boolean started;
    private boolean inArray;
    private boolean done;

    /** Thread-safe and costly to build (its symbol tables), so shared. */
    private static final JsonFactory JSON = new JsonFactory();

    /**
     * Reads from the start of line {@code lineBase + 1} of an input whose earlier lines, if any,
     * were read by someone else with the same {@code ops} (0 and false: a whole input). With {@code midInput}, a {@code [} here is
     * not the start of a root-level array but a fault, as it would be that far into the input.
     * {@code identity}, when not null, receives the shipper's fields as for a record.
     */
    JsonOpReader(String sourceName, InputStream in, OpBuilder ops, ShippedIdentity identity, long lineBase,
            boolean midInput) {
        this.sourceName = sourceName;
        this.identity = identity;
        this.ops = ops;
        this.lineBase = lineBase;
        this.started = midInput;
        try {
            this.parser = JSON.createParser(in);
        } catch (IOException e) {
            throw new UncheckedIOException(sourceName + ": cannot open: " + e.getMessage(), e);
        }
    }

    @Override
    public Op next() {
        try {
            return nextOp();
        } catch (JsonProcessingException e) {
            throw syntaxFault(e);
        } catch (IOException e) {
            throw new UncheckedIOException(sourceName + ": cannot read: " + e.getMessage(), e);
        }
    }

    @Override
    public long skipped() {
        return ops.skipped();
    }

    @Override
    public void close() {
        try {
            parser.close();
        } catch (IOException e) {
            throw new UncheckedIOException(sourceName + ": cannot close: " + e.getMessage(), e);
        }
    }

    private Op nextOp() throws IOException {
        while (!done) {
            JsonToken t = parser.nextToken();
            if (!started) {
                started = true;
                if (t == JsonToken.START_ARRAY) {
                    inArray = true;
                    continue;
                }
            }
            if (t == null) {
                done = true;
                if (inArray) {
                    throw faultHere(null, null, CodecMessages.unterminatedList());
                }
                return null;
            }
            if (inArray && t == JsonToken.END_ARRAY) {
                JsonToken after = parser.nextToken();
                if (after != null) {
                    throw faultHere(null, raw(after), CodecMessages.trailingAfterList(describe(after)));
                }
                done = true;
                return null;
            }
            if (t != JsonToken.START_OBJECT) {
                throw faultHere(null, raw(t), CodecMessages.expectedOp(describe(t)));
            }
            Op op = readOp();
            if (op != null) {
                return op;
            }
        }
        return null;
    }

    private Op readOp() throws IOException {
        JsonLocation start = parser.currentTokenLocation();
        ops.begin(lineBase + start.getLineNr(), start.getColumnNr());
        JsonStreamContext opContext = parser.getParsingContext();
        if (identity != null) {
            identity.clear();
        }
        String name;
        while ((name = parser.nextFieldName()) != null) {
            JsonToken t = parser.nextToken();
            switch (name) {
                case "index" -> {
                    if (t != JsonToken.VALUE_NULL) {
                        ops.index(integerField("index", t, "an integer index"));
                    }
                }
                case "time" -> {
                    if (t != JsonToken.VALUE_NULL) {
                        ops.time(integerField("time", t, "an integer time in nanoseconds"));
                    }
                }
                case "type" -> ops.type(readType(t));
                case "process" -> readProcess(t);
                case "value" -> readValue(t, opContext);
                case "agent", "seq", "history" -> readIdentity(name, t);
                default -> parser.skipChildren();
            }
        }
        return ops.finish();
    }

    private void readIdentity(String name, JsonToken t) throws IOException {
        if (identity != null) {
            if (name.equals("agent")) {
                if (t == JsonToken.VALUE_STRING) {
                    identity.agent(parser.getText());
                } else {
                    identity.badAgent(describe(t));
                }
            } else if (name.equals("history")) {
                if (t == JsonToken.VALUE_STRING) {
                    identity.history(parser.getText());
                } else {
                    identity.badHistory(describe(t));
                }
            } else {
                long seq = t == JsonToken.VALUE_NUMBER_INT
                        && parser.getNumberType() != JsonParser.NumberType.BIG_INTEGER ? parser.getLongValue() : -1;
                if (seq >= 0) {
                    identity.seq(seq);
                } else {
                    identity.badSeq(describe(t));
                }
            }
        }
        parser.skipChildren();
    }

    private long integerField(String field, JsonToken t, String what) throws IOException {
        if (t != JsonToken.VALUE_NUMBER_INT) {
            throw faultHere(field, raw(t), CodecMessages.expectedInteger(what, describe(t)));
        }
        return longValue(field);
    }

    private long longValue(String field) throws IOException {
        try {
            return parser.getLongValue();
        } catch (InputCoercionException e) {
            String text = parser.getText();
            throw faultHere(field, text, CodecMessages.integerOutOfRange(text));
        }
    }

    private OpType readType(JsonToken t) throws IOException {
        if (t != JsonToken.VALUE_STRING) {
            throw faultHere("type", raw(t), CodecMessages.expectedTypeName(describe(t)));
        }
        char[] b = parser.getTextCharacters();
        int off = parser.getTextOffset();
        int len = parser.getTextLength();
        if (len > 0 && b[off] == ':') {
            off++;
            len--;
        }
        OpType type = null;
        if (same(b, off, len, "ok")) {
            type = OpType.OK;
        } else if (same(b, off, len, "invoke")) {
            type = OpType.INVOKE;
        } else if (same(b, off, len, "fail")) {
            type = OpType.FAIL;
        } else if (same(b, off, len, "info")) {
            type = OpType.INFO;
        }
        if (type == null) {
            String text = parser.getText();
            throw faultHere("type", text, CodecMessages.unknownType(text));
        }
        return type;
    }

    /** Jepsen's {@code client-op?}: an integer process is a client, anything else (the nemesis) is not. */
    private void readProcess(JsonToken t) throws IOException {
        if (t == JsonToken.VALUE_NUMBER_INT) {
            ops.clientProcess(longValue("process"));
        } else {
            ops.nonClientProcess();
            parser.skipChildren();
        }
    }

    private void readValue(JsonToken t, JsonStreamContext opContext) throws IOException {
        if (t == JsonToken.VALUE_NULL) {
            ops.beginValue();
            return;
        }
        if (t != JsonToken.START_ARRAY) {
            ops.defer(faultHere("value", raw(t), CodecMessages.expectedMicroOps(describe(t))));
            parser.skipChildren();
            return;
        }
        ops.beginValue();
        try {
            readMicroOps();
        } catch (HistoryFormatException e) {
            ops.defer(e);
            while (parser.getParsingContext() != opContext) {
                parser.nextToken();
            }
        }
    }

    private void readMicroOps() throws IOException {
        int position = 0;
        JsonToken t;
        while ((t = parser.nextToken()) != JsonToken.END_ARRAY) {
            position++;
            if (t != JsonToken.START_ARRAY) {
                throw faultHere("value", raw(t), CodecMessages.expectedMicroOp(position, describe(t)));
            }
            readMicroOp(position);
        }
    }

    private void readMicroOp(int position) throws IOException {
        JsonToken t = parser.nextToken();
        if (t == JsonToken.END_ARRAY) {
            throw faultHere("value", "[]", CodecMessages.microOpArity(position, 0));
        }
        if (t != JsonToken.VALUE_STRING) {
            throw faultHere("value", raw(t), CodecMessages.expectedMicroOpName(position, describe(t)));
        }
        int kind = microOpKind();
        if (kind < 0) {
            String name = parser.getText();
            throw faultHere("value", name, CodecMessages.unknownMicroOp(position, name));
        }
        t = parser.nextToken();
        if (t == JsonToken.END_ARRAY) {
            throw faultHere("value", null, CodecMessages.microOpArity(position, 1));
        }
        long key = atom(t, position, "the key");
        t = parser.nextToken();
        if (t == JsonToken.END_ARRAY) {
            throw faultHere("value", null, CodecMessages.microOpArity(position, 2));
        }
        switch (kind) {
            case APPEND -> ops.append(key, atom(t, position, "an appended value"));
            case WRITE -> {
                if (t == JsonToken.VALUE_NULL) {
                    throw faultHere("value", "null", CodecMessages.writeOfNil(position));
                }
                ops.write(key, atom(t, position, "a written value"));
            }
            default -> readResult(t, key, position);
        }
        if (parser.nextToken() != JsonToken.END_ARRAY) {
            int count = 3;
            do {
                parser.skipChildren();
                count++;
            } while (parser.nextToken() != JsonToken.END_ARRAY);
            throw faultHere("value", null, CodecMessages.microOpArity(position, count));
        }
    }

    private void readResult(JsonToken t, long key, int position) throws IOException {
        switch (t) {
            case VALUE_NULL -> ops.readUnknown(key);
            case START_ARRAY -> {
                ops.beginReadList();
                JsonToken e;
                while ((e = parser.nextToken()) != JsonToken.END_ARRAY) {
                    ops.readElement(atom(e, position, "a read element"));
                }
                ops.endReadList(key);
            }
            case VALUE_NUMBER_INT, VALUE_STRING -> ops.readScalar(key, atom(t, position, "a read value"));
            default -> throw faultHere("value", raw(t), CodecMessages.badReadResult(position, describe(t)));
        }
    }

    private long atom(JsonToken t, int position, String role) throws IOException {
        if (t == JsonToken.VALUE_NUMBER_INT) {
            long v;
            try {
                v = parser.getLongValue();
            } catch (InputCoercionException e) {
                String text = parser.getText();
                throw faultHere("value", text, CodecMessages.atomOutOfRange(position, text));
            }
            return ops.integerAtom(v, lineBase + parser.currentTokenLocation().getLineNr(), -1, position);
        }
        if (t == JsonToken.VALUE_STRING) {
            return ops.stringAtom(parser.getText());
        }
        throw faultHere("value", raw(t), CodecMessages.badAtom(position, role, describe(t)));
    }

    /** The micro-op function named by the current string token, or -1. */
    private int microOpKind() throws IOException {
        if (isName("append")) {
            return APPEND;
        }
        if (isName("r")) {
            return READ;
        }
        if (isName("w")) {
            return WRITE;
        }
        return -1;
    }

    /** True when the current string token is {@code name}, with or without a leading colon. */
    private boolean isName(String name) throws IOException {
        char[] b = parser.getTextCharacters();
        int off = parser.getTextOffset();
        int len = parser.getTextLength();
        if (len > 0 && b[off] == ':') {
            off++;
            len--;
        }
        return same(b, off, len, name);
    }

    private static boolean same(char[] b, int off, int len, String s) {
        if (len != s.length()) {
            return false;
        }
        for (int i = 0; i < len; i++) {
            if (b[off + i] != s.charAt(i)) {
                return false;
            }
        }
        return true;
    }

    /** The current token as a message shows it. */
    private String describe(JsonToken t) throws IOException {
        if (t == null) {
            return "the end of input";
        }
        return switch (t) {
            case START_ARRAY -> "an array";
            case START_OBJECT -> "an object";
            case END_ARRAY -> "]";
            case END_OBJECT -> "}";
            case VALUE_STRING -> CodecMessages.quote(parser.getText());
            default -> parser.getText();
        };
    }

    /** The current token's text as found in the input, for {@link HistoryFormatException#valueText()}. */
    private String raw(JsonToken t) throws IOException {
        return t == null ? null : parser.getText();
    }

    private HistoryFormatException faultHere(String field, String valueText, String detail) {
        JsonLocation at = parser.currentTokenLocation();
        return ops.fault(lineBase + at.getLineNr(), at.getColumnNr(), field, valueText, detail);
    }

    private HistoryFormatException syntaxFault(JsonProcessingException e) {
        JsonLocation at = e.getLocation() != null ? e.getLocation() : parser.currentLocation();
        String message = JACKSON_LOCATION.matcher(String.valueOf(e.getOriginalMessage()))
                .replaceAll(m -> "line " + (lineBase + Long.parseLong(m.group(1))) + ", column " + m.group(2));
        HistoryFormatException fault = ops.fault(lineBase + at.getLineNr(), at.getColumnNr(), null, null,
                CodecMessages.invalidJson(message));
        fault.initCause(e);
        return fault;
    }
}

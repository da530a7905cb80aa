package io.isowatch.history.codec;

import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import io.isowatch.history.codec.EdnLexer.Token;

import java.io.InputStream;
import java.io.UncheckedIOException;
import java.io.IOException;

/**
 * Reads Jepsen op maps from EDN, as Jepsen writes {@code history.edn}: a sequence of maps
 * ({@code {:index 0, :type :invoke, :process 0, :f :txn, :value [[:append 5 1]]}}), possibly
 * wrapped in one vector or list.
 *
 * <p>Keys and values may be integers, strings, keywords or symbols; as in Elle (Clojure
 * equality), {@code :x}, {@code "x"} and {@code x} are three different keys ({@link AtomTable}).
 * Type and micro-op names may be keywords or strings. Memory is bounded by the lexer's buffer;
 * cost is linear in the input.
 */
final class EdnOpReader implements OpSource {

    private static final int OTHER = 0;
    private static final int INDEX = 1;
    private static final int TIME = 2;
    private static final int TYPE = 3;
    private static final int PROCESS = 4;
    private static final int VALUE = 6;

    private static final int APPEND = 0;
    private static final int READ = 1;
    private static final int WRITE = 2;

    private final EdnLexer lexer;
    private final OpBuilder ops;
    private final InputStream in;
    private boolean started;
    private boolean wrapped;
    private boolean done;

    EdnOpReader(String sourceName, InputStream in, AtomTable atoms) {
        this.in = in;
        this.lexer = new EdnLexer(sourceName, in);
        this.ops = new OpBuilder(sourceName, atoms);
    }

    @Override
    public Op next() {
        while (!done) {
            Token t = lexer.next();
            if (!started) {
                started = true;
                if (t == Token.VECTOR_START || t == Token.LIST_START) {
                    wrapped = true;
                    continue;
                }
            }
            if (t == Token.EOF) {
                done = true;
                return null;
            }
            if (wrapped && lexer.depth() == 0) {
                Token after = lexer.next();
                if (after != Token.EOF) {
                    throw fault(null, lexer.raw(after), CodecMessages.trailingAfterList(lexer.describe(after)));
                }
                done = true;
                return null;
            }
            if (t != Token.MAP_START) {
                throw fault(null, lexer.raw(t), CodecMessages.expectedOp(lexer.describe(t)));
            }
            Op op = readOp();
            if (op != null) {
                return op;
            }
        }
        return null;
    }

    @Override
    public long skipped() {
        return ops.skipped();
    }

    @Override
    public void close() {
        try {
            in.close();
        } catch (IOException e) {
            throw new UncheckedIOException(ops.sourceName() + ": cannot close: " + e.getMessage(), e);
        }
    }

    private Op readOp() {
        ops.begin(lexer.tokenLine(), lexer.tokenColumn());
        int opDepth = lexer.depth();
        for (;;) {
            Token k = lexer.next();
            if (k == Token.MAP_END) {
                break;
            }
            int field = k == Token.KEYWORD ? fieldOf() : OTHER;
            lexer.skipForm(k);
            Token v = lexer.next();
            if (v == Token.MAP_END) {
                throw fault(null, "}", "the op map has a key without a value");
            }
            switch (field) {
                case INDEX -> {
                    if (v != Token.NIL) {
                        ops.index(integerField("index", v, "an integer index"));
                    }
                }
                case TIME -> {
                    if (v != Token.NIL) {
                        ops.time(integerField("time", v, "an integer time in nanoseconds"));
                    }
                }
                case TYPE -> ops.type(readType(v));
                case PROCESS -> readProcess(v);
                case VALUE -> readValue(v, opDepth);
                default -> lexer.skipForm(v);
            }
        }
        return ops.finish();
    }

    private int fieldOf() {
        if (lexer.textIs("value")) {
            return VALUE;
        }
        if (lexer.textIs("type")) {
            return TYPE;
        }
        if (lexer.textIs("process")) {
            return PROCESS;
        }
        if (lexer.textIs("index")) {
            return INDEX;
        }
        if (lexer.textIs("time")) {
            return TIME;
        }
        return OTHER;
    }

    private long integerField(String field, Token t, String what) {
        if (t == Token.BIG_INTEGER) {
            throw fault(field, lexer.raw(t), CodecMessages.integerOutOfRange(lexer.raw(t)));
        }
        if (t != Token.INTEGER) {
            throw fault(field, lexer.raw(t), CodecMessages.expectedInteger(what, lexer.describe(t)));
        }
        return lexer.integer();
    }

    private OpType readType(Token t) {
        if (t != Token.KEYWORD && t != Token.STRING) {
            throw fault("type", lexer.raw(t), CodecMessages.expectedTypeName(lexer.describe(t)));
        }
        if (lexer.textIs("ok")) {
            return OpType.OK;
        }
        if (lexer.textIs("invoke")) {
            return OpType.INVOKE;
        }
        if (lexer.textIs("fail")) {
            return OpType.FAIL;
        }
        if (lexer.textIs("info")) {
            return OpType.INFO;
        }
        String text = lexer.text();
        throw fault("type", text, CodecMessages.unknownType(text));
    }

    /** Jepsen's {@code client-op?}: an integer process is a client, anything else (the nemesis) is not. */
    private void readProcess(Token t) {
        switch (t) {
            case INTEGER -> ops.clientProcess(lexer.integer());
            case BIG_INTEGER -> throw fault("process", lexer.raw(t), CodecMessages.integerOutOfRange(lexer.raw(t)));
            default -> {
                ops.nonClientProcess();
                lexer.skipForm(t);
            }
        }
    }

    private void readValue(Token t, int opDepth) {
        if (t == Token.NIL) {
            ops.beginValue();
            return;
        }
        if (t != Token.VECTOR_START && t != Token.LIST_START) {
            ops.defer(fault("value", lexer.raw(t), CodecMessages.expectedMicroOps(lexer.describe(t))));
            lexer.skipForm(t);
            return;
        }
        ops.beginValue();
        try {
            int position = 0;
            Token m;
            while (!(m = lexer.next()).isClose()) {
                position++;
                if (m != Token.VECTOR_START && m != Token.LIST_START) {
                    throw fault("value", lexer.raw(m), CodecMessages.expectedMicroOp(position, lexer.describe(m)));
                }
                readMicroOp(position);
            }
        } catch (HistoryFormatException e) {
            if (e.field() == null) {
                throw e;
            }
            ops.defer(e);
            lexer.skipToDepth(opDepth);
        }
    }

    private void readMicroOp(int position) {
        Token t = lexer.next();
        if (t.isClose()) {
            throw fault("value", null, CodecMessages.microOpArity(position, 0));
        }
        if (t != Token.KEYWORD && t != Token.STRING) {
            throw fault("value", lexer.raw(t), CodecMessages.expectedMicroOpName(position, lexer.describe(t)));
        }
        int kind = lexer.textIs("append") ? APPEND : lexer.textIs("r") ? READ : lexer.textIs("w") ? WRITE : -1;
        if (kind < 0) {
            String name = lexer.text();
            throw fault("value", name, CodecMessages.unknownMicroOp(position, name));
        }
        t = lexer.next();
        if (t.isClose()) {
            throw fault("value", null, CodecMessages.microOpArity(position, 1));
        }
        long key = atom(t, position, "the key");
        t = lexer.next();
        if (t.isClose()) {
            throw fault("value", null, CodecMessages.microOpArity(position, 2));
        }
        switch (kind) {
            case APPEND -> ops.append(key, atom(t, position, "an appended value"));
            case WRITE -> {
                if (t == Token.NIL) {
                    throw fault("value", "nil", CodecMessages.writeOfNil(position));
                }
                ops.write(key, atom(t, position, "a written value"));
            }
            default -> readResult(t, key, position);
        }
        t = lexer.next();
        if (!t.isClose()) {
            int count = 3;
            do {
                lexer.skipForm(t);
                count++;
            } while (!(t = lexer.next()).isClose());
            throw fault("value", null, CodecMessages.microOpArity(position, count));
        }
    }

    private void readResult(Token t, long key, int position) {
        switch (t) {
            case NIL -> ops.readUnknown(key);
            case VECTOR_START, LIST_START -> {
                ops.beginReadList();
                Token e;
                while (!(e = lexer.next()).isClose()) {
                    ops.readElement(atom(e, position, "a read element"));
                }
                ops.endReadList(key);
            }
            case INTEGER, STRING, KEYWORD, SYMBOL -> ops.readScalar(key, atom(t, position, "a read value"));
            default -> throw fault("value", lexer.raw(t), CodecMessages.badReadResult(position, lexer.describe(t)));
        }
    }

    private long atom(Token t, int position, String role) {
        switch (t) {
            case INTEGER:
                return ops.integerAtom(lexer.integer(), lexer.tokenLine(), lexer.tokenColumn(), position);
            case STRING:
                return ops.stringAtom(lexer.text());
            case KEYWORD:
                return ops.keywordAtom(lexer.text());
            case SYMBOL:
                return ops.symbolAtom(lexer.text());
            case BIG_INTEGER:
                throw fault("value", lexer.raw(t), CodecMessages.atomOutOfRange(position, lexer.raw(t)));
            default:
                throw fault("value", lexer.raw(t), CodecMessages.badAtom(position, role, lexer.describe(t)));
        }
    }

    private HistoryFormatException fault(String field, String valueText, String detail) {
        return ops.fault(lexer.tokenLine(), lexer.tokenColumn(), field, valueText, detail);
    }
}

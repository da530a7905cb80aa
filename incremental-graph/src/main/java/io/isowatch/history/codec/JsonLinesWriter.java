package io.isowatch.history.codec;

import com.fasterxml.jackson.core.JsonEncoding;
import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;

import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * Writes ops as Jepsen JSON lines, one op object per line, in UTF-8:
 * {@code {"index":0,"time":12,"type":"invoke","process":0,"f":"txn","value":[["append",5,1],["r",6,null]]}}.
 *
 * <p>Fields come in the order index, time, type, process, f, value; {@code time} is left out
 * when it is -1 (unknown). Keys and values are rendered from their atoms: integers bare,
 * strings quoted. A read's values are always written as a list (or {@code null} when unknown),
 * so a register read of one value comes back from {@link HistoryReader} as the same
 * {@link MicroOp.Read}. Output goes through one Jackson generator with its own buffer; nothing
 * reaches the stream before the buffer fills or {@link #flush()} is called. Not thread-safe. I/O
 * failures surface as {@link UncheckedIOException}.
 */
public final class JsonLinesWriter implements Closeable, Flushable {

    private static final SerializedString INDEX = new SerializedString("index");
    private static final SerializedString TIME = new SerializedString("time");
    private static final SerializedString TYPE = new SerializedString("type");
    private static final SerializedString PROCESS = new SerializedString("process");
    private static final SerializedString F = new SerializedString("f");
    private static final SerializedString VALUE = new SerializedString("value");
    private static final SerializedString TXN = new SerializedString("txn");
    private static final SerializedString APPEND = new SerializedString("append");
    private static final SerializedString READ = new SerializedString("r");
    private static final SerializedString WRITE = new SerializedString("w");

    private final JsonGenerator generator;
    private final AtomTable atoms;
    private long opsWritten;

    /** Writes to a stream, which the writer then owns and closes. */
    public JsonLinesWriter(OutputStream out, AtomTable atoms) {
        Objects.requireNonNull(out, "out");
        this.atoms = Objects.requireNonNull(atoms, "atoms");
        try {
            // Characters outside the BMP go out as 4-byte UTF-8, not as escaped surrogate pairs.
            JsonFactory factory = JsonFactory.builder()
                    .enable(JsonWriteFeature.COMBINE_UNICODE_SURROGATES_IN_UTF8)
                    .build();
            this.generator = factory.createGenerator(out, JsonEncoding.UTF8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start writing JSON lines: " + e.getMessage(), e);
        }
        generator.setRootValueSeparator(null);
    }

    /** Creates (or truncates) a file and writes to it. */
    public static JsonLinesWriter open(Path file, AtomTable atoms) {
        try {
            return new JsonLinesWriter(Files.newOutputStream(file), atoms);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + file + ": " + e.getMessage(), e);
        }
    }

    /**
     * Appends one op as a line.
     *
     * @throws IllegalArgumentException when a key or value is a string atom this writer's table
     *                                  does not know
     */
    public void write(Op op) {
        try {
            JsonGenerator g = generator;
            g.writeStartObject();
            g.writeFieldName(INDEX);
            g.writeNumber(op.index());
            if (op.time() != -1) {
                g.writeFieldName(TIME);
                g.writeNumber(op.time());
            }
            g.writeFieldName(TYPE);
            g.writeString(op.type().jepsenName());
            g.writeFieldName(PROCESS);
            g.writeNumber(op.process());
            g.writeFieldName(F);
            g.writeString(TXN);
            g.writeFieldName(VALUE);
            g.writeStartArray();
            for (MicroOp m : op.value()) {
                writeMicroOp(g, m);
            }
            g.writeEndArray();
            g.writeEndObject();
            g.writeRaw('\n');
            opsWritten++;
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write op " + op.index() + ": " + e.getMessage(), e);
        }
    }

    private void writeMicroOp(JsonGenerator g, MicroOp m) throws IOException {
        g.writeStartArray();
        if (m instanceof MicroOp.Append a) {
            g.writeString(APPEND);
            writeAtom(g, a.key());
            writeAtom(g, a.value());
        } else if (m instanceof MicroOp.Write w) {
            g.writeString(WRITE);
            writeAtom(g, w.key());
            writeAtom(g, w.value());
        } else {
            MicroOp.Read r = (MicroOp.Read) m;
            g.writeString(READ);
            writeAtom(g, r.key());
            long[] values = r.values();
            if (values == null) {
                g.writeNull();
            } else {
                g.writeStartArray();
                for (long v : values) {
                    writeAtom(g, v);
                }
                g.writeEndArray();
            }
        }
        g.writeEndArray();
    }

    private void writeAtom(JsonGenerator g, long atom) throws IOException {
        if (AtomTable.isString(atom)) {
            g.writeString((String) atoms.valueOf(atom));
        } else {
            g.writeNumber(atom);
        }
    }

    /** The number of ops written so far. */
    public long opsWritten() {
        return opsWritten;
    }

    @Override
    public void flush() {
        try {
            generator.flush();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot flush JSON lines: " + e.getMessage(), e);
        }
    }

    /** Flushes and closes the underlying stream. */
    @Override
    public void close() {
        try {
            generator.close();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot close JSON lines: " + e.getMessage(), e);
        }
    }
}

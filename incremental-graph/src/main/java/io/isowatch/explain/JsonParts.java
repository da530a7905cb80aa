package io.isowatch.explain;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.isowatch.anomaly.Txn;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/** Jepsen values as JSON, the way elle-cli writes them: ops as maps, micro-ops as arrays. */
final class JsonParts {

    /** Something that writes one JSON value. */
    interface Body {
        void write(JsonGenerator g) throws IOException;
    }

    private JsonParts() {
    }

    /** Runs {@code body} against a fresh generator and returns the text; a new factory per call. */
    static String toJson(Body body) {
        StringWriter out = new StringWriter();
        try (JsonGenerator g = new JsonFactory().createGenerator(out)) {
            body.write(g);
        } catch (IOException e) {
            throw new UncheckedIOException("writing JSON to a string failed", e);
        }
        return out.toString();
    }

    /** An atom as a JSON number (integers) or string (strings). */
    static void atom(JsonGenerator g, long atom, AtomTable atoms) throws IOException {
        Object v = atoms.valueOf(atom);
        if (v instanceof String s) {
            g.writeString(s);
        } else {
            g.writeNumber(atom);
        }
    }

    /** An atom as a JSON object key: the string itself, or the integer in decimal. */
    static String fieldName(long atom, AtomTable atoms) {
        return atoms.valueOf(atom).toString();
    }

    static void list(JsonGenerator g, long[] values, AtomTable atoms) throws IOException {
        g.writeStartArray();
        for (long v : values) {
            atom(g, v, atoms);
        }
        g.writeEndArray();
    }

    /** What a read saw: null when unknown, else a list, or one value in register notation. */
    static void readValue(JsonGenerator g, long[] values, AtomTable atoms, Notation n) throws IOException {
        if (values == null || (n == Notation.RW_REGISTER && values.length == 0)) {
            g.writeNull();
        } else if (n == Notation.RW_REGISTER && values.length == 1) {
            atom(g, values[0], atoms);
        } else {
            list(g, values, atoms);
        }
    }

    /** {@code ["append",k,v]}, {@code ["r",k,[..]]} or {@code ["w",k,v]}. */
    static void mop(JsonGenerator g, MicroOp mop, AtomTable atoms, Notation n) throws IOException {
        g.writeStartArray();
        if (mop instanceof MicroOp.Append a) {
            g.writeString("append");
            atom(g, a.key(), atoms);
            atom(g, a.value(), atoms);
        } else if (mop instanceof MicroOp.Write w) {
            g.writeString("w");
            atom(g, w.key(), atoms);
            atom(g, w.value(), atoms);
        } else {
            MicroOp.Read r = (MicroOp.Read) mop;
            g.writeString("r");
            atom(g, r.key(), atoms);
            readValue(g, r.values(), atoms, n);
        }
        g.writeEndArray();
    }

    /** An op as a Jepsen map: index, time (left out when -1), type, process, f, value. */
    static void op(JsonGenerator g, Op op, AtomTable atoms, Notation n) throws IOException {
        g.writeStartObject();
        g.writeNumberField("index", op.index());
        if (op.time() != -1) {
            g.writeNumberField("time", op.time());
        }
        g.writeStringField("type", op.type().jepsenName());
        g.writeNumberField("process", op.process());
        g.writeStringField("f", "txn");
        g.writeArrayFieldStart("value");
        for (MicroOp m : op.value()) {
            mop(g, m, atoms, n);
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    /**
     * The invocation of a transaction as Jepsen records it: same process and micro-ops, reads
     * unknown. The checker keeps only the invocation's index and time, which is all it differs in.
     */
    static Op invocation(Txn txn, long index, long time) {
        List<MicroOp> mops = new ArrayList<>(txn.completion().value().size());
        for (MicroOp m : txn.completion().value()) {
            mops.add(m instanceof MicroOp.Read r ? new MicroOp.Read(r.key(), null) : m);
        }
        return new Op(index, time, OpType.INVOKE, txn.completion().process(), mops);
    }
}

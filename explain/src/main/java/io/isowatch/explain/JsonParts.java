package io.isowatch.explain;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.isowatch.anomaly.Txn;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import io.isowatch.history.codec.HistoryEventJson;

import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * Jepsen values as JSON, the way elle-cli writes them: ops as maps, micro-ops as arrays.
 *
 * <p>Ops, micro-ops, read values and atoms are written by {@link HistoryEventJson}, the one
 * writer of ops as JSON, and spliced into the generator as raw values; only the register
 * notation of reads is particular to findings. The findings' generators are compact (no pretty
 * printer), so a spliced value reads exactly as the generator would have written it. A fresh
 * writer per value: findings are few and small next to the events the wire format carries.
 */
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
        g.writeRawValue(new HistoryEventJson().atom(atom, atoms));
    }

    /** An atom as a JSON object key: the string itself, or the integer in decimal. */
    static String fieldName(long atom, AtomTable atoms) {
        return atoms.valueOf(atom).toString();
    }

    /** A list of atoms. */
    static void list(JsonGenerator g, long[] values, AtomTable atoms) throws IOException {
        g.writeRawValue(new HistoryEventJson().readValue(values, atoms, false));
    }

    /** What a read saw: null when unknown, else a list, or one value in register notation. */
    static void readValue(JsonGenerator g, long[] values, AtomTable atoms, Notation n) throws IOException {
        g.writeRawValue(new HistoryEventJson().readValue(values, atoms, n == Notation.RW_REGISTER));
    }

    /** {@code ["append",k,v]}, {@code ["r",k,[..]]} or {@code ["w",k,v]}. */
    static void mop(JsonGenerator g, MicroOp mop, AtomTable atoms, Notation n) throws IOException {
        g.writeRawValue(new HistoryEventJson().microOp(mop, atoms, n == Notation.RW_REGISTER));
    }

    /** An op as a Jepsen map: index, time (left out when -1), type, process, f, value. */
    static void op(JsonGenerator g, Op op, AtomTable atoms, Notation n) throws IOException {
        g.writeRawValue(new HistoryEventJson().op(op, atoms, n == Notation.RW_REGISTER));
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

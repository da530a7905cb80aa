package io.isowatch.explain;

import com.fasterxml.jackson.core.JsonGenerator;
import io.isowatch.anomaly.Evidence;
import io.isowatch.anomaly.Finding;
import io.isowatch.anomaly.Txn;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;

import java.io.IOException;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A finding as one JSON object shaped like the anomaly maps elle-cli prints, plus the fields
 * {@code "type"} (the anomaly's Elle name, so a lone finding says what it is) and
 * {@code "explanation"} (the text of {@link FindingText#render}).
 *
 * <p>Shapes, with ops as Jepsen maps ({@code index, time, type, process, f, value}):
 * <ul>
 *   <li>cycles: {@code {"type","cycle":[op..,first op again],"steps":[..],"explanation"}}, a
 *       step being {@code {"type":"ww"|"rw","key","value","value'","a-mop-index","b-mop-index"}},
 *       {@code {"type":"wr","key","value",..}}, {@code {"type":"process","process"}} or
 *       {@code {"type":"realtime","a'":completion,"b":invocation}}. The mop indices are left out
 *       when the micro-op cannot be found. An rw step from the initial state has
 *       {@code "value": null} where Elle has its {@code ::init} marker.</li>
 *   <li>G1a, G1b, future-read, garbage-read: {@code {"op","mop","writer"?,"element"}}</li>
 *   <li>internal: {@code {"op","mop","expected"}}, an unknown prefix written as {@code ["...",3]}</li>
 *   <li>duplicate-elements: {@code {"op","mop","duplicates":{"element":count}}}</li>
 *   <li>incompatible-order: {@code {"key","values":[shorter,longer]}}</li>
 *   <li>dirty-update: {@code {"key","values","txns":[aborted,"...",committed]}}</li>
 *   <li>lost-update: {@code {"key","value","txns"}}</li>
 *   <li>cycle-search-timeout, empty-transaction-graph: {@code {"reason","txns"?}}</li>
 * </ul>
 * Integer keys and values are JSON numbers, string ones JSON strings.
 */
public final class FindingJson {

    private FindingJson() {
    }

    /** Writes the finding as one JSON object; I/O errors come from the generator. */
    public static void write(JsonGenerator g, Finding f, AtomTable atoms) throws IOException {
        write(g, f, atoms, Notation.of(f));
    }

    /** Writes the finding in the workload's notation {@code n}. */
    public static void write(JsonGenerator g, Finding f, AtomTable atoms, Notation n) throws IOException {
        g.writeStartObject();
        g.writeStringField("type", f.type().elleName());
        if (f instanceof Finding.Cycle c) {
            cycle(g, c, atoms, n);
        } else if (f instanceof Finding.BadRead r) {
            opAndMop(g, r.reader(), r.mopIndex(), atoms, n);
            if (r.writer() != null) {
                g.writeFieldName("writer");
                JsonParts.op(g, r.writer().completion(), atoms, n);
            }
            g.writeFieldName("element");
            JsonParts.atom(g, r.element(), atoms);
        } else if (f instanceof Finding.Internal i) {
            opAndMop(g, i.txn(), i.mopIndex(), atoms, n);
            g.writeFieldName("expected");
            expected(g, i, atoms, n);
        } else if (f instanceof Finding.DuplicateElements d) {
            opAndMop(g, d.txn(), d.mopIndex(), atoms, n);
            g.writeObjectFieldStart("duplicates");
            for (Map.Entry<Long, Integer> e : new TreeMap<>(d.counts()).entrySet()) {
                g.writeNumberField(JsonParts.fieldName(e.getKey(), atoms), e.getValue());
            }
            g.writeEndObject();
        } else if (f instanceof Finding.IncompatibleOrder o) {
            key(g, o.key(), atoms);
            g.writeArrayFieldStart("values");
            JsonParts.list(g, o.shorter(), atoms);
            JsonParts.list(g, o.longer(), atoms);
            g.writeEndArray();
        } else if (f instanceof Finding.DirtyUpdate d) {
            key(g, d.key(), atoms);
            g.writeFieldName("values");
            JsonParts.list(g, d.values(), atoms);
            g.writeArrayFieldStart("txns");
            JsonParts.op(g, d.aborted().completion(), atoms, n);
            g.writeString("...");
            JsonParts.op(g, d.committed().completion(), atoms, n);
            g.writeEndArray();
        } else if (f instanceof Finding.LostUpdate l) {
            key(g, l.key(), atoms);
            g.writeFieldName("value");
            JsonParts.readValue(g, l.value(), atoms, n);
            ops(g, "txns", l.txns(), atoms, n);
        } else if (f instanceof Finding.CycleExists c) {
            g.writeStringField("not", c.model());
            g.writeStringField("subgraph", c.subgraph());
            g.writeNumberField("scc-size", c.scc().size());
            g.writeArrayFieldStart("scc");
            for (Txn t : c.scc()) {
                g.writeNumber(t.index());
            }
            g.writeEndArray();
        } else if (f instanceof Finding.CyclicVersions c) {
            key(g, c.key(), atoms);
            g.writeStringField("source", c.source());
            g.writeArrayFieldStart("cycle");
            for (long v : c.cycle()) {
                if (v == io.isowatch.trace.TraceListener.NIL) {
                    g.writeNull();
                } else {
                    JsonParts.atom(g, v, atoms);
                }
            }
            g.writeEndArray();
        } else {
            Finding.Undecided u = (Finding.Undecided) f;
            g.writeStringField("reason", u.reason());
            if (!u.txns().isEmpty()) {
                ops(g, "txns", u.txns(), atoms, n);
            }
        }
        g.writeStringField("explanation", FindingText.render(f, atoms, n));
        g.writeEndObject();
    }

    /** The finding as a JSON string (compact, one line); builds a fresh {@code JsonFactory}. */
    public static String toJson(Finding f, AtomTable atoms) {
        return toJson(f, atoms, Notation.of(f));
    }

    /** The finding as a JSON string in the workload's notation {@code n}. */
    public static String toJson(Finding f, AtomTable atoms, Notation n) {
        return JsonParts.toJson(g -> write(g, f, atoms, n));
    }

    private static void cycle(JsonGenerator g, Finding.Cycle c, AtomTable atoms, Notation n) throws IOException {
        g.writeArrayFieldStart("cycle");
        for (Finding.Step s : c.steps()) {
            JsonParts.op(g, s.from().completion(), atoms, n);
        }
        JsonParts.op(g, c.steps().get(0).from().completion(), atoms, n);
        g.writeEndArray();
        g.writeArrayFieldStart("steps");
        for (Finding.Step s : c.steps()) {
            step(g, s, atoms, n);
        }
        g.writeEndArray();
    }

    private static void step(JsonGenerator g, Finding.Step s, AtomTable atoms, Notation n) throws IOException {
        Evidence ev = s.evidence();
        g.writeStartObject();
        g.writeStringField("type", ev.kind().elleName());
        if (ev instanceof Evidence.WriteWrite ww) {
            key(g, ww.key(), atoms);
            g.writeFieldName("value");
            JsonParts.atom(g, ww.previous(), atoms);
            g.writeFieldName("value'");
            JsonParts.atom(g, ww.value(), atoms);
            mopIndices(g, writeIndex(s.from(), ww.key(), ww.previous()), writeIndex(s.to(), ww.key(), ww.value()));
        } else if (ev instanceof Evidence.WriteRead wr) {
            key(g, wr.key(), atoms);
            g.writeFieldName("value");
            JsonParts.atom(g, wr.value(), atoms);
            mopIndices(g, writeIndex(s.from(), wr.key(), wr.value()), readIndex(s.to(), wr.key(), false, wr.value()));
        } else if (ev instanceof Evidence.ReadWrite rw) {
            key(g, rw.key(), atoms);
            g.writeFieldName("value");
            if (rw.initial()) {
                g.writeNull();
            } else {
                JsonParts.atom(g, rw.previous(), atoms);
            }
            g.writeFieldName("value'");
            JsonParts.atom(g, rw.value(), atoms);
            mopIndices(g, readIndex(s.from(), rw.key(), rw.initial(), rw.previous()),
                    writeIndex(s.to(), rw.key(), rw.value()));
        } else if (ev instanceof Evidence.Process p) {
            g.writeNumberField("process", p.process());
        } else {
            Evidence.Realtime rt = (Evidence.Realtime) ev;
            g.writeFieldName("a'");
            JsonParts.op(g, s.from().completion(), atoms, n);
            g.writeFieldName("b");
            JsonParts.op(g, JsonParts.invocation(s.to(), rt.invokedIndex(), rt.invokedTime()), atoms, n);
            if (rt.agents() != null) { // isowatch's own fields: Elle knows one clock only
                g.writeStringField("a-agent", rt.agents().completedOn());
                g.writeStringField("b-agent", rt.agents().invokedOn());
                g.writeNumberField("clock-uncertainty-ns", rt.agents().clockUncertaintyNanos());
            }
        }
        g.writeEndObject();
    }

    private static void mopIndices(JsonGenerator g, int a, int b) throws IOException {
        if (a >= 0) {
            g.writeNumberField("a-mop-index", a);
        }
        if (b >= 0) {
            g.writeNumberField("b-mop-index", b);
        }
    }

    /** The micro-op of {@code txn} that appended or wrote {@code value} to {@code key}; -1 if none. */
    static int writeIndex(Txn txn, long key, long value) {
        List<MicroOp> mops = txn.completion().value();
        for (int i = 0; i < mops.size(); i++) {
            MicroOp m = mops.get(i);
            if (m instanceof MicroOp.Append a && a.key() == key && a.value() == value
                    || m instanceof MicroOp.Write w && w.key() == key && w.value() == value) {
                return i;
            }
        }
        return -1;
    }

    /**
     * The first read of {@code key} ending in {@code last}, or of the initial state when
     * {@code initial}; -1 if none. A register's initial state is read as nil (an unknown read to
     * {@link MicroOp.Read}) or {@code []}; a list-append rw step never starts at an unknown read,
     * since a completed read of nil is already {@code []} here (CompletedReads).
     */
    static int readIndex(Txn txn, long key, boolean initial, long last) {
        List<MicroOp> mops = txn.completion().value();
        for (int i = 0; i < mops.size(); i++) {
            if (mops.get(i) instanceof MicroOp.Read r && r.key() == key
                    && (initial ? r.length() == 0 : r.length() > 0 && r.values()[r.length() - 1] == last)) {
                return i;
            }
        }
        return -1;
    }

    private static void opAndMop(JsonGenerator g, Txn txn, int mopIndex, AtomTable atoms, Notation n)
            throws IOException {
        Op op = txn.completion();
        MicroOp.Read r = FindingText.read(op, mopIndex);
        g.writeFieldName("op");
        JsonParts.op(g, op, atoms, n);
        g.writeFieldName("mop");
        JsonParts.mop(g, r, atoms, n);
    }

    private static void expected(JsonGenerator g, Finding.Internal i, AtomTable atoms, Notation n) throws IOException {
        if (n == Notation.RW_REGISTER && !i.unknownPrefix() && i.expected().length <= 1) {
            JsonParts.readValue(g, i.expected(), atoms, n);
            return;
        }
        g.writeStartArray();
        if (i.unknownPrefix()) {
            g.writeString("...");
        }
        for (long v : i.expected()) {
            JsonParts.atom(g, v, atoms);
        }
        g.writeEndArray();
    }

    private static void key(JsonGenerator g, long key, AtomTable atoms) throws IOException {
        g.writeFieldName("key");
        JsonParts.atom(g, key, atoms);
    }

    private static void ops(JsonGenerator g, String field, List<Txn> txns, AtomTable atoms, Notation n)
            throws IOException {
        g.writeArrayFieldStart(field);
        for (Txn t : txns) {
            JsonParts.op(g, t.completion(), atoms, n);
        }
        g.writeEndArray();
    }
}

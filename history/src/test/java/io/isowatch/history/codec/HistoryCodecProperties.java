package io.isowatch.history.codec;

import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Round trips of the history codecs. Ops are generated with keys and values as plain objects
 * (a {@link Long} or a {@link String}) and turned into atoms inside each try, so every try has
 * its own {@link AtomTable}.
 */
class HistoryCodecProperties {

    /** A micro-op before atoms: kind a/r/w; for a read, value is null or a List of elements. */
    record MopSpec(char kind, Object key, Object value) {
    }

    record OpSpec(long index, long time, OpType type, long process, List<MopSpec> mops) {
    }

    @Property(tries = 300, seed = "20240501")
    void jsonLines_writeThenRead_givesEqualOps(@ForAll("histories") List<OpSpec> specs) {
        AtomTable atoms = new AtomTable();
        List<Op> ops = toOps(specs, atoms);
        String text = writeJsonLines(ops, atoms);
        List<Op> back = HistoryReaderTest.readAll("p.jsonl", text, atoms);
        assertEquals(withLines(ops), back);
    }

    @Property(tries = 200, seed = "20240502")
    void jsonLines_readWithFreshTable_rewritesToTheSameBytes(@ForAll("histories") List<OpSpec> specs) {
        AtomTable atoms = new AtomTable();
        String text = writeJsonLines(toOps(specs, atoms), atoms);
        AtomTable fresh = new AtomTable();
        List<Op> back = HistoryReaderTest.readAll("p.jsonl", text, fresh);
        assertEquals(text, writeJsonLines(back, fresh));
    }

    @Property(tries = 200, seed = "20240503")
    void jsonArray_readsTheSameOpsAsJsonLines(@ForAll("histories") List<OpSpec> specs) {
        AtomTable atoms = new AtomTable();
        List<Op> ops = toOps(specs, atoms);
        String lines = writeJsonLines(ops, atoms);
        String array = "[\n" + String.join(",\n", lines.lines().toList()) + "\n]\n";
        assertEquals(withLines(ops, 2), HistoryReaderTest.readAll("p.json", array, atoms));
    }

    @Property(tries = 300, seed = "20240504")
    void edn_readsTheSameOpsAsJsonLines(@ForAll("histories") List<OpSpec> specs, @ForAll long styleSeed) {
        AtomTable atoms = new AtomTable();
        List<Op> ops = toOps(specs, atoms);
        Random style = new Random(styleSeed);
        boolean wrapped = style.nextBoolean();
        StringBuilder edn = new StringBuilder(wrapped ? "[" : "");
        for (int i = 0; i < specs.size(); i++) {
            edn.append(i == 0 ? "" : "\n").append(renderEdn(specs.get(i), style));
        }
        edn.append(wrapped ? "]\n" : "\n");
        AtomTable ednAtoms = new AtomTable();
        List<Op> back = HistoryReaderTest.readAll("p.edn", edn.toString(), ednAtoms);
        assertEquals(writeJsonLines(ops, atoms), writeJsonLines(back, ednAtoms));
    }

    // ---- generators ----

    @Provide
    Arbitrary<List<OpSpec>> histories() {
        return op().list().ofMaxSize(12);
    }

    private Arbitrary<OpSpec> op() {
        Arbitrary<Long> index = Arbitraries.oneOf(Arbitraries.longs().between(0, 1_000_000), Arbitraries.longs());
        Arbitrary<Long> time = Arbitraries.oneOf(Arbitraries.just(-1L), Arbitraries.longs().between(0, Long.MAX_VALUE),
                Arbitraries.longs());
        Arbitrary<OpType> type = Arbitraries.of(OpType.class);
        Arbitrary<Long> process = Arbitraries.oneOf(Arbitraries.longs().between(0, 50), Arbitraries.longs());
        return Combinators.combine(index, time, type, process, mop().list().ofMaxSize(6)).as(OpSpec::new);
    }

    private Arbitrary<MopSpec> mop() {
        Arbitrary<MopSpec> append = Combinators.combine(atom(), atom()).as((k, v) -> new MopSpec('a', k, v));
        Arbitrary<MopSpec> write = Combinators.combine(atom(), atom()).as((k, v) -> new MopSpec('w', k, v));
        Arbitrary<Object> result = atom().list().ofMaxSize(5).map(l -> (Object) l).injectNull(0.3);
        Arbitrary<MopSpec> read = Combinators.combine(atom(), result).as((k, v) -> new MopSpec('r', k, v));
        return Arbitraries.oneOf(append, write, read);
    }

    private Arbitrary<Object> atom() {
        Arbitrary<Object> small = Arbitraries.longs().between(-5, 100).map(l -> l);
        Arbitrary<Object> any = Arbitraries.longs().filter(l -> !AtomTable.isString(l)).map(l -> l);
        Arbitrary<Object> word = Arbitraries.strings().withCharRange('a', 'z').ofMinLength(1).ofMaxLength(4).map(s -> s);
        Arbitrary<Object> wild = Arbitraries.strings()
                .withCharRange(' ', '~').withChars('\n', '\t', '\r', '\u0001', 'é', 'ß', '中', '"', '\\')
                .ofMaxLength(8).map(s -> s);
        Arbitrary<Object> emoji = Arbitraries.of("😀", "a😀b", "𝄞").map(s -> s);
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(5, small), net.jqwik.api.Tuple.of(2, any), net.jqwik.api.Tuple.of(3, word),
                net.jqwik.api.Tuple.of(2, wild), net.jqwik.api.Tuple.of(1, emoji));
    }

    // ---- helpers ----

    private static List<Op> toOps(List<OpSpec> specs, AtomTable atoms) {
        List<Op> ops = new ArrayList<>();
        for (OpSpec s : specs) {
            List<MicroOp> mops = new ArrayList<>();
            for (MopSpec m : s.mops()) {
                long key = atomOf(m.key(), atoms);
                mops.add(switch (m.kind()) {
                    case 'a' -> new MicroOp.Append(key, atomOf(m.value(), atoms));
                    case 'w' -> new MicroOp.Write(key, atomOf(m.value(), atoms));
                    default -> {
                        if (m.value() == null) {
                            yield new MicroOp.Read(key, null);
                        }
                        List<?> elements = (List<?>) m.value();
                        long[] values = new long[elements.size()];
                        for (int i = 0; i < values.length; i++) {
                            values[i] = atomOf(elements.get(i), atoms);
                        }
                        yield new MicroOp.Read(key, values);
                    }
                });
            }
            ops.add(new Op(s.index(), s.time(), s.type(), s.process(), mops));
        }
        return ops;
    }

    private static long atomOf(Object value, AtomTable atoms) {
        return value instanceof String s ? atoms.ofString(s) : AtomTable.ofInteger((Long) value);
    }

    private static String writeJsonLines(List<Op> ops, AtomTable atoms) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (JsonLinesWriter writer = new JsonLinesWriter(bytes, atoms)) {
            ops.forEach(writer::write);
        }
        return bytes.toString(StandardCharsets.UTF_8);
    }

    private static List<Op> withLines(List<Op> ops) {
        return withLines(ops, 1);
    }

    private static List<Op> withLines(List<Op> ops, long firstLine) {
        List<Op> out = new ArrayList<>();
        for (int i = 0; i < ops.size(); i++) {
            Op o = ops.get(i);
            out.add(new Op(o.index(), o.time(), o.type(), o.process(), o.value(), firstLine + i));
        }
        return out;
    }

    /** Renders an op as Jepsen EDN, varying field order, separators and name spellings. */
    private static String renderEdn(OpSpec s, Random style) {
        List<String> fields = new ArrayList<>();
        fields.add(":index " + s.index());
        if (s.time() != -1) {
            fields.add(":time " + s.time());
        }
        fields.add(":type " + name(s.type().jepsenName(), style));
        fields.add(":process " + s.process());
        fields.add(":f " + name("txn", style));
        StringBuilder value = new StringBuilder("[");
        for (MopSpec m : s.mops()) {
            value.append(value.length() > 1 ? " " : "").append('[');
            value.append(name(m.kind() == 'a' ? "append" : String.valueOf(m.kind()), style));
            value.append(' ').append(ednAtom(m.key(), style)).append(' ');
            if (m.kind() != 'r') {
                value.append(ednAtom(m.value(), style));
            } else if (m.value() == null) {
                value.append("nil");
            } else {
                List<?> elements = (List<?>) m.value();
                if (elements.size() == 1 && style.nextInt(3) == 0) {
                    value.append(ednAtom(elements.get(0), style));
                } else {
                    value.append(style.nextBoolean() ? "[" : "(");
                    String close = value.charAt(value.length() - 1) == '[' ? "]" : ")";
                    for (int i = 0; i < elements.size(); i++) {
                        value.append(i == 0 ? "" : style.nextBoolean() ? " " : ", ").append(ednAtom(elements.get(i), style));
                    }
                    value.append(close);
                }
            }
            value.append(']');
        }
        fields.add(":value " + value.append(']'));
        if (style.nextInt(4) == 0) {
            fields.add(":error [:abort #{\"n1\"} 1.5 nil]");
        }
        java.util.Collections.shuffle(fields, style);
        return "{" + String.join(style.nextBoolean() ? ", " : " ", fields) + "}";
    }

    private static String name(String name, Random style) {
        return switch (style.nextInt(3)) {
            case 0 -> ":" + name;
            case 1 -> "\"" + name + "\"";
            default -> "\":" + name + "\"";
        };
    }

    private static String ednAtom(Object atom, Random style) {
        if (atom instanceof Long l) {
            return l.toString();
        }
        String s = (String) atom;
        if (s.matches("[a-z][a-z0-9]*") && style.nextBoolean()) {
            return ":" + s;
        }
        StringBuilder b = new StringBuilder("\"");
        s.codePoints().forEach(c -> {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append(style.nextBoolean() ? "\\n" : "\n");
                case '\t' -> b.append("\\t");
                case '\r' -> b.append("\\r");
                default -> {
                    if (c < 0x20 || c > 0x7e && style.nextBoolean()) {
                        for (char unit : Character.toChars(c)) {
                            b.append(String.format("\\u%04x", (int) unit));
                        }
                    } else {
                        b.appendCodePoint(c);
                    }
                }
            }
        });
        return b.append('"').toString();
    }
}

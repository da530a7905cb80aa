package io.isowatch.explain;

import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Validity;
import io.isowatch.checker.Verdict;
import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.testing.Golden;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A verdict read back renders, as text and as JSON, exactly as the verdict written: for every
 * golden history, and for each again with its keys and values turned into strings, keywords and
 * symbols, read into a table that never saw them.
 */
class VerdictCodecTest {

    static List<Golden.Case> cases() {
        return Golden.cases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void readBack_goldenVerdict_rendersAsWritten(Golden.Case c) throws IOException {
        AtomTable atoms = new AtomTable();
        assertReadsBack(check(c, c.ops(atoms), atoms), atoms);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void readBack_goldenVerdictOverNamedAtoms_rendersAsWritten(Golden.Case c) throws IOException {
        AtomTable atoms = new AtomTable();
        List<Op> ops = named(c.ops(atoms), atoms);
        assertReadsBack(check(c, ops, atoms), atoms);
    }

    @Test
    void read_foreignMagic_isRejectedByName() {
        IOException e = assertThrows(IOException.class,
                () -> VerdictCodec.read(input(new byte[] {'I', 'W', 'H', 'E', 1}), new AtomTable()));
        assertTrue(e.getMessage().contains("IWVD"), e.getMessage());
    }

    @Test
    void read_unknownVersion_isRejectedNamingBoth() {
        IOException e = assertThrows(IOException.class,
                () -> VerdictCodec.read(input(new byte[] {'I', 'W', 'V', 'D', 9}), new AtomTable()));
        assertTrue(e.getMessage().contains("version 9") && e.getMessage().contains("version 1"), e.getMessage());
    }

    @Test
    void readBack_aFleetVerdict_keepsTheAgentsOfARealtimeStep() throws IOException {
        AtomTable atoms = new AtomTable();
        IncrementalChecker checker = new IncrementalChecker(io.isowatch.checker.CheckerOptions.defaults(), atoms);
        checker.checkAsFleet(java.time.Duration.ofMillis(10), List.of("host-a", "host-b"));
        long ms = 1_000_000;
        int[] agent = {0, 0, 1, 1, 0, 0};
        Op[] ops = {
            new Op(0, 990 * ms, io.isowatch.history.OpType.INVOKE, 1, List.of(new MicroOp.Append(1, 1))),
            new Op(1, 1000 * ms, io.isowatch.history.OpType.OK, 1, List.of(new MicroOp.Append(1, 1))),
            new Op(2, 1050 * ms, io.isowatch.history.OpType.INVOKE, 2, List.of(new MicroOp.Read(1, null))),
            new Op(3, 1051 * ms, io.isowatch.history.OpType.OK, 2, List.of(new MicroOp.Read(1, new long[0]))),
            new Op(4, 1052 * ms, io.isowatch.history.OpType.INVOKE, 1, List.of(new MicroOp.Read(1, null))),
            new Op(5, 1053 * ms, io.isowatch.history.OpType.OK, 1, List.of(new MicroOp.Read(1, new long[] {1}))),
        };
        for (int i = 0; i < ops.length; i++) {
            checker.accept(ops[i], agent[i]);
        }
        Verdict v = checker.finish();
        assertEquals(Validity.FALSE, v.valid());
        assertTrue(VerdictText.render(v, atoms).contains("on agent host-b: more than the clock uncertainty of 10 ms"),
                VerdictText.render(v, atoms));
        assertReadsBack(v, atoms);
    }

    @Test
    void read_emptyValidVerdict_keepsStats() throws IOException {
        Verdict v = new Verdict(Validity.TRUE, List.of(), Map.of(), new TreeSet<>(), new TreeSet<>(),
                new Verdict.Stats(3, 2, 1, 0, 6, 4));
        Verdict back = VerdictCodec.read(input(bytes(v, new AtomTable())), new AtomTable());
        assertEquals(v, back);
    }

    private static void assertReadsBack(Verdict v, AtomTable atoms) throws IOException {
        AtomTable fresh = new AtomTable();
        Verdict back = VerdictCodec.read(input(bytes(v, atoms)), fresh);
        assertEquals(VerdictText.render(v, atoms), VerdictText.render(back, fresh));
        assertEquals(VerdictJson.toJson(v, atoms, 1.25), VerdictJson.toJson(back, fresh, 1.25));
        assertEquals(v.stats(), back.stats());
        assertEquals(v.anomalies().keySet(), back.anomalies().keySet());
    }

    private static Verdict check(Golden.Case c, List<Op> ops, AtomTable atoms) {
        IncrementalChecker checker = new IncrementalChecker(c.checkerOptions(), atoms);
        ops.forEach(checker::accept);
        return checker.finish();
    }

    private static byte[] bytes(Verdict v, AtomTable atoms) throws IOException {
        ByteArrayOutputStream buffer = new ByteArrayOutputStream();
        VerdictCodec.write(new DataOutputStream(buffer), v, atoms);
        return buffer.toByteArray();
    }

    private static DataInputStream input(byte[] bytes) {
        return new DataInputStream(new ByteArrayInputStream(bytes));
    }

    /**
     * The ops with every integer key {@code n} renamed {@code kn} (a keyword, string or symbol by
     * {@code n mod 3}) and every integer value {@code n} renamed to the string {@code vn}.
     */
    private static List<Op> named(List<Op> ops, AtomTable atoms) {
        List<Op> out = new ArrayList<>(ops.size());
        for (Op op : ops) {
            List<MicroOp> mops = new ArrayList<>();
            for (MicroOp m : op.value()) {
                long key = key(m.key(), atoms);
                if (m instanceof MicroOp.Append a) {
                    mops.add(new MicroOp.Append(key, value(a.value(), atoms)));
                } else if (m instanceof MicroOp.Write w) {
                    mops.add(new MicroOp.Write(key, value(w.value(), atoms)));
                } else {
                    long[] values = ((MicroOp.Read) m).values();
                    long[] renamed = values == null ? null : new long[values.length];
                    for (int i = 0; renamed != null && i < values.length; i++) {
                        renamed[i] = value(values[i], atoms);
                    }
                    mops.add(new MicroOp.Read(key, renamed));
                }
            }
            out.add(new Op(op.index(), op.time(), op.type(), op.process(), mops, op.sourceLine()));
        }
        return out;
    }

    private static long key(long atom, AtomTable atoms) {
        if (AtomTable.isString(atom)) {
            return atom;
        }
        AtomTable.Kind kind = AtomTable.Kind.values()[(int) Math.floorMod(atom, 3L)];
        return atoms.of(kind, "k" + atom);
    }

    private static long value(long atom, AtomTable atoms) {
        return AtomTable.isString(atom) ? atom : atoms.ofString("v" + atom);
    }
}

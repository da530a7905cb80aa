package io.isowatch.ui;

import io.isowatch.anomaly.Finding;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Verdict;
import io.isowatch.explain.CycleSvg;
import io.isowatch.explain.FindingJson;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.testing.Golden;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CycleJsonTest {

    /**
     * The console draws a cycle from the JSON an alert carries; the picture must be the one
     * {@code check -o} draws from the checker's own finding, for every cycle of every golden
     * history (process and realtime steps among them) that is JSON, as the agent's histories
     * are. (An EDN history's keyword keys, {@code :x}, come back from JSON as the strings
     * {@code "x"}: JSON has no keywords. The static report draws from the finding itself.)
     */
    @Test
    void svg_fromTheFindingsJson_isThePictureOfTheFindingItself_forEveryGoldenCycle() {
        int cycles = 0;
        for (Golden.Case c : Golden.cases()) {
            if (!c.history().toString().endsWith(".jsonl")) {
                continue;
            }
            AtomTable atoms = new AtomTable();
            IncrementalChecker checker = new IncrementalChecker(c.checkerOptions(), atoms);
            for (Op op : c.ops(atoms)) {
                checker.accept(op);
            }
            Verdict verdict = checker.finish();
            for (List<Finding> findings : verdict.anomalies().values()) {
                for (Finding f : findings) {
                    String json = FindingJson.toJson(f, atoms);
                    if (f instanceof Finding.Cycle cycle) {
                        cycles++;
                        assertEquals(CycleSvg.render(cycle, atoms), CycleJson.svg(json), c.name() + ": " + json);
                    } else {
                        assertNull(CycleJson.svg(json), c.name() + ": " + f.type() + " is no cycle");
                    }
                }
            }
        }
        assertTrue(cycles > 20, "the golden histories hold many cycles, found " + cycles);
    }

    /** A fleet's realtime step between two agents draws, from its JSON, as from the finding: agents in the label. */
    @Test
    void svg_ofAFleetsRealtimeStep_namesItsAgents() {
        AtomTable atoms = new AtomTable();
        IncrementalChecker checker = new IncrementalChecker(io.isowatch.checker.CheckerOptions.defaults(), atoms);
        checker.checkAsFleet(java.time.Duration.ofMillis(10), List.of("host-a", "host-b"));
        long ms = 1_000_000;
        int[] agent = {0, 0, 1, 1, 0, 0};
        Op[] ops = {
            new Op(0, 990 * ms, io.isowatch.history.OpType.INVOKE, 1, List.of(new io.isowatch.history.MicroOp.Append(1, 1))),
            new Op(1, 1000 * ms, io.isowatch.history.OpType.OK, 1, List.of(new io.isowatch.history.MicroOp.Append(1, 1))),
            new Op(2, 1050 * ms, io.isowatch.history.OpType.INVOKE, 2, List.of(new io.isowatch.history.MicroOp.Read(1, null))),
            new Op(3, 1051 * ms, io.isowatch.history.OpType.OK, 2, List.of(new io.isowatch.history.MicroOp.Read(1, new long[0]))),
            new Op(4, 1052 * ms, io.isowatch.history.OpType.INVOKE, 1, List.of(new io.isowatch.history.MicroOp.Read(1, null))),
            new Op(5, 1053 * ms, io.isowatch.history.OpType.OK, 1, List.of(new io.isowatch.history.MicroOp.Read(1, new long[] {1}))),
        };
        for (int i = 0; i < ops.length; i++) {
            checker.accept(ops[i], agent[i]);
        }
        Finding.Cycle cycle = (Finding.Cycle) checker.finish().anomalies().values().iterator().next().get(0);
        String json = FindingJson.toJson(cycle, atoms);
        String svg = CycleJson.svg(json);
        assertEquals(CycleSvg.render(cycle, atoms), svg);
        assertTrue(svg.contains("@host-a") && svg.contains("@host-b"), svg);
    }

    @Test
    void svg_ofWhatIsNoFindingJson_isNull() {
        assertNull(CycleJson.svg("not json"));
        assertNull(CycleJson.svg("{\"type\":\"G2-item\",\"cycle\":[],\"steps\":[]}"));
        assertNull(CycleJson.svg("{\"type\":\"no-such-anomaly\"}"));
    }
}

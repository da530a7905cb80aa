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

    @Test
    void svg_ofWhatIsNoFindingJson_isNull() {
        assertNull(CycleJson.svg("not json"));
        assertNull(CycleJson.svg("{\"type\":\"G2-item\",\"cycle\":[],\"steps\":[]}"));
        assertNull(CycleJson.svg("{\"type\":\"no-such-anomaly\"}"));
    }
}

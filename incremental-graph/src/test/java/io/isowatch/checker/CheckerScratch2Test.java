package io.isowatch.checker;

import io.isowatch.history.Op;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

class CheckerScratch2Test {

    static void show(String name, List<Op> h, CheckerOptions o) {
        BatchReference.Result r = BatchReference.check(h, o.consistencyModels(), o.anomalies());
        String chk;
        try {
            Verdict v = CheckerHistories.check(h, o);
            chk = v.valid() + " " + CheckerHistories.typeNames(v) + " not=" + v.not();
        } catch (RuntimeException e) {
            chk = e.toString();
        }
        System.out.println("### " + name + "\n  ref: " + r.valid() + " " + r.types() + " all=" + r.all()
                + "\n  chk: " + chk);
    }

    @Test
    void probes() {
        CheckerOptions d = CheckerOptions.defaults();
        List<Op> h = CheckerHistories.history()
                .txn(0, "a:0:1").txn(0, "a:0:2").txn(0, "r:0:1").txn(0, "r:0:2,1 r:0:1,2").build();
        try { CheckerHistories.check(h, d); } catch (RuntimeException e) { e.printStackTrace(System.out); }
        String[] c = {"a:0:1", "a:0:2", "r:0:1", "r:0:2,1 r:0:1,2"};
        var b = CheckerHistories.history();
        for (int p = 0; p < c.length; p++) b.invoke(p, c[p]);
        for (int p = 0; p < c.length; p++) b.ok(p, c[p]);
        show("crash-concurrent", b.build(), d);
        show("crash-min3", CheckerHistories.history().txn(0, "a:0:1").txn(0, "r:0:1").txn(0, "r:0:2,1 r:0:1,2").build(), d);
        show("crash-min4", CheckerHistories.history().txn(0, "a:0:1").txn(0, "r:0:1").txn(0, "r:0:2 r:0:1,2").build(), d);
    }
}

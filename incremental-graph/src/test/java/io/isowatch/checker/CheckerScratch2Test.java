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
        show("crash1", CheckerHistories.history()
                .txn(0, "a:0:1").txn(0, "a:0:2").txn(0, "r:0:1").txn(0, "r:0:2,1").txn(0, "r:0:1,2").build(), d);
        show("crash2", CheckerHistories.history()
                .txn(0, "a:0:1").txn(0, "a:0:2").txn(0, "r:0:1").txn(0, "r:0:2,1 r:0:1,2").build(), d);
        show("crash3", CheckerHistories.history()
                .txn(0, "a:0:1").txn(0, "a:0:2").txn(0, "r:0:1").txn(0, "r:0:2,1").txn(0, "r:0:1,2 a:1:1").txn(1, "r:1:").build(), d);
    }
}

package io.isowatch.checker;

import io.isowatch.history.Op;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Set;

class CheckerScratchTest {

    static void show(String name, List<Op> h, CheckerOptions o) {
        BatchReference.Result r = BatchReference.check(h, o.consistencyModels(), o.anomalies());
        Verdict v = CheckerHistories.check(h, o);
        System.out.println("### " + name + "\n  ref: " + r.valid() + " " + r.types() + " all=" + r.all()
                + "\n  chk: " + v.valid() + " " + CheckerHistories.typeNames(v) + " not=" + v.not());
    }

    @Test
    void probes() {
        CheckerOptions d = CheckerOptions.defaults();
        // (b) lost-update: read after own first append, then second append
        show("lost-update-quirk", CheckerHistories.history()
                .txn(0, "a:0:0")
                .invoke(1, "a:0:1 r:0 a:0:2").invoke(2, "r:0 a:0:3")
                .ok(1, "a:0:1 r:0:0,1 a:0:2").ok(2, "r:0:0,1 a:0:3").build(), d);
        // (d) realtime pair later gets a data edge: A -rt-> B, B -rw-> A, later A -rw-> B
        // A: r x [] ; completes. B invoked after A completes: appends x 1, reads y [] ; A appends y? no...
        show("pair-kind-change", CheckerHistories.history()
                .txn(0, "r:0: a:1:1")      // A reads key0 empty, appends key1 1
                .txn(1, "a:0:1 r:1:")      // B (after A): appends key0 1, reads key1 empty -> rw B->A (key1), rw A->B (key0) ; realtime A->B
                .build(), d);
        // incompatible + G1a in the divergent read
        show("incompatible-g1a", CheckerHistories.history()
                .txn(0, "a:0:1").txn(1, "a:0:2").invoke(2, "a:0:3").fail(2)
                .txn(3, "r:0:1,2").txn(4, "r:0:1,3").build(), d);
        // incompatible + lost update on the divergent value
        show("incompatible-lost-update", CheckerHistories.history()
                .txn(0, "a:0:1").txn(1, "a:0:2").txn(2, "a:0:3")
                .txn(3, "r:0:1,2").invoke(4, "r:0 a:0:4").invoke(5, "r:0 a:0:5")
                .ok(4, "r:0:1,3 a:0:4").ok(5, "r:0:1,3 a:0:5").build(), d);
        show("incompatible-garbage", CheckerHistories.history()
                .txn(0, "a:0:1").txn(1, "a:0:2")
                .txn(3, "r:0:1,2").txn(4, "r:0:1,99").build(), d);
        show("incompatible-dup", CheckerHistories.history()
                .txn(0, "a:0:1").txn(1, "a:0:2")
                .txn(3, "r:0:1,2").txn(4, "r:0:2,2").build(), d);
    }
}

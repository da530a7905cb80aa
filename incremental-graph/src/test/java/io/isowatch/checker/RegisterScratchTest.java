package io.isowatch.checker;

import io.isowatch.history.Op;
import org.junit.jupiter.api.Test;
import java.util.List;
import java.util.Set;

class RegisterScratchTest {
    static void show(String name, List<Op> h, RegisterHistories.Sources s) {
        Set<String> m = Set.of("strict-serializable");
        Verdict v = RegisterHistories.check(h, RegisterHistories.options(m, s.options));
        var r = RegisterBatchReference.check(h, m, Set.of(), s.options);
        System.out.println("SCRATCH " + name + " " + s + ": checker " + v.valid() + " " + v.anomalyTypes() + " | ref " + r);
    }

    @Test
    void probe() {
        show("wfr-g1c", RegisterHistories.history()
                .invoke(0, "w:x:1 r:y:1 w:y:2").invoke(1, "r:x:1 w:x:2 w:y:1")
                .ok(0, "w:x:1 r:y:1 w:y:2").ok(1, "r:x:1 w:x:2 w:y:1").build(), RegisterHistories.Sources.WFR);
        show("g1a-nonext", RegisterHistories.history()
                .txn(0, "w:x:1").invoke(1, "w:x:2").fail(1).txn(2, "r:x:1 r:x:2").build(), RegisterHistories.Sources.NONE);
        show("g1b-nonext", RegisterHistories.history()
                .txn(0, "w:x:1").txn(1, "w:x:2 w:x:3").txn(2, "r:x:1 r:x:2").build(), RegisterHistories.Sources.NONE);
        show("garbage-nonext", RegisterHistories.history()
                .txn(0, "w:x:1").txn(2, "r:x: r:x:99").build(), RegisterHistories.Sources.NONE);
        show("aborted-intermediate", RegisterHistories.history()
                .invoke(0, "w:x:1 w:x:2").fail(0).txn(1, "r:x:1").txn(2, "w:y:1").txn(3, "r:y:1").build(), RegisterHistories.Sources.NONE);
        // realtime compression: a(w k 1) ; d (w y 1) and c (r k 1 w k 2) start; c ok; d ok; b (w k 3)
        show("rt-compress", RegisterHistories.history()
                .txn(0, "w:x:1")
                .invoke(1, "w:y:1").invoke(2, "r:x:1 w:x:2").ok(2, "r:x:1 w:x:2").ok(1, "w:y:1")
                .txn(3, "w:x:3").build(), RegisterHistories.Sources.LINEARIZABLE);
        show("rt-compress2", RegisterHistories.history()
                .invoke(4, "r:x: r:y:")
                .txn(0, "w:x:1")
                .invoke(1, "w:u:1").invoke(2, "r:x:1 w:x:2").ok(2, "r:x:1 w:x:2").ok(1, "w:u:1")
                .txn(3, "w:x:3 w:y:7")
                .ok(4, "r:x:1 r:y:7").build(), RegisterHistories.Sources.LINEARIZABLE);
    }
}

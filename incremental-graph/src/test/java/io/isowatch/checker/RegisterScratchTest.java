package io.isowatch.checker;

import io.isowatch.history.Op;
import org.junit.jupiter.api.Test;
import java.util.List;
import java.util.Set;

class RegisterScratchTest {
    static void show(String name, List<Op> h, RegisterHistories.Sources s) {
        Verdict v = RegisterHistories.check(h, RegisterHistories.options(Set.of("strict-serializable"), s.options));
        System.out.println("SCRATCH " + name + " " + s + ": " + v.valid() + " " + v.anomalyTypes() + " not=" + v.not());
    }

    @Test
    void probe() {
        // 1. G1c via wfr: each reads the other's write then overwrites
        show("wfr-g1c", RegisterHistories.history()
                .invoke(0, "w:x:1 r:y:1 w:y:2").invoke(1, "r:x:1 w:x:2 w:y:1")
                .ok(0, "w:x:1 r:y:1 w:y:2").ok(1, "r:x:1 w:x:2 w:y:1").build(), RegisterHistories.Sources.WFR);
        // 3. non-external G1a
        show("g1a-nonext", RegisterHistories.history()
                .txn(0, "w:x:1").invoke(1, "w:x:2").fail(1).txn(2, "r:x:1 r:x:2").build(), RegisterHistories.Sources.NONE);
        // 4. non-external G1b
        show("g1b-nonext", RegisterHistories.history()
                .txn(0, "w:x:1").txn(1, "w:x:2 w:x:3").txn(2, "r:x:1 r:x:2").build(), RegisterHistories.Sources.NONE);
        // 5. garbage non-external
        show("garbage-nonext", RegisterHistories.history()
                .txn(0, "w:x:1").txn(2, "r:x: r:x:99").build(), RegisterHistories.Sources.NONE);
    }
}

package io.isowatch.checker;

import io.isowatch.history.Op;
import org.junit.jupiter.api.Test;
import java.util.List;
import java.util.Set;
import static io.isowatch.checker.RegisterHistories.history;

class RegisterScratchTest {
    static void cmp(String name, List<Op> h) {
        for (RegisterCheckerProperties.Models m : RegisterCheckerProperties.Models.values()) {
            for (RegisterHistories.Sources s : RegisterHistories.Sources.values()) {
                var r = RegisterBatchReference.check(h, m.models, Set.of(), s.options);
                Verdict v;
                try { v = RegisterHistories.check(h, RegisterHistories.options(m.models, s.options)); }
                catch (RuntimeException e) { System.out.println("SCRATCH " + name + " " + m + " " + s + " THROWS " + e); continue; }
                if (r == null) { System.out.println("SCRATCH " + name + " " + m + " " + s + " undecided"); continue; }
                boolean same = r.types().equals(CheckerHistories.typeNames(v)) && r.valid() == v.valid() && r.not().equals(v.not()) && r.alsoNot().equals(v.alsoNot());
                if (!same) System.out.println("SCRATCH " + name + " " + m + " " + s + " checker " + v.valid() + CheckerHistories.typeNames(v) + " ref " + r.valid() + r.types());
            }
        }
        System.out.println("SCRATCH done " + name);
    }

    @Test
    void probe() {
        cmp("future-read", history().txn(0, "r:x:1").txn(1, "w:x:1").build());
        cmp("future-read-intermediate", history().txn(0, "r:x:1").txn(1, "w:x:1 w:x:2").build());
        cmp("info-writer-read", history().invoke(0, "w:x:1").info(0).txn(1, "r:x:1").txn(2, "w:x:2").txn(1, "r:x:2").build());
        cmp("info-then-read-nil", history().txn(5, "w:x:1").invoke(0, "w:x:2").info(0).txn(1, "r:x:").build());
        cmp("lin-info-cycle", history().txn(0, "w:x:1").txn(1, "r:x:5").txn(0, "r:x:1").invoke(2, "w:x:5").info(2).build());
        cmp("seq-nil-after-write", history().txn(0, "w:x:1").txn(0, "r:x:").build());
        cmp("read-own-write-then-other", history().txn(0, "w:x:1").txn(1, "w:x:2 r:x:2 r:y:").txn(2,"w:y:1 r:x:2").build());
        cmp("nil-read-write-same", history().txn(0, "r:x: w:x:1").build());
        cmp("two-nil-lost", history().invoke(0, "r:x: w:x:1").invoke(1, "r:x: w:x:2").ok(0, "r:x: w:x:1").ok(1, "r:x: w:x:2").build());
        cmp("write-read-write", history().txn(0, "w:x:1").invoke(1, "w:x:2 r:x:2 w:x:3").invoke(2, "w:x:4 r:x:1 w:x:5").ok(1, "w:x:2 r:x:2 w:x:3").ok(2, "w:x:4 r:x:1 w:x:5").build());
        cmp("fail-read-only", history().txn(0, "w:x:1").invoke(1, "r:x:").fail(1).txn(2, "r:x:1").build());
        cmp("wfr-chain", history().txn(0, "w:x:1").txn(1, "r:x:1 w:x:2").txn(2, "r:x:2 w:x:3").txn(3, "r:x:1").build());
        cmp("seq-two-keys", history().txn(0, "w:x:1 w:y:1").txn(1, "w:x:2").txn(0, "r:x:2 r:y:1").txn(1,"r:y:1 w:y:2").txn(0,"r:y:1").build());
        cmp("pending-intermediate", history().txn(0, "r:x:1").invoke(1, "w:x:1 w:x:2").build());
        cmp("pending-writer", history().txn(0, "r:x:1").invoke(1, "w:x:1").build());
        cmp("lin-pending-between", history().txn(0, "w:x:1").invoke(1, "w:x:2").txn(2, "r:x:1").ok(1, "w:x:2").txn(3, "r:x:1").build());
    }
}

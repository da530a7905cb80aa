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

    static void golden(String name, List<Op> h) {
        BatchReference.Result r = BatchReference.check(h, CheckerOptions.DEFAULT_MODELS, Set.of());
        System.out.println("=== " + name);
        System.out.print(CheckerHistories.jsonLines(h));
        System.out.println("valid=" + r.valid() + " types=" + r.types() + " all=" + r.all());
        System.out.println("not=" + r.not());
        System.out.println("alsoNot=" + r.alsoNot());
        try {
            Verdict v = CheckerHistories.check(h, CheckerOptions.defaults());
            System.out.println("checker=" + v.valid() + " " + CheckerHistories.typeNames(v));
            v.anomalies().forEach((t, fs) -> fs.forEach(f -> System.out.println("  " + t + " " + f.txns().stream().map(x -> x.index()).toList())));
        } catch (RuntimeException e) { System.out.println("checker=" + e); }
    }

    @Test
    void probes() {
        golden("G1b-intermediate-read-writer-invoked-later", CheckerHistories.history()
                .txn(0, "r:1:1").txn(1, "a:1:1 a:1:2").build());
        golden("lost-update-read-after-own-append", CheckerHistories.history()
                .txn(0, "a:1:1")
                .invoke(1, "a:1:2 r:1 a:1:3").invoke(2, "r:1 a:1:4")
                .ok(1, "a:1:2 r:1:1,2 a:1:3").ok(2, "r:1:1,2 a:1:4").build());
        golden("G1a-read-incompatible-with-version-order", CheckerHistories.history()
                .invoke(0, "a:1:1").invoke(1, "a:1:2").invoke(2, "a:1:3").invoke(3, "r:1").invoke(4, "r:1")
                .ok(0, "a:1:1").ok(1, "a:1:2").fail(2).ok(3, "r:1:1,2").ok(4, "r:1:1,3").build());
        golden("G-single-item-incompatible-read-longer-than-first-order", CheckerHistories.history()
                .invoke(0, "a:1:1").invoke(1, "a:1:2").invoke(2, "r:1").invoke(3, "r:1 r:1")
                .ok(0, "a:1:1").ok(1, "a:1:2").ok(2, "r:1:1").ok(3, "r:1:2,1 r:1:1,2").build());
        golden("G-single-item-realtime-found-by-G1c-realtime-search", CheckerHistories.history()
                .txn(0, "r:1:2").txn(0, "r:1:").txn(0, "a:1:1 a:1:2").build());
        golden("G-single-item-G0-realtime-search-makes-G1c-realtime-redundant", CheckerHistories.history()
                .txn(1, "r:1: r:1: a:1:1")
                .invoke(0, "a:1:2 r:1 r:2").invoke(2, "a:2:1 r:2")
                .ok(2, "a:2:1 r:2:1").ok(0, "a:1:2 r:1:2 r:2:1").build());
        golden("valid-realtime-edge-to-failed-txn", CheckerHistories.history()
                .txn(0, "a:1:1").invoke(0, "a:2:2").fail(0).build());
        golden("G1c-rw-then-ww-join-one-pair", CheckerHistories.history()
                .invoke(0, "a:1:1 r:1 r:2").invoke(1, "a:2:1 a:1:2").invoke(2, "r:1")
                .ok(0, "a:1:1 r:1:1 r:2:1").ok(1, "a:2:1 a:1:2").ok(2, "r:1:1,2").build());
    }
}

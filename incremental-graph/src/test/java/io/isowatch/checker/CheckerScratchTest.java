package io.isowatch.checker;

import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.KeyDistribution;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.history.Op;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SplittableRandom;
import java.util.TreeMap;

class CheckerScratchTest {

    static CheckerProperties.Models MODEL;

    static String signature(List<Op> p, CheckerProperties.Models m) {
        BatchReference.Result ex = BatchReference.check(p, m.models, m.anomalies);
        if (ex == null) return null;
        try {
            Verdict vv = CheckerHistories.check(p, m.options());
            Set<String> a = CheckerHistories.typeNames(vv);
            if (ex.types().equals(a) && ex.valid() == vv.valid() && ex.not().equals(vv.not()) && ex.alsoNot().equals(vv.alsoNot())) return null;
            Set<String> missing = new java.util.TreeSet<>(ex.types()); missing.removeAll(a);
            Set<String> extra = new java.util.TreeSet<>(a); extra.removeAll(ex.types());
            return m + " " + (ex.all().contains("incompatible-order") ? "INCOMPAT " : "") + "missing=" + missing + " extra=" + extra
                    + (missing.isEmpty() && extra.isEmpty() ? " valid/not differ" : "");
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Removes whole transactions while the signature stays. */
    static List<Op> minimize(List<Op> h, String sig) {
        boolean progress = true;
        while (progress) {
            progress = false;
            for (int i = 0; i < h.size(); i++) {
                if (h.get(i).type() != io.isowatch.history.OpType.INVOKE) continue;
                long proc = h.get(i).process();
                int j = i + 1;
                while (j < h.size() && h.get(j).process() != proc) j++;
                List<Op> c = new java.util.ArrayList<>(h);
                if (j < h.size()) c.remove(j);
                c.remove(i);
                c = CheckerHistories.reindex(c);
                String s2 = signature(c, MODEL);
                if (sig.equals(s2)) { h = c; progress = true; break; }
            }
        }
        return h;
    }

    @Test
    void explore() {
        Map<String, List<Op>> smallest = new TreeMap<>();
        Map<String, Integer> counts = new TreeMap<>();
        Map<String, CheckerProperties.Models> models = new TreeMap<>();
        int skipped = 0;
        CheckerProperties.Models[] all = CheckerProperties.Models.values();
        for (long seed = 0; seed < Long.getLong("n", 20000L); seed++) {
            SplittableRandom r = new SplittableRandom(seed);
            GeneratorOptions o = GeneratorOptions.defaults().withTxnCount(2 + r.nextInt(12)).withConcurrency(1 + r.nextInt(4))
                    .withKeyCount(1 + r.nextInt(3)).withTxnLength(1, 1 + r.nextInt(4)).withMaxWritesPerKey(1 + r.nextInt(6))
                    .withKeyDistribution(KeyDistribution.UNIFORM)
                    .withFaultRates(r.nextDouble() * 0.2, r.nextDouble() * 0.2).withSeed(r.nextLong());
            List<Op> h = CheckerMutator.mutate(ListAppendGenerator.generate(o), 0.3, r);
            CheckerProperties.Models m = r.nextInt(2) == 0 ? CheckerProperties.Models.STRICT_SERIALIZABLE : all[r.nextInt(all.length)];
            int n = r.nextInt(2) == 0 ? h.size() : r.nextInt(h.size() + 1);
            List<Op> p = h.subList(0, n);
            BatchReference.Result ex = BatchReference.check(p, m.models, m.anomalies);
            if (ex == null) { skipped++; continue; }
            MODEL = m;
            try {
                CheckerProperties.assertAgreesWithReference(p, m, "x", true);
            } catch (Throwable t) {
                String k = "UNTOLERATED " + m + " " + t.getMessage().split("\n")[0].split(";")[0];
                counts.merge(k, 1, Integer::sum);
                if (!smallest.containsKey(k) || smallest.get(k).size() > p.size()) { smallest.put(k, p); models.put(k, m); }
            }
            String sig;
            try {
                Verdict vv = CheckerHistories.check(p, m.options());
                Set<String> a = CheckerHistories.typeNames(vv);
                if (ex.types().equals(a) && ex.valid() == vv.valid() && ex.not().equals(vv.not()) && ex.alsoNot().equals(vv.alsoNot())) {
                    counts.merge("CAT exact", 1, Integer::sum);
                    continue;
                }
                Set<String> missing = new java.util.TreeSet<>(ex.types()); missing.removeAll(a);
                Set<String> extra = new java.util.TreeSet<>(a); extra.removeAll(ex.types());
                sig = m + " " + (ex.all().contains("incompatible-order") ? "INCOMPAT " : "") + "missing=" + missing + " extra=" + extra
                        + (missing.isEmpty() && extra.isEmpty() ? " valid/not differ" : "");
            } catch (RuntimeException e) {
                sig = "EXCEPTION " + e;
                sig = sig.substring(0, Math.min(100, sig.length()));
            }
            counts.merge(sig, 1, Integer::sum);
            if (!smallest.containsKey(sig) || smallest.get(sig).size() > p.size()) { smallest.put(sig, p); models.put(sig, m); }
        }
        System.out.println("skipped " + skipped);
        for (var e : smallest.entrySet()) {
            if (e.getKey().startsWith("EXCEPTION")) continue;
            if (e.getKey().contains("INCOMPAT")) continue;
            MODEL = models.get(e.getKey());
            List<Op> min = minimize(e.getValue(), e.getKey());
            System.out.println("### MIN " + e.getKey());
            System.out.print(CheckerHistories.jsonLines(min));
        }
        counts.forEach((k, v) -> { if (k.startsWith("CAT")) System.out.println(k + " " + v); });
        for (var e : smallest.entrySet()) {
            System.out.println("### " + e.getKey() + " x" + counts.get(e.getKey()));
            System.out.print(CheckerHistories.jsonLines(e.getValue()));
        }
    }
}

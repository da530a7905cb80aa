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

    @Test
    void explore() {
        Map<String, List<Op>> smallest = new TreeMap<>();
        Map<String, Integer> counts = new TreeMap<>();
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
            BatchReference.Result ref = BatchReference.check(h, m.models, m.anomalies,
                    Set.of(BatchReference.Deviation.NO_REALTIME_EDGE_TO_FAILED));
            if (ref == null) { skipped++; continue; }
            Verdict v;
            try {
                v = CheckerHistories.check(h, m.options());
            } catch (RuntimeException e) {
                String sig = "EXCEPTION " + e.getClass().getSimpleName() + ": " + e.getMessage();
                sig = sig.substring(0, Math.min(120, sig.length()));
                counts.merge(sig, 1, Integer::sum);
                if (!smallest.containsKey(sig) || smallest.get(sig).size() > h.size()) smallest.put(sig, h);
                continue;
            }
            Set<String> a = CheckerHistories.typeNames(v);
            if (!a.equals(ref.types()) || a.isEmpty() && v.valid() != ref.valid()) {
                Set<String> missing = new java.util.TreeSet<>(ref.types()); missing.removeAll(a);
                Set<String> extra = new java.util.TreeSet<>(a); extra.removeAll(ref.types());
                String sig = m + " missing=" + missing + " extra=" + extra;
                counts.merge(sig, 1, Integer::sum);
                if (!smallest.containsKey(sig) || smallest.get(sig).size() > h.size()) smallest.put(sig, h);
            }
        }
        System.out.println("skipped " + skipped);
        for (var e : smallest.entrySet()) {
            System.out.println("### " + e.getKey() + " x" + counts.get(e.getKey()));
            System.out.print(CheckerHistories.jsonLines(e.getValue()));
        }
    }
}

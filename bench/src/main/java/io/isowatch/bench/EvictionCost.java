package io.isowatch.bench;

import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.EvictionWarmup;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Workload;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.gen.RegisterGenerator;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;

/**
 * What forgetting costs the core: checks one generated history twice, whole and while forgetting
 * as the stream job does (every quarter window of event time, everything invoked more than a
 * window ago, {@link IncrementalChecker#evictInvokedBefore}), and prints both times, the most
 * transactions held and the eviction pauses.
 *
 * <p>Usage: {@code java -Xmx3g -cp bench/target/benchmarks.jar io.isowatch.bench.EvictionCost
 * TXNS list-append|rw-register WINDOW_TXNS [REPEATS] [warm]}; {@code warm} runs
 * {@link EvictionWarmup} first, as the stream job does, so the first eviction is not interpreted; the window is given as the number of
 * transactions whose time it spans (20 clients, 100 keys, 2% fail, 1% info).
 */
public final class EvictionCost {

    private EvictionCost() {
    }

    public static void main(String[] args) {
        if (args.length < 3) {
            System.err.println("usage: EvictionCost TXNS list-append|rw-register WINDOW_TXNS [REPEATS] [warm]");
            System.exit(2);
        }
        long txns = Long.parseLong(args[0]);
        Workload workload = Workload.byElleName(args[1]);
        long windowTxns = Long.parseLong(args[2]);
        int repeats = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        if (args.length > 4 && args[4].equals("warm")) {
            long start = System.nanoTime();
            EvictionWarmup.run();
            System.out.printf(Locale.ROOT, "eviction warm-up: %.2f s%n", (System.nanoTime() - start) / 1e9);
        }
        GeneratorOptions generator = GeneratorOptions.defaults().toBuilder().txnCount(txns).concurrency(20)
                .keyCount(100).faultRates(0.02, 0.01).seed(7).build();
        List<Op> ops = workload == Workload.RW_REGISTER
                ? RegisterGenerator.generate(generator) : ListAppendGenerator.generate(generator);
        long window = (ops.get(ops.size() - 1).time() - ops.get(0).time()) * windowTxns / txns;
        for (int r = 0; r < repeats; r++) {
            run(ops, workload, window, false);
            run(ops, workload, window, true);
        }
    }

    private static void run(List<Op> ops, Workload workload, long window, boolean forget) {
        IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults().toBuilder().workload(workload)
                .build(),
                new AtomTable());
        List<Double> pauses = new ArrayList<>();
        long next = ops.get(0).time() + window / 4;
        int mostHeld = 0;
        double first = -1;
        long start = System.nanoTime();
        for (Op op : ops) {
            checker.accept(op);
            if (forget && op.time() >= next) {
                long p = System.nanoTime();
                int cut = checker.evictInvokedBefore(op.time() - window);
                pauses.add((System.nanoTime() - p) / 1e6);
                if (cut > 0 && first < 0) {
                    first = pauses.get(pauses.size() - 1);
                }
                next = op.time() + window / 4;
            }
            mostHeld = Math.max(mostHeld, checker.heldTransactions());
        }
        double seconds = (System.nanoTime() - start) / 1e9;
        Collections.sort(pauses);
        double total = pauses.stream().mapToDouble(Double::doubleValue).sum();
        System.out.printf(Locale.ROOT, "%s %s: %.2f s, at most %,d transactions held, %d evictions,"
                        + " first %.0f ms, pauses median %.0f ms, max %.0f ms, %.0f ms in all%n",
                workload.elleName(), forget ? "forgetting" : "whole", seconds, mostHeld, pauses.size(), Math.max(0, first),
                pauses.isEmpty() ? 0.0 : pauses.get(pauses.size() / 2),
                pauses.isEmpty() ? 0.0 : pauses.get(pauses.size() - 1), total);
    }
}

package io.isowatch.bench;

import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Verdict;
import io.isowatch.checker.Workload;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.history.codec.HistoryReader;

import javax.management.ObjectName;
import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.nio.file.Path;
import java.util.Locale;

/**
 * Live heap per transaction at the end of a check: reads a history file into the checker as
 * {@code isowatch check} does (default models, the file's workload given on the command line),
 * finishes it, runs full collections while the checker and its verdict are still reachable, and
 * prints the heap then in use, per transaction, and the largest classes of the live heap.
 *
 * <p>Usage: {@code java -Xmx4g -cp bench/target/benchmarks.jar io.isowatch.bench.CheckHeap FILE
 * [list-append|rw-register]}
 */
public final class CheckHeap {

    private CheckHeap() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1) {
            System.err.println("usage: CheckHeap FILE [list-append|rw-register]");
            System.exit(2);
        }
        Path file = Path.of(args[0]);
        Workload workload = args.length > 1 ? Workload.byElleName(args[1]) : Workload.LIST_APPEND;
        long baseline = liveHeapAfterFullGc();
        AtomTable atoms = new AtomTable();
        IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults().toBuilder().workload(workload)
                .build(), atoms);
        long start = System.nanoTime();
        try (HistoryReader reader = HistoryReader.open(file, atoms)) {
            for (Op op = reader.next(); op != null; op = reader.next()) {
                checker.accept(op);
            }
        }
        long settleStart = System.nanoTime();
        Verdict verdict = checker.finish();
        long end = System.nanoTime();
        double seconds = (end - start) / 1e9;
        double settling = (end - settleStart) / 1e9;
        long live = liveHeapAfterFullGc() - baseline;
        long txns = checker.transactions();
        System.out.printf(Locale.ROOT, "%s: %,d txns, valid=%s, %.2f s (one thread, no JVM start), of which finish() %.2f s%n",
                file, txns, verdict.valid(), seconds, settling);
        System.out.printf(Locale.ROOT, "live heap after full GC: %,d bytes (%.1f MB) = %.1f bytes per transaction%n",
                live, live / 1e6, (double) live / txns);
        String histogram = (String) ManagementFactory.getPlatformMBeanServer().invoke(
                new ObjectName("com.sun.management:type=DiagnosticCommand"), "gcClassHistogram",
                new Object[] {null}, new String[] {String[].class.getName()});
        histogram.lines().limit(22).forEach(System.out::println);
        Reference.reachabilityFence(checker);
        Reference.reachabilityFence(verdict);
        Reference.reachabilityFence(atoms);
    }

    private static long liveHeapAfterFullGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}

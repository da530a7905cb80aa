package io.isowatch.cli;

import io.isowatch.anomaly.Finding;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Verdict;
import io.isowatch.explain.FindingText;
import io.isowatch.explain.VerdictText;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.locks.LockSupport;

/**
 * {@code isowatch demo}: runs a workload against the simulated store at a steady rate and streams
 * every event through the incremental checker as it happens, printing each finding the moment it
 * is proven, a progress line every second, and the verdict. Nothing needs setting up.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Streams a simulated workload through the incremental checker, live: each alert as it is "
                + "proven, progress every second, the verdict at the end.",
                "By default the store has a lagging replica (--stale-read-rate), so anomalies appear; "
                + "--stale-read-rate 0 gives a strict-serializable store, and the checker stays silent."})
final class DemoCommand implements Callable<Integer> {

    private static final int FULL_ALERTS = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    GeneratorFlags workload;

    @Option(names = {"-c", "--consistency-models"}, defaultValue = "strict-serializable", split = ",",
            paramLabel = "MODELS", description = "Models to check against (default: ${DEFAULT-VALUE}).")
    Set<String> models;

    @Option(names = "--rate", defaultValue = "20000", paramLabel = "TXN_PER_S",
            description = "Transactions per second (default: ${DEFAULT-VALUE}).")
    int rate;

    @Option(names = "--duration", defaultValue = "10", paramLabel = "SECONDS",
            description = "How long to run, unless -n gives a transaction count (default: ${DEFAULT-VALUE}).")
    int duration;

    private int alerts;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (!spec.commandLine().getParseResult().hasMatchedOption("-n")) {
            workload.txns = (long) rate * duration;
        }
        if (!spec.commandLine().getParseResult().hasMatchedOption("--stale-read-rate")) {
            workload.staleReadRate = 0.0005;
        }
        AtomTable atoms = new AtomTable();
        IncrementalChecker checker = new IncrementalChecker(
                CheckerOptions.defaults().withModels(models), atoms, f -> alert(out, f, atoms));
        ListAppendGenerator generator = new ListAppendGenerator(workload.toOptions());
        out.printf("isowatch demo: %,d transactions at %,d txn/s from %d clients over %d keys; the store's replica "
                        + "serves stale reads at rate %s; checking %s live%n%n",
                workload.txns, rate, workload.concurrency, workload.keys, workload.staleReadRate,
                String.join(", ", models));
        out.flush();
        long start = System.nanoTime();
        long nextProgress = start + 1_000_000_000L;
        double nanosPerEvent = 1e9 / (2.0 * rate);
        long emitted = 0;
        while (generator.hasNext()) {
            Op op = generator.next();
            checker.accept(op);
            emitted++;
            long now = System.nanoTime();
            long due = start + (long) (emitted * nanosPerEvent);
            if (due > now) {
                LockSupport.parkNanos(due - now);
            }
            if (now >= nextProgress) {
                nextProgress += 1_000_000_000L;
                double s = (now - start) / 1e9;
                out.printf("  [%5.1f s] %,d txns checked (%,.0f txn/s), %,d anomalies found%n", s,
                        checker.transactions(), checker.transactions() / s, checker.findingCount());
                out.flush();
            }
        }
        Verdict verdict = checker.finish();
        double seconds = (System.nanoTime() - start) / 1e9;
        out.println();
        out.println("Verdict (" + String.join(", ", models) + "):");
        out.println(VerdictText.render(verdict, atoms, 1));
        out.printf("%,d transactions (%,d events) checked in %.1f s.%n", verdict.stats().txns(),
                verdict.stats().ops(), seconds);
        return ExitCodes.VALID;
    }

    private void alert(PrintWriter out, Finding f, AtomTable atoms) {
        alerts++;
        if (alerts <= FULL_ALERTS) {
            out.println("ALERT " + FindingText.title(f));
            out.println(FindingText.render(f, atoms));
            out.println();
        } else {
            out.println("ALERT " + FindingText.title(f));
        }
        out.flush();
    }
}

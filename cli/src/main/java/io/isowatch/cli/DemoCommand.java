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

/**
 * {@code isowatch demo}: runs a workload against the simulated store and streams every event
 * through the incremental checker as it happens, printing each finding the moment it is proven
 * and a progress line. Everything runs in this process; nothing needs setting up.
 */
@Command(name = "demo", mixinStandardHelpOptions = true,
        description = {"Streams a simulated workload through the incremental checker, live: alerts as they are "
                + "proven, progress every second, the verdict at the end.",
                "The simulated store is strict-serializable, so a correct run stays silent; "
                + "--fail-rate and --info-rate add aborts and unknown outcomes."})
final class DemoCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    GeneratorFlags workload;

    @Option(names = {"-c", "--consistency-models"}, defaultValue = "strict-serializable", split = ",",
            paramLabel = "MODELS", description = "Models to check against (default: ${DEFAULT-VALUE}).")
    Set<String> models;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (workload.txns == 1000) {
            workload.txns = 200_000;
        }
        AtomTable atoms = new AtomTable();
        IncrementalChecker checker = new IncrementalChecker(
                CheckerOptions.defaults().withModels(models), atoms, f -> alert(out, f, atoms));
        ListAppendGenerator generator = new ListAppendGenerator(workload.toOptions());
        out.printf("isowatch demo: %,d transactions from %d clients over %d keys, checked live against %s%n",
                workload.txns, workload.concurrency, workload.keys, String.join(", ", models));
        out.flush();
        long start = System.nanoTime();
        long lastPrint = start;
        while (generator.hasNext()) {
            Op op = generator.next();
            checker.accept(op);
            if ((checker.events() & 0x3FFF) == 0) {
                long now = System.nanoTime();
                if (now - lastPrint > 1_000_000_000L) {
                    lastPrint = now;
                    double s = (now - start) / 1e9;
                    out.printf("  %,d txns checked, %,.0f txn/s, %d findings%n", checker.transactions(),
                            checker.transactions() / s, checker.findingCount());
                    out.flush();
                }
            }
        }
        Verdict verdict = checker.finish();
        double seconds = (System.nanoTime() - start) / 1e9;
        out.println();
        out.println(VerdictText.render(verdict, atoms, 3));
        out.printf("%,d transactions (%,d events) checked in %.2f s: %,.0f txn/s%n",
                verdict.stats().txns(), verdict.stats().ops(), seconds, verdict.stats().txns() / seconds);
        return ExitCodes.VALID;
    }

    private static void alert(PrintWriter out, Finding f, AtomTable atoms) {
        out.println("ALERT " + FindingText.title(f));
        out.println(FindingText.render(f, atoms));
        out.println();
        out.flush();
    }
}

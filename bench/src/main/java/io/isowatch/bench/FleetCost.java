package io.isowatch.bench;

import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Verdict;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.history.AgentMerge;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;

import java.lang.management.ManagementFactory;
import java.lang.ref.Reference;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;

/**
 * What checking a history as a fleet's costs (decision 0021): one generated strict-serializable
 * list-append history, checked as one agent's (Elle's realtime, kept implicitly) and as
 * {@code AGENTS} agents' whose clocks are offset within the uncertainty (realtime edges stored),
 * each time printing the time, the realtime edges and the live heap per transaction at the end
 * (full collections with the checker still reachable, as {@link CheckHeap}).
 *
 * <p>Usage: {@code java -Xmx4g -cp bench/target/benchmarks.jar io.isowatch.bench.FleetCost TXNS
 * AGENTS UNCERTAINTY_US [REPEATS]} (20 clients, 100 keys, 2% fail, 1% info; the generator's clock
 * advances 1 to 5 µs a step).
 */
public final class FleetCost {

    private FleetCost() {
    }

    public static void main(String[] args) {
        if (args.length < 3) {
            System.err.println("usage: FleetCost TXNS AGENTS UNCERTAINTY_US [REPEATS]");
            System.exit(2);
        }
        long txns = Long.parseLong(args[0]);
        int agents = Integer.parseInt(args[1]);
        long epsilon = Long.parseLong(args[2]) * 1_000;
        int repeats = args.length > 3 ? Integer.parseInt(args[3]) : 1;
        int clients = 20;
        GeneratorOptions generator = GeneratorOptions.defaults().toBuilder().txnCount(txns).concurrency(clients)
                .keyCount(100).faultRates(0.02, 0.01).seed(7).build();
        List<Op> ops = ListAppendGenerator.generate(generator);
        List<AgentMerge.Merged> merged = split(ops, clients, agents, epsilon);
        double spanMs = (ops.get(ops.size() - 1).time() - ops.get(0).time()) / 1e6;
        // What the clocks' spread means here: how many transactions the merge may take out of
        // their true order (the generator's clock runs far faster than a real store's).
        System.out.printf(Locale.ROOT, "history: %,.1f ms of simulated time, %,.0f txns per ms; the clocks' spread of"
                + " %,d µs covers about %,.0f txns%n", spanMs, txns / spanMs, epsilon / 1_000, txns / spanMs * epsilon / 1e6);
        for (int r = 0; r < repeats; r++) {
            run("one agent", ops, null, epsilon);
            run(agents + " agents", null, merged, epsilon);
        }
    }

    /** Agent a's clock reads the true time plus a·ε/(agents-1): the two ends differ by ε. */
    private static List<AgentMerge.Merged> split(List<Op> ops, int clients, int agents, long epsilon) {
        List<List<Op>> own = new ArrayList<>();
        List<String> ids = new ArrayList<>();
        for (int a = 0; a < agents; a++) {
            own.add(new ArrayList<>());
            ids.add("agent-" + a);
        }
        for (Op op : ops) {
            int a = (int) (op.process() % clients % agents);
            long offset = agents == 1 ? 0 : a * epsilon / (agents - 1);
            List<Op> mine = own.get(a);
            mine.add(new Op(mine.size(), op.time() + offset, op.type(), op.process(), op.value()));
        }
        List<Iterator<Op>> streams = new ArrayList<>();
        own.forEach(l -> streams.add(l.iterator()));
        List<AgentMerge.Merged> merged = new ArrayList<>(ops.size());
        AgentMerge.merge(ids, streams).forEachRemaining(merged::add);
        return merged;
    }

    private static void run(String label, List<Op> plain, List<AgentMerge.Merged> fleet, long epsilon) {
        long baseline = liveHeapAfterFullGc();
        IncrementalChecker checker = new IncrementalChecker(CheckerOptions.defaults(), new AtomTable());
        long start = System.nanoTime();
        if (fleet == null) {
            plain.forEach(checker::accept);
        } else {
            checker.checkAsFleet(Duration.ofNanos(epsilon));
            for (AgentMerge.Merged m : fleet) {
                checker.accept(m.op(), m.agent());
            }
        }
        Verdict v = checker.finish();
        double seconds = (System.nanoTime() - start) / 1e9;
        long live = liveHeapAfterFullGc() - baseline;
        long n = checker.transactions();
        System.out.printf(Locale.ROOT, "%-10s %,d txns, valid=%s, %.2f s, %,d edges (%.2f per txn), live heap %.1f MB ="
                        + " %.1f bytes per txn%n", label, n, v.valid(), seconds, v.stats().edges(),
                (double) v.stats().edges() / n, live / 1e6, (double) live / n);
        Reference.reachabilityFence(checker);
    }

    private static long liveHeapAfterFullGc() {
        for (int i = 0; i < 3; i++) {
            System.gc();
        }
        return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
    }
}

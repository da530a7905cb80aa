package io.isowatch.bench;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Verdict;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Throughput of the incremental checker alone (no parsing): a generated strict-serializable
 * history of {@value #TXNS} transactions, held in memory, checked from scratch per invocation.
 * The score is transactions per second.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 5)
@Measurement(iterations = 5, time = 5)
@Fork(value = 1, jvmArgsAppend = {"-Xmx2g"})
public class CheckerBenchmark {

    static final int TXNS = 200_000;

    @Param({"strict-serializable", "serializable"})
    public String model;

    @Param({"10"})
    public int concurrency;

    private List<Op> history;

    @Setup(Level.Trial)
    public void generate() {
        history = ListAppendGenerator.generate(GeneratorOptions.defaults()
                .toBuilder().txnCount(TXNS).concurrency(concurrency).seed(42).build());
    }

    @Benchmark
    @OperationsPerInvocation(TXNS)
    public Verdict check() {
        IncrementalChecker checker = new IncrementalChecker(
                CheckerOptions.defaults().toBuilder().consistencyModels(java.util.Set.of(ConsistencyModel.of(model)))
                        .build(), new AtomTable());
        for (Op op : history) {
            checker.accept(op);
        }
        return checker.finish();
    }
}

package io.isowatch.bench;

import io.isowatch.collect.IntList;
import io.isowatch.collect.LongIntMap;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.roaringbitmap.RoaringBitmap;

import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The cycle search's visited set (decision 0019): a breadth-first search over (member, state)
 * pairs of one strongly connected component, as {@code CycleSearch.breadthFirst} runs it, with
 * the visited pairs kept in today's {@link LongIntMap} keyed {@code local << 10 | state} or in a
 * {@link RoaringBitmap} of the same keys. The component is a random graph of {@code members}
 * nodes and {@code degree} out-edges each (the dense read-uncommitted histories of issue 41 have
 * about 8 edges per transaction), each edge of one of three kinds, and a step's next state is a
 * fixed function of the state and the kind over {@code states} states. Both variants run the
 * same search and visit the same pairs; the score is one whole search. {@link #sizes} prints what
 * each set holds at the end of one search.
 *
 * <p>Usage: {@code java -jar bench/target/benchmarks.jar VisitedSetBenchmark}
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 4, time = 1)
@Measurement(iterations = 6, time = 1)
@Fork(value = 2, jvmArgsAppend = {"-Xmx2g"})
public class VisitedSetBenchmark {

    @Param({"1000", "100000"})
    public int members;

    @Param({"8"})
    public int degree;

    @Param({"16"})
    public int states;

    private int[][] targets;
    private byte[][] kinds;

    @Setup(Level.Trial)
    public void graph() {
        SplittableRandom random = new SplittableRandom(41);
        targets = new int[members][degree];
        kinds = new byte[members][degree];
        for (int n = 0; n < members; n++) {
            for (int i = 0; i < degree; i++) {
                targets[n][i] = random.nextInt(members);
                kinds[n][i] = (byte) random.nextInt(3);
            }
        }
    }

    private int step(int state, int kind) {
        return (state * 3 + kind + 1) % states;
    }

    /** Today's set: a containment test, then a put of the queue position, as the search does. */
    @Benchmark
    public int longIntMap() {
        IntList qNode = new IntList();
        IntList qState = new IntList();
        LongIntMap visited = new LongIntMap();
        qNode.add(0);
        qState.add(0);
        visited.put(0L, 0);
        for (int head = 0; head < qNode.size(); head++) {
            int node = qNode.get(head);
            int state = qState.get(head);
            for (int i = 0; i < degree; i++) {
                int t = targets[node][i];
                int next = step(state, kinds[node][i]);
                long key = ((long) t << 10) | next;
                if (visited.containsKey(key)) {
                    continue;
                }
                visited.put(key, qNode.size());
                qNode.add(t);
                qState.add(next);
            }
        }
        return qNode.size();
    }

    /** The bitmap: one {@code checkedAdd} per pair reached. */
    @Benchmark
    public int roaring() {
        IntList qNode = new IntList();
        IntList qState = new IntList();
        RoaringBitmap visited = new RoaringBitmap();
        qNode.add(0);
        qState.add(0);
        visited.add(0);
        for (int head = 0; head < qNode.size(); head++) {
            int node = qNode.get(head);
            int state = qState.get(head);
            for (int i = 0; i < degree; i++) {
                int t = targets[node][i];
                int next = step(state, kinds[node][i]);
                if (!visited.checkedAdd((t << 10) | next)) {
                    continue;
                }
                qNode.add(t);
                qState.add(next);
            }
        }
        return qNode.size();
    }

    /** Prints, per size, the pairs visited and what each set holds then. */
    public static void main(String[] args) {
        for (int m : new int[] {1000, 100000}) {
            VisitedSetBenchmark b = new VisitedSetBenchmark();
            b.members = m;
            b.degree = 8;
            b.states = 16;
            b.graph();
            int pairs = b.longIntMap();
            LongIntMap map = new LongIntMap();
            RoaringBitmap bitmap = new RoaringBitmap();
            // The same keys in the same order as the search puts them.
            IntList qNode = new IntList();
            IntList qState = new IntList();
            qNode.add(0);
            qState.add(0);
            map.put(0L, 0);
            bitmap.add(0);
            for (int head = 0; head < qNode.size(); head++) {
                for (int i = 0; i < b.degree; i++) {
                    int t = b.targets[qNode.get(head)][i];
                    int next = b.step(qState.get(head), b.kinds[qNode.get(head)][i]);
                    if (bitmap.checkedAdd((t << 10) | next)) {
                        map.put(((long) t << 10) | next, qNode.size());
                        qNode.add(t);
                        qState.add(next);
                    }
                }
            }
            // LongIntMap: keys this sparse all go to its hash table, a long and an int per slot,
            // at most half full, the table's length a power of two.
            long slots = Integer.highestOneBit(Math.max(4, map.size()) * 2 - 1) << 1;
            while (slots < 2L * map.size()) {
                slots <<= 1;
            }
            System.out.printf("members %d: %d pairs visited; LongIntMap about %d bytes (%d slots x 12),"
                            + " RoaringBitmap %d bytes (getLongSizeInBytes), %d serialized%n",
                    m, pairs, slots * 12, slots, bitmap.getLongSizeInBytes(), bitmap.serializedSizeInBytes());
        }
    }
}

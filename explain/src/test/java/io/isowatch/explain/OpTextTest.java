package io.isowatch.explain;

import static io.isowatch.explain.ExplainFixturesTest.op;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.isowatch.history.AtomTable;
import io.isowatch.history.MicroOp;
import io.isowatch.history.Op;
import io.isowatch.history.OpType;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.LongStream;

class OpTextTest {

    private final AtomTable atoms = new AtomTable();

    @Test
    void render_okListAppend_printsJepsenEdnInElleOrder() {
        Op op = op(3, 100, OpType.OK, 0, "a:255:8 r:256:1,2");
        assertEquals("{:index 3, :time 100, :type :ok, :process 0, :f :txn, :value [[:append 255 8] [:r 256 [1 2]]]}",
                OpText.render(op, atoms));
    }

    @Test
    void render_withoutTime_leavesTimeOutAndPrintsUnknownReadAsNil() {
        Op op = op(4, -1, OpType.INVOKE, 2, "a:255:8 r:256:nil r:257:");
        assertEquals("{:index 4, :type :invoke, :process 2, :f :txn, :value [[:append 255 8] [:r 256 nil] [:r 257 []]]}",
                OpText.render(op, atoms));
    }

    @Test
    void render_registerOp_printsSingleValuesAndNil() {
        Op op = op(5, 7, OpType.FAIL, 1, "w:1:5 r:2:7 r:3:");
        assertEquals("{:index 5, :time 7, :type :fail, :process 1, :f :txn, :value [[:w 1 5] [:r 2 7] [:r 3 nil]]}",
                OpText.render(op, atoms));
    }

    @Test
    void render_stringAtoms_areQuotedAndEscaped() {
        long k = atoms.ofString("x");
        long v = atoms.ofString("a\"b");
        Op op = new Op(0, 1, OpType.OK, 0, List.of(new MicroOp.Append(k, v), new MicroOp.Read(k, new long[] {v})));
        assertEquals("{:index 0, :time 1, :type :ok, :process 0, :f :txn, :value [[:append \"x\" \"a\\\"b\"] [:r \"x\" [\"a\\\"b\"]]]}",
                OpText.render(op, atoms));
    }

    @Test
    void shortMop_usesElleVizForm() {
        assertEquals("a 1 2", OpText.shortMop(new MicroOp.Append(1, 2), atoms, Notation.LIST_APPEND));
        assertEquals("r 1 [2 3]", OpText.shortMop(new MicroOp.Read(1, new long[] {2, 3}), atoms, Notation.LIST_APPEND));
        assertEquals("r 1 nil", OpText.shortMop(new MicroOp.Read(1, new long[0]), atoms, Notation.RW_REGISTER));
    }

    @Test
    void list_longerThanShown_printsItsEndsAroundACountOfTheRest() {
        long[] million = LongStream.rangeClosed(1, 1_000_000).toArray();
        String ends = LongStream.rangeClosed(1, 50).mapToObj(Long::toString).collect(Collectors.joining(" "));
        String tail = LongStream.rangeClosed(999_951, 1_000_000).mapToObj(Long::toString).collect(Collectors.joining(" "));

        assertEquals("[" + ends + " ... 999900 more ... " + tail + "]", OpText.list(million, atoms, OpText.EXPLAINED));
    }

    @Test
    void list_upToShown_andEveryListPrintedForAHistory_isWhole() {
        long[] thousand = LongStream.rangeClosed(1, 1_000).toArray();
        String whole = LongStream.rangeClosed(1, 1_000).mapToObj(Long::toString).collect(Collectors.joining(" ", "[", "]"));
        assertEquals(whole, OpText.list(thousand, atoms, OpText.EXPLAINED));

        long[] more = LongStream.rangeClosed(1, 5_000).toArray();
        String all = LongStream.rangeClosed(1, 5_000).mapToObj(Long::toString).collect(Collectors.joining(" ", "[", "]"));
        Op op = new Op(0, 1, OpType.OK, 0, List.of(new MicroOp.Read(1, more)));
        assertEquals(all, OpText.list(more, atoms));
        assertEquals("{:index 0, :time 1, :type :ok, :process 0, :f :txn, :value [[:r 1 " + all + "]]}",
                OpText.render(op, atoms, Notation.LIST_APPEND));
    }
}

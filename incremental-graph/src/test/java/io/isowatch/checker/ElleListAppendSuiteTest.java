package io.isowatch.checker;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.history.Op;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

import static io.isowatch.checker.ElleSuiteCase.invalid;
import static io.isowatch.checker.ElleSuiteCase.unknown;
import static io.isowatch.checker.ElleSuiteCase.valid;


/**
 * The verdicts Elle's own test suite asserts for list-append, checked against isowatch: every
 * assertion of {@code valid?}, {@code anomaly-types} and {@code not} in {@code checker-test},
 * {@code unobserved-write-test}, {@code repeatable-read-test}, {@code G-nonadjacent-test},
 * {@code lost-update-test}, {@code wr-process-test}, {@code rr-g-single-item-test},
 * {@code rr-g-nonadjacent-item-test} and {@code future-read-test} (jepsen-io/elle
 * {@code test/elle/list_append_test.clj} at {@code ccdee6f}; line numbers there). Its
 * {@code intermediate-sequential-extension-test} is the golden {@code elle-si-without-g-single};
 * the simulator and perf tests generate their histories, and {@code huge-scc-test} and
 * {@code unfindable-g-single} assert that Elle's search times out (docs/elle-compatibility.md).
 * Each case names the line of its check.
 *
 * <p>Histories are written in the suite's own notation ({@link #mops}): {@code ax1} appends
 * 1 to x, {@code rx12} reads x = [1 2], {@code ry} reads y as nil. Its {@code op} makes an
 * {@code :ok} completion of process 0 with no invocation; its {@code pair} adds the invocation
 * just before. One test invokes five transactions of process 0 before completing any, which
 * isowatch refuses as a double invocation (as jepsen.history's pair index does,
 * docs/elle-compatibility.md): there they run on processes 0 to 4, which no model asked of
 * that test looks at.
 */
class ElleListAppendSuiteTest {

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void elleSuiteAssertion_checked_sameVerdict(ElleSuiteCase c) {
        c.assertVerdict();
    }

    static Stream<ElleSuiteCase> cases() {
        List<ElleSuiteCase> cases = new ArrayList<>();
        checkerTest(cases);
        otherTests(cases);
        return cases.stream();
    }

    /** {@code checker-test}, lines 370-862. */
    private static void checkerTest(List<ElleSuiteCase> cases) {
        List<Op> g0 = ops("ax1ay1", "ax2ay2", "rx12ry21");
        cases.add(invalid("G0, -a G0 (399)", g0, none("G0"), List.of("G0"), "read-uncommitted"));
        cases.add(invalid("G0, -a G1 (404)", g0, none("G1"), List.of("G0"), "read-uncommitted"));
        cases.add(valid("G0, -a G2 (407)", g0, none("G2")));

        List<Op> g1a = history().failWith(0, mops("ax1")).ok(0, mops("rx1")).build();
        cases.add(unknown("G1a, read-uncommitted (421)", g1a, models("read-uncommitted"),
                List.of("empty-transaction-graph"), "read-committed"));
        cases.add(invalid("G1a, read-committed (431)", g1a, models("read-committed"),
                List.of("G1a", "empty-transaction-graph"), "read-committed"));
        cases.add(unknown("G1a, -a G2 (440)", g1a, none("G2"), List.of("empty-transaction-graph"), "read-committed"));
        cases.add(invalid("G1a, repeatable-read (451)", g1a, models("repeatable-read"),
                List.of("G1a", "empty-transaction-graph"), "read-committed"));

        List<Op> g1b = pairs("ax1ax2", "rx1");
        cases.add(valid("G1b, -a G0 (462)", g1b, none("G0")));
        cases.add(invalid("G1b, -a G1 (471)", g1b, none("G1"), List.of("G1b"), "read-committed"));
        cases.add(invalid("G1b, -a G2 (479)", g1b, none("G2"), List.of("G-single-item"), "read-committed"));
        cases.add(invalid("G1b, strict-serializable (504)", g1b, models("strict-serializable"),
                List.of("G-single-item", "G1b"), "read-committed"));

        List<Op> g1c = ops("ax1ry1", "ax2ay1", "rx12ry1");
        cases.add(valid("G1c, -a G0 (527)", g1c, none("G0")));
        cases.add(invalid("G1c, -a G1 (533)", g1c, none("G1"), List.of("G1c"), "read-committed"));
        cases.add(valid("G1c, -a G2 (536)", g1c, none("G2")));

        List<Op> gSingle = ops("ax1ay1", "ax2ry", "rx12");
        cases.add(valid("G-single, -a G0 (559)", gSingle, none("G0")));
        cases.add(valid("G-single, -a G1 (560)", gSingle, none("G1")));
        cases.add(invalid("G-single, -a G-single (566)", gSingle, none("G-single"), List.of("G-single-item"),
                "consistent-view", "repeatable-read"));
        cases.add(invalid("G-single, -a G2 (571)", gSingle, none("G2"), List.of("G-single-item"),
                "consistent-view", "repeatable-read"));

        List<Op> g2 = ops("ax1ry", "ay1rx");
        cases.add(valid("G2, -a G0 (579)", g2, none("G0")));
        cases.add(valid("G2, -a G1 (580)", g2, none("G1")));
        cases.add(valid("G2, read-committed (582)", g2, models("read-committed")));
        cases.add(invalid("G2, -a G2 (605)", g2, none("G2"), List.of("G2-item"), "repeatable-read"));
        cases.add(invalid("G2, serializable (607)", g2, models("serializable"), List.of("G2-item"), "repeatable-read"));
        cases.add(invalid("G2, repeatable-read (609)", g2, models("repeatable-read"), List.of("G2-item"),
                "repeatable-read"));

        // T0 appends 1, T1 appends 2, T2 reads [1] after both completed: anti-depends on T1, which
        // ended before it began.
        List<Op> strongSi = history().txn(0, mops("ax1")).txn(1, mops("ax2")).txn(2, mops("rx1"))
                .txn(3, mops("rx12")).build();
        cases.add(valid("Strong SI violation, -a G2 (626)", strongSi, none("G2")));
        cases.add(valid("Strong SI violation, serializable (629)", strongSi, models("serializable")));
        cases.add(invalid("Strong SI violation, strict-serializable (648)", strongSi, models("strict-serializable"),
                List.of("G-single-item-realtime"), "strong-snapshot-isolation"));

        List<Op> strongSessionSi = history().txn(0, mops("ax1")).txn(1, mops("ax2")).txn(1, mops("rx1"))
                .txn(2, mops("rx12")).build();
        cases.add(valid("Strong Session SI violation, serializable (665)", strongSessionSi, models("serializable")));
        cases.add(invalid("Strong Session SI violation, strong-session-snapshot-isolation (683)", strongSessionSi,
                models("strong-session-snapshot-isolation"), List.of("G-single-item-process"),
                "strong-session-snapshot-isolation"));

        List<Op> nonadjacentProcess = history().txn(0, mops("rxrz1")).txn(1, mops("ax1")).txn(1, mops("rz"))
                .txn(2, mops("az1")).build();
        cases.add(valid("G-nonadjacent-process, serializable (707)", nonadjacentProcess, models("serializable")));
        cases.add(invalid("G-nonadjacent-process, strong-session-snapshot-isolation (733)", nonadjacentProcess,
                models("strong-session-snapshot-isolation"), List.of("G-nonadjacent-item-process"),
                "strong-session-snapshot-isolation"));

        cases.add(invalid("contradictory read orders, -a G1 (773)", ops("ax1ry1", "ax2", "ax3ay1", "rx13", "rx123"),
                none("G1"), List.of("G1c", "incompatible-order"), "read-committed"));

        cases.add(unknown("dirty update none, -a dirty-update (789)", history().failWith(0, mops("ax1")).build(),
                none("dirty-update"), List.of("empty-transaction-graph")));
        cases.add(invalid("dirty update direct, -a dirty-update (801)",
                history().failWith(0, mops("ax1")).ok(1, mops("ax2")).ok(2, mops("rx12")).build(),
                none("dirty-update"), List.of("dirty-update"), "read-committed"));
        cases.add(invalid("dirty update indirect, -a dirty-update (815)",
                history().failWith(0, mops("ax1")).infoWith(1, mops("ax2")).ok(2, mops("ax3"))
                        .ok(3, mops("rx123")).build(),
                none("dirty-update"), List.of("dirty-update"), "read-committed"));

        cases.add(invalid("duplicated elements, read-committed (849)", ops("ax1ry1", "ax2ay1", "rx121"),
                models("read-committed"), List.of("G1c", "duplicate-elements"), "read-uncommitted"));
        cases.add(invalid("internal consistency violation, -a internal (862)", ops("ax1ax2ax4", "ax3rx1234"),
                none("internal"), List.of("internal"), "read-uncommitted"));
    }

    /** The tests after {@code checker-test}, lines 864-1196. */
    private static void otherTests(List<ElleSuiteCase> cases) {
        // Five transactions invoked at once, then completed: on processes 0 to 4 (see above).
        String[] unobserved = {"ax1ay1", "ax2ay2", "ax3ay3", "rx12", "ry2"};
        CheckerHistories.Builder b = history();
        for (int i = 0; i < unobserved.length; i++) {
            b.invoke(i, mops(unobserved[i]));
        }
        for (int i = 0; i < unobserved.length; i++) {
            b.ok(i, mops(unobserved[i]));
        }
        cases.add(invalid("unobserved-write-test, serializable (926)", b.build(), models("serializable"),
                List.of("G-single-item", "G0"), "read-uncommitted"));

        List<Op> rr = ops("rxay1", "ryax1");
        cases.add(valid("repeatable-read-test, read-committed (937)", rr, models("read-committed")));
        cases.add(invalid("repeatable-read-test, repeatable-read (959)", rr, models("repeatable-read"),
                List.of("G2-item"), "repeatable-read"));

        cases.add(invalid("G-nonadjacent-test (1015)", pairs("ax1", "rx1ry", "ay1", "ry1rx"),
                CheckerOptions.defaults(), List.of("G-nonadjacent-item"), "snapshot-isolation", "repeatable-read"));
        cases.add(valid("G-nonadjacent-test, adjacent rw edges, snapshot-isolation (1025)",
                pairs("rx5ay1", "ryaz2", "rzat3", "rt3au4", "ruax5"), models("snapshot-isolation")));

        cases.add(invalid("lost-update-test (1061)", pairs("ax0", "rx0ax1", "rx0ax2"), CheckerOptions.defaults(),
                List.of("G2-item", "lost-update"), "update-atomic", "cursor-stability"));
        cases.add(valid("lost-update-test, one txn, double write (1070)", pairs("rxax1ax2", "rx12"),
                CheckerOptions.defaults()));

        List<Op> wrProcess = history().txn(1, mops("rx1ay1")).txn(2, mops("ry1")).txn(2, mops("ax1")).build();
        cases.add(invalid("wr-process-test (1106)", wrProcess, models("strong-session-snapshot-isolation"),
                List.of("G1c-process"), "strong-session-read-committed"));

        cases.add(invalid("rr-g-single-item-test (1116)", pairs("ax1ay1", "rx1ry"), models("repeatable-read"),
                List.of("G-single-item"), "consistent-view", "repeatable-read"));
        cases.add(invalid("rr-g-nonadjacent-item-test (1145)", pairs("ax1at1", "rx1ry", "ay1az2", "rz2rt"),
                models("repeatable-read"), List.of("G-nonadjacent-item"), "repeatable-read", "snapshot-isolation"));

        cases.add(invalid("future-read-test (1196)", pairs("rx1ax1"), models("read-committed"),
                List.of("empty-transaction-graph", "future-read"), "read-committed"));
    }

    // ---- Elle's notation and the options of its tests ----

    private static CheckerHistories.Builder history() {
        return CheckerHistories.history();
    }

    /** Elle's {@code op}: an ok completion of process 0 per transaction, no invocations. */
    private static List<Op> ops(String... txns) {
        return ElleSuiteCase.process0(history(), ElleListAppendSuiteTest::mops, false, txns);
    }

    /** Elle's {@code pair} of each {@code op}, one after another on process 0. */
    private static List<Op> pairs(String... txns) {
        return ElleSuiteCase.process0(history(), ElleListAppendSuiteTest::mops, true, txns);
    }

    /**
     * {@code ax1ry12rz} as {@code a:0:1 r:1:1,2 r:2}: {@code a} or {@code r} starts a micro-op, a
     * letter of {@code xyztu} names its key (0 to 4), each digit is an element; an append keeps
     * its last digit, a read without one reads nil.
     */
    private static String mops(String elle) {
        List<String> out = new ArrayList<>();
        char f = 0;
        int key = -1;
        StringBuilder elements = new StringBuilder();
        for (int i = 0; i <= elle.length(); i++) {
            char c = i < elle.length() ? elle.charAt(i) : 'a';
            if (c == 'a' || c == 'r') {
                if (f != 0) {
                    String read = elements.length() == 0 ? "r:" + key
                            : "r:" + key + ":" + String.join(",", elements.toString().split(""));
                    out.add(f == 'a' ? "a:" + key + ":" + elements.charAt(elements.length() - 1) : read);
                }
                f = c;
                key = -1;
                elements.setLength(0);
            } else if ("xyztu".indexOf(c) >= 0) {
                key = "xyztu".indexOf(c);
            } else if (Character.isDigit(c)) {
                elements.append(c);
            } else {
                throw new IllegalArgumentException("not Elle's op notation: " + elle);
            }
        }
        return String.join(" ", out);
    }

    private static CheckerOptions models(String... names) {
        return CheckerOptions.defaults().toBuilder().consistencyModels(ConsistencyModel.ofNames(List.of(names)))
                .build();
    }

    /** {@code {:consistency-models nil, :anomalies [...]}}. */
    private static CheckerOptions none(String... anomalies) {
        return CheckerOptions.defaults().toBuilder().consistencyModels(Set.of()).anomalies(Set.of(anomalies)).build();
    }
}

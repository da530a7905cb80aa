package io.isowatch.cli;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.sinks.Alert;
import io.isowatch.sinks.ConsoleLink;
import io.isowatch.sinks.Release;
import org.junit.jupiter.api.Test;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** What the demo makes of the alerts its job delivers: each id once, counts by type, delays over all. */
class DemoAlertsTest {

    private static Alert alert(String id, String type, long delayMillis) {
        return new Alert(id, "demo", type, type + " " + id, List.of("serializable"), 1_000, delayMillis, "why", "{}");
    }

    private static DemoAlerts alerts(StringWriter out) {
        return new DemoAlerts(new PrintWriter(out, true), false, 1, null, null, null);
    }

    @Test
    void repeatedId_isCountedAndPrintedOnce() {
        StringWriter out = new StringWriter();
        DemoAlerts alerts = alerts(out);
        alerts.accept(alert("a", "G2-item", 10));
        String once = out.toString();
        alerts.accept(alert("a", "G2-item", 10)); // a restored job delivers it again
        alerts.accept(alert("b", "G-single-item", 20));
        assertEquals(2, alerts.count());
        assertEquals("1 G-single-item, 1 G2-item", alerts.byType());
        assertEquals(1, once.lines().filter(l -> l.contains("ALERT")).count(), once);
    }

    @Test
    void byDefault_eachAlertIsOneLineWithItsLink_andPastTheLimitOneLineSaysWhereTheRestAre() {
        StringWriter out = new StringWriter();
        DemoAlerts alerts = new DemoAlerts(new PrintWriter(out, true), false, 2, null, null,
                new ConsoleLink("http://127.0.0.1:8642"));
        for (int i = 1; i <= 5; i++) {
            alerts.accept(alert("id" + i, "G2-item", 10));
        }
        assertEquals(List.of("ALERT G2-item id1; write skew (an anti-dependency cycle), breaks serializable  "
                        + "http://127.0.0.1:8642/findings/id1",
                "ALERT G2-item id2; write skew (an anti-dependency cycle), breaks serializable  "
                        + "http://127.0.0.1:8642/findings/id2",
                "  (further alerts are counted in the progress lines, not printed; all are explained and drawn at "
                        + "http://127.0.0.1:8642/, --verbose prints them in full)"), out.toString().lines().toList());
        assertEquals(5, alerts.count());
    }

    @Test
    void verbose_printsEveryAlertWithItsWholeExplanation() {
        StringWriter out = new StringWriter();
        DemoAlerts alerts = new DemoAlerts(new PrintWriter(out, true), true, 0, null, null, null);
        alerts.accept(alert("a", "G2-item", 10));
        alerts.accept(alert("b", "G2-item", 10));
        assertEquals(2, out.toString().lines().filter(l -> l.startsWith("ALERT")).count(), out.toString());
        assertEquals(2, out.toString().lines().filter(l -> l.equals("  why")).count(), out.toString());
    }

    /** The count at the end is the alerts the job flagged, whenever they arrived; a late live one is not among them. */
    @Test
    void delaySummary_coversEveryAlert_andCountsThoseReleasedAtTheEnd() {
        DemoAlerts alerts = alerts(new StringWriter());
        for (int i = 1; i <= 97; i++) {
            alerts.accept(alert("live-" + i, "G2-item", i));
        }
        alerts.accept(alert("end-1", "garbage-read", 4_000).released(Release.atEnd(AnomalyType.GARBAGE_READ)));
        alerts.accept(alert("live-late", "G2-item", 98));
        alerts.accept(alert("end-2", "G2-item", 25_000).released(Release.atEnd(AnomalyType.G2_ITEM)));
        assertEquals("detection delay over 100 alerts: p50 50 ms, p99 4.0 s, max 25.0 s; 2 released only at the end "
                + "of the history", alerts.delaySummary());
    }
}

package io.isowatch.cli;

import io.isowatch.sinks.Alert;
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
        return new DemoAlerts(new PrintWriter(out, true), 1, null, null, null);
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
    void delaySummary_coversEveryAlert_andCountsThoseOfTheDrain() {
        DemoAlerts alerts = alerts(new StringWriter());
        for (int i = 1; i <= 98; i++) {
            alerts.accept(alert("live-" + i, "G2-item", i));
        }
        alerts.endOfRun();
        alerts.accept(alert("end-1", "G2-item", 4_000));
        alerts.accept(alert("end-2", "G2-item", 25_000));
        assertEquals("detection delay over 100 alerts: p50 50 ms, p99 4.0 s, max 25.0 s; 2 came only with the "
                + "end-of-run drain", alerts.delaySummary());
    }

    @Test
    void percentile_isTheNearestRank() {
        long[] sorted = {1, 2, 3, 4};
        assertEquals(2, DemoAlerts.percentile(sorted, 50));
        assertEquals(4, DemoAlerts.percentile(sorted, 99));
        assertEquals(1, DemoAlerts.percentile(new long[] {1}, 50));
    }
}

package io.isowatch.ui;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.anomaly.Finding;
import io.isowatch.checker.CheckerOptions;
import io.isowatch.checker.IncrementalChecker;
import io.isowatch.checker.Verdict;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.history.codec.HistoryReader;
import io.isowatch.sinks.Alert;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Real alerts for the console's tests: histories run through the core's checker, each finding
 * rendered as the job renders it ({@link Alert#of}). Shared with the cli's tests (test-jar).
 */
public final class TestAlerts {

    /** A key that is an HTML element with a script. */
    public static final String SCRIPT_KEY = "<script>alert(1)</script>";
    /** A key that closes an attribute and adds an image whose error handler runs script. */
    public static final String ATTRIBUTE_KEY = "\"><img src=x onerror=\"window.__xss=1;alert(2)\">";
    /** A history (agent) name that tries the same. */
    public static final String HOSTILE_HISTORY = "'><svg onload=alert(3)>";

    /** 2025-01-02T03:04:05.678Z. */
    public static final long DETECTED_AT = 1_735_787_045_678L;

    private TestAlerts() {
    }

    /** The alerts a history (JSON lines) yields when checked as serializable. */
    public static List<Alert> check(String jsonLines, String history, long detectedAt) {
        return check(jsonLines, history, detectedAt, CheckerOptions.defaults().toBuilder()
                .consistencyModels(java.util.Set.of(ConsistencyModel.of("serializable"))).build());
    }

    /** The alerts a history (JSON lines) yields under {@code options}. */
    public static List<Alert> check(String jsonLines, String history, long detectedAt, CheckerOptions options) {
        AtomTable atoms = new AtomTable();
        IncrementalChecker checker = new IncrementalChecker(options, atoms);
        try (HistoryReader r = HistoryReader.ofJson(history, jsonLines.getBytes(StandardCharsets.UTF_8), atoms)) {
            for (Op op = r.next(); op != null; op = r.next()) {
                checker.accept(op);
            }
        }
        Verdict verdict = checker.finish();
        List<Alert> out = new ArrayList<>();
        for (List<Finding> findings : verdict.anomalies().values()) {
            for (Finding f : findings) {
                out.add(Alert.of(f, history, ConsistencyModel.names(options.consistencyModels()), detectedAt, 7, atoms));
            }
        }
        return out;
    }

    /**
     * Write skew (G2-item) over two string keys: T1 reads {@code k2} empty and appends 1 to
     * {@code k1}, T2 reads {@code k1} empty and appends 1 to {@code k2}, a later read sees both.
     * The six events have indices {@code base} to {@code base + 5}; a finding's id depends on
     * them (and on the history), not on the keys.
     */
    public static String writeSkew(String k1, String k2, long base) {
        String a = json(k1);
        String b = json(k2);
        return String.join("\n",
                "{\"index\":" + (base + 0) + ",\"time\":0,\"type\":\"invoke\",\"process\":0,\"f\":\"txn\",\"value\":[[\"r\"," + b + ",null],[\"append\"," + a + ",1]]}",
                "{\"index\":" + (base + 1) + ",\"time\":1000000,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[[\"r\"," + a + ",null],[\"append\"," + b + ",1]]}",
                "{\"index\":" + (base + 2) + ",\"time\":2000000,\"type\":\"ok\",\"process\":0,\"f\":\"txn\",\"value\":[[\"r\"," + b + ",[]],[\"append\"," + a + ",1]]}",
                "{\"index\":" + (base + 3) + ",\"time\":3000000,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[[\"r\"," + a + ",[]],[\"append\"," + b + ",1]]}",
                "{\"index\":" + (base + 4) + ",\"time\":4000000,\"type\":\"invoke\",\"process\":2,\"f\":\"txn\",\"value\":[[\"r\"," + a + ",null],[\"r\"," + b + ",null]]}",
                "{\"index\":" + (base + 5) + ",\"time\":5000000,\"type\":\"ok\",\"process\":2,\"f\":\"txn\",\"value\":[[\"r\"," + a + ",[1]],[\"r\"," + b + ",[1]]]}",
                "");
    }

    /** The one write-skew alert of {@link #writeSkew} on these keys, in {@code history}, indices from 0. */
    public static Alert writeSkewAlert(String k1, String k2, String history, long detectedAt) {
        return writeSkewAlert(k1, k2, 0, history, detectedAt);
    }

    /** The one write-skew alert of {@link #writeSkew} on these keys and indices, in {@code history}. */
    public static Alert writeSkewAlert(String k1, String k2, long base, String history, long detectedAt) {
        List<Alert> alerts = check(writeSkew(k1, k2, base), history, detectedAt);
        if (alerts.size() != 1 || !alerts.get(0).type().equals("G2-item")) {
            throw new IllegalStateException("expected one G2-item, got " + alerts);
        }
        return alerts.get(0);
    }

    /**
     * An aborted read (G1a, no cycle, so no picture): T1 appends 1 to {@code k} and fails, T2
     * reads it.
     */
    public static Alert abortedReadAlert(String k, String history, long detectedAt) {
        String key = json(k);
        String h = String.join("\n",
                "{\"index\":0,\"time\":0,\"type\":\"invoke\",\"process\":0,\"f\":\"txn\",\"value\":[[\"append\"," + key + ",1]]}",
                "{\"index\":1,\"time\":1000000,\"type\":\"fail\",\"process\":0,\"f\":\"txn\",\"value\":[[\"append\"," + key + ",1]]}",
                "{\"index\":2,\"time\":2000000,\"type\":\"invoke\",\"process\":1,\"f\":\"txn\",\"value\":[[\"r\"," + key + ",null]]}",
                "{\"index\":3,\"time\":3000000,\"type\":\"ok\",\"process\":1,\"f\":\"txn\",\"value\":[[\"r\"," + key + ",[1]]]}",
                "");
        List<Alert> alerts = check(h, history, detectedAt);
        return alerts.stream().filter(a -> a.type().equals("G1a")).findFirst()
                .orElseThrow(() -> new IllegalStateException("expected a G1a, got " + alerts));
    }

    private static String json(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            if (c == '"' || c == '\\') {
                sb.append('\\');
            }
            sb.append(c);
        }
        return sb.append('"').toString();
    }
}

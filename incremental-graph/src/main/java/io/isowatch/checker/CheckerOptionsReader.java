package io.isowatch.checker;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.anomaly.ConsistencyModels;
import io.isowatch.config.Durations;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * The one reader of the checker's options, from {@code key -> text} as the stream job takes its
 * options and as {@code check}, {@code replay} and {@code demo} hand over their flags, so that
 * every entry point accepts the same values and refuses the same mistakes with the same words.
 * Keys are Elle's and elle-cli's names:
 *
 * <table>
 *   <caption>Keys</caption>
 *   <tr><th>key</th><th>default</th><th>meaning</th></tr>
 *   <tr><td>consistency-models</td><td>strict-serializable</td><td>comma-separated Elle model names (aliases such as PL-2 too), or none</td></tr>
 *   <tr><td>anomalies</td><td>(none)</td><td>further anomalies to prohibit, comma-separated</td></tr>
 *   <tr><td>workload</td><td>list-append</td><td>list-append or rw-register</td></tr>
 *   <tr><td>reorder-window</td><td>0</td><td>events that may arrive ahead of one with a smaller index</td></tr>
 *   <tr><td>cycle-search-budget</td><td>5000000</td><td>edges one cycle search may visit</td></tr>
 *   <tr><td>cycle-search-timeout</td><td>0</td><td>a duration one cycle search may take; 0 for no limit</td></tr>
 *   <tr><td>wfr-keys, sequential-keys, linearizable-keys</td><td>false</td><td>rw-register's version-order assumptions</td></tr>
 * </table>
 */
public final class CheckerOptionsReader {

    public static final String CONSISTENCY_MODELS = "consistency-models";
    public static final String ANOMALIES = "anomalies";
    public static final String WORKLOAD = "workload";
    public static final String REORDER_WINDOW = "reorder-window";
    public static final String CYCLE_SEARCH_BUDGET = "cycle-search-budget";
    public static final String CYCLE_SEARCH_TIMEOUT = "cycle-search-timeout";
    public static final String WFR_KEYS = "wfr-keys";
    public static final String SEQUENTIAL_KEYS = "sequential-keys";
    public static final String LINEARIZABLE_KEYS = "linearizable-keys";

    /** Every key with its default, in the order above. */
    public static final Map<String, String> DEFAULTS = defaults();

    private CheckerOptionsReader() {
    }

    /**
     * Reads the options; absent keys take their defaults, unknown keys are the caller's business.
     *
     * @param name how the caller names a key in messages (a CLI flag, a job option)
     * @throws IllegalArgumentException naming the option and the value it cannot take
     */
    public static CheckerOptions read(Map<String, String> raw, UnaryOperator<String> name) {
        Map<String, String> v = new LinkedHashMap<>(DEFAULTS);
        raw.forEach((k, value) -> {
            if (DEFAULTS.containsKey(k) && value != null) {
                v.put(k, value);
            }
        });
        Workload workload = Workload.byElleName(v.get(WORKLOAD).trim());
        if (workload == null) {
            throw new IllegalArgumentException(name.apply(WORKLOAD) + ": unknown workload \"" + v.get(WORKLOAD)
                    + "\"; isowatch checks list-append and rw-register histories");
        }
        RegisterOptions registers = new RegisterOptions(bool(v, WFR_KEYS, name), bool(v, SEQUENTIAL_KEYS, name),
                bool(v, LINEARIZABLE_KEYS, name));
        if (registers.any() && workload != Workload.RW_REGISTER) {
            throw new IllegalArgumentException(name.apply(WFR_KEYS) + ", " + name.apply(SEQUENTIAL_KEYS) + " and "
                    + name.apply(LINEARIZABLE_KEYS) + " apply to the rw-register workload only");
        }
        Set<ConsistencyModel> models = new LinkedHashSet<>();
        for (String m : v.get(CONSISTENCY_MODELS).split(",")) {
            String model = m.trim();
            if (!model.isEmpty() && !"none".equals(model)) {
                try {
                    models.add(ConsistencyModel.of(model));
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(name.apply(CONSISTENCY_MODELS) + ": " + e.getMessage(), e);
                }
            }
        }
        Set<String> anomalies = new LinkedHashSet<>();
        for (String a : v.get(ANOMALIES).split(",")) {
            String anomaly = a.trim();
            if (!anomaly.isEmpty()) {
                try {
                    ConsistencyModels.checkAnomalyName(anomaly);
                } catch (IllegalArgumentException e) {
                    throw new IllegalArgumentException(name.apply(ANOMALIES) + ": " + e.getMessage(), e);
                }
                anomalies.add(anomaly);
            }
        }
        long window = number(v, REORDER_WINDOW, name, 0, Integer.MAX_VALUE);
        long budget = number(v, CYCLE_SEARCH_BUDGET, name, 1, Long.MAX_VALUE);
        long timeout = Durations.parse(name.apply(CYCLE_SEARCH_TIMEOUT), v.get(CYCLE_SEARCH_TIMEOUT)).toMillis();
        return new CheckerOptions(models, anomalies, (int) window, budget, workload, registers, timeout);
    }

    /** The options as text, one entry per key; {@code read(write(o), ...)} gives an equal record. */
    public static Map<String, String> write(CheckerOptions o) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put(CONSISTENCY_MODELS, o.consistencyModels().isEmpty() ? "none"
                : String.join(",", ConsistencyModel.names(o.consistencyModels())));
        m.put(ANOMALIES, String.join(",", new TreeSet<>(o.anomalies())));
        m.put(WORKLOAD, o.workload().elleName());
        m.put(REORDER_WINDOW, Integer.toString(o.reorderWindow()));
        m.put(CYCLE_SEARCH_BUDGET, Long.toString(o.cycleSearchBudget()));
        m.put(CYCLE_SEARCH_TIMEOUT, o.cycleSearchTimeoutMillis() + "ms");
        m.put(WFR_KEYS, Boolean.toString(o.registerOptions().wfrKeys()));
        m.put(SEQUENTIAL_KEYS, Boolean.toString(o.registerOptions().sequentialKeys()));
        m.put(LINEARIZABLE_KEYS, Boolean.toString(o.registerOptions().linearizableKeys()));
        return m;
    }

    private static boolean bool(Map<String, String> v, String key, UnaryOperator<String> name) {
        String t = v.get(key).trim();
        if (t.equals("true") || t.equals("false")) {
            return Boolean.parseBoolean(t);
        }
        throw new IllegalArgumentException(name.apply(key) + ": expected true or false, got \"" + v.get(key) + "\"");
    }

    private static long number(Map<String, String> v, String key, UnaryOperator<String> name, long min, long max) {
        try {
            long n = Long.parseLong(v.get(key).trim());
            if (n >= min && n <= max) {
                return n;
            }
        } catch (NumberFormatException e) {
            // the message below
        }
        throw new IllegalArgumentException(name.apply(key) + ": expected a whole number from " + min
                + (max == Long.MAX_VALUE || max == Integer.MAX_VALUE ? " up" : " to " + max) + ", got \"" + v.get(key) + "\"");
    }

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        d.put(CONSISTENCY_MODELS, "strict-serializable");
        d.put(ANOMALIES, "");
        d.put(WORKLOAD, "list-append");
        d.put(REORDER_WINDOW, "0");
        d.put(CYCLE_SEARCH_BUDGET, Long.toString(CheckerOptions.DEFAULT_CYCLE_SEARCH_BUDGET));
        d.put(CYCLE_SEARCH_TIMEOUT, "0");
        d.put(WFR_KEYS, "false");
        d.put(SEQUENTIAL_KEYS, "false");
        d.put(LINEARIZABLE_KEYS, "false");
        return Collections.unmodifiableMap(d);
    }
}

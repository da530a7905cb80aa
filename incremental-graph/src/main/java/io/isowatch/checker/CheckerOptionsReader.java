package io.isowatch.checker;

import io.isowatch.anomaly.ConsistencyModel;
import io.isowatch.anomaly.ConsistencyModels;
import io.isowatch.config.OptionDeclaration;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.UnaryOperator;

/**
 * The one reader of the checker's options ({@link CheckerDeclarations}), from {@code key -> text}
 * as the stream job takes its options, or from typed values as {@code check}'s and
 * {@code replay}'s flags hold them, so that every entry point accepts the same values and
 * refuses the same mistakes with the same words.
 */
public final class CheckerOptionsReader {

    public static final String CONSISTENCY_MODELS = CheckerDeclarations.CONSISTENCY_MODELS.key();
    public static final String ANOMALIES = CheckerDeclarations.ANOMALIES.key();
    public static final String WORKLOAD = CheckerDeclarations.WORKLOAD.key();
    public static final String REORDER_WINDOW = CheckerDeclarations.REORDER_WINDOW.key();
    public static final String CYCLE_SEARCH_BUDGET = CheckerDeclarations.CYCLE_SEARCH_BUDGET.key();
    public static final String CYCLE_SEARCH_TIMEOUT = CheckerDeclarations.CYCLE_SEARCH_TIMEOUT.key();
    public static final String WFR_KEYS = CheckerDeclarations.WFR_KEYS.key();
    public static final String SEQUENTIAL_KEYS = CheckerDeclarations.SEQUENTIAL_KEYS.key();
    public static final String LINEARIZABLE_KEYS = CheckerDeclarations.LINEARIZABLE_KEYS.key();
    public static final String CLOCK_UNCERTAINTY = CheckerDeclarations.CLOCK_UNCERTAINTY.key();

    /** Every key with its default, in the declarations' order. */
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
        RegisterOptions registers = new RegisterOptions(get(CheckerDeclarations.WFR_KEYS, v, name),
                get(CheckerDeclarations.SEQUENTIAL_KEYS, v, name), get(CheckerDeclarations.LINEARIZABLE_KEYS, v, name));
        return typed(name)
                .workload(v.get(WORKLOAD))
                .registers(registers)
                .models(split(v.get(CONSISTENCY_MODELS)))
                .anomalies(split(v.get(ANOMALIES)))
                .reorderWindow(get(CheckerDeclarations.REORDER_WINDOW, v, name))
                .cycleSearchBudget(get(CheckerDeclarations.CYCLE_SEARCH_BUDGET, v, name))
                .cycleSearchTimeout(get(CheckerDeclarations.CYCLE_SEARCH_TIMEOUT, v, name))
                .clockUncertainty(get(CheckerDeclarations.CLOCK_UNCERTAINTY, v, name))
                .build();
    }

    /**
     * Reads typed values (a CLI's flags) with the same checks and messages as {@link #read}.
     *
     * @param name how the caller names a key in messages
     */
    public static Typed typed(UnaryOperator<String> name) {
        return new Typed(name);
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
        m.put(CLOCK_UNCERTAINTY, o.clockUncertainty().toString()); // ISO-8601 keeps nanoseconds
        return m;
    }

    /**
     * The checker's options from typed values, each checked once as {@link #read} checks it; a
     * value not given keeps its declared default.
     */
    public static final class Typed {
        private final UnaryOperator<String> name;
        private final CheckerOptions.Builder options = CheckerOptions.builder();
        private Workload workload = Workload.LIST_APPEND;
        private RegisterOptions registers = RegisterOptions.NONE;

        private Typed(UnaryOperator<String> name) {
            this.name = name;
        }

        public Typed workload(String elleName) {
            workload = Workload.byElleName(elleName.trim());
            if (workload == null) {
                throw new IllegalArgumentException(name.apply(WORKLOAD) + ": unknown workload \"" + elleName
                        + "\"; isowatch checks list-append and rw-register histories");
            }
            return this;
        }

        public Typed registers(RegisterOptions value) {
            registers = value;
            return this;
        }

        /** Model names; {@code none} and empty names are skipped. */
        public Typed models(Collection<String> names) {
            Set<ConsistencyModel> models = new LinkedHashSet<>();
            for (String m : names) {
                String model = m.trim();
                if (!model.isEmpty() && !"none".equals(model)) {
                    try {
                        models.add(ConsistencyModel.of(model));
                    } catch (IllegalArgumentException e) {
                        throw new IllegalArgumentException(name.apply(CONSISTENCY_MODELS) + ": " + e.getMessage(), e);
                    }
                }
            }
            options.consistencyModels(models);
            return this;
        }

        public Typed anomalies(Collection<String> names) {
            Set<String> anomalies = new LinkedHashSet<>();
            for (String a : names) {
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
            options.anomalies(anomalies);
            return this;
        }

        public Typed reorderWindow(int value) {
            options.reorderWindow(CheckerDeclarations.REORDER_WINDOW.type().check(name.apply(REORDER_WINDOW), value));
            return this;
        }

        public Typed cycleSearchBudget(long value) {
            options.cycleSearchBudget(
                    CheckerDeclarations.CYCLE_SEARCH_BUDGET.type().check(name.apply(CYCLE_SEARCH_BUDGET), value));
            return this;
        }

        public Typed cycleSearchTimeout(Duration value) {
            options.cycleSearchTimeoutMillis(CheckerDeclarations.CYCLE_SEARCH_TIMEOUT.type()
                    .check(name.apply(CYCLE_SEARCH_TIMEOUT), value).toMillis());
            return this;
        }

        public Typed clockUncertainty(Duration value) {
            options.clockUncertainty(CheckerDeclarations.CLOCK_UNCERTAINTY.type()
                    .check(name.apply(CLOCK_UNCERTAINTY), value));
            return this;
        }

        /**
         * The options.
         *
         * @throws IllegalArgumentException when a version-order assumption is given for list-append
         */
        public CheckerOptions build() {
            if (registers.any() && workload != Workload.RW_REGISTER) {
                throw new IllegalArgumentException(name.apply(WFR_KEYS) + ", " + name.apply(SEQUENTIAL_KEYS) + " and "
                        + name.apply(LINEARIZABLE_KEYS) + " apply to the rw-register workload only");
            }
            return options.workload(workload).registerOptions(registers).build();
        }
    }

    private static java.util.List<String> split(String commaSeparated) {
        return java.util.List.of(commaSeparated.split(","));
    }

    private static <T> T get(OptionDeclaration<T> option, Map<String, String> v, UnaryOperator<String> name) {
        return option.parse(name.apply(option.key()), v.get(option.key()));
    }

    private static Map<String, String> defaults() {
        Map<String, String> d = new LinkedHashMap<>();
        CheckerDeclarations.ALL.forEach(o -> d.put(o.key(), o.defaultText()));
        return Collections.unmodifiableMap(d);
    }
}

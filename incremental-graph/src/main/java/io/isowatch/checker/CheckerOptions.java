package io.isowatch.checker;

import io.isowatch.anomaly.ConsistencyModel;

import java.util.Objects;
import java.util.Set;

/**
 * What to check and how: the consistency models and extra anomalies that make a history invalid,
 * how far out of order events may arrive, and the budget of the cycle search.
 *
 * @param consistencyModels models the history must satisfy (empty for none); each one is known to
 *                          Elle, as {@link ConsistencyModel} refuses any other name
 * @param anomalies         further anomalies to prohibit, by Elle name
 * @param reorderWindow     how many events may arrive ahead of an event with a smaller index;
 *                          0 when events arrive in index order
 * @param cycleSearchBudget edges a single cycle search may visit before it gives up and the
 *                          verdict becomes unknown
 * @param workload          list-append or rw-register
 * @param registerOptions   the version-order sources rw-register may assume
 * @param cycleSearchTimeoutMillis wall-clock milliseconds a single cycle search may take
 *                          before it gives up like an exhausted budget (Elle's
 *                          {@code :cycle-search-timeout}); 0 for no limit, the default, which
 *                          keeps verdicts independent of the machine's speed
 * @param clockUncertainty  how far apart two agents' clocks may be, for a history recorded by
 *                          several agents; the checker applies it when told
 *                          {@link IncrementalChecker#checkAsFleet}
 */
public record CheckerOptions(Set<ConsistencyModel> consistencyModels, Set<String> anomalies, int reorderWindow,
                             long cycleSearchBudget, Workload workload, RegisterOptions registerOptions,
                             long cycleSearchTimeoutMillis, java.time.Duration clockUncertainty)
        implements java.io.Serializable {

    /** Elle's default: strict-serializable. */
    public static final Set<ConsistencyModel> DEFAULT_MODELS = Set.of(ConsistencyModel.STRICT_SERIALIZABLE);
    public static final long DEFAULT_CYCLE_SEARCH_BUDGET = 5_000_000L;
    /** {@link CheckerDeclarations#CLOCK_UNCERTAINTY}'s default. */
    public static final java.time.Duration DEFAULT_CLOCK_UNCERTAINTY = java.time.Duration.ofMillis(100);

    public CheckerOptions {
        consistencyModels = Set.copyOf(Objects.requireNonNull(consistencyModels, "consistencyModels"));
        anomalies = Set.copyOf(Objects.requireNonNull(anomalies, "anomalies"));
        if (reorderWindow < 0) {
            throw new IllegalArgumentException("reorderWindow must be >= 0, got " + reorderWindow);
        }
        if (cycleSearchBudget <= 0) {
            throw new IllegalArgumentException("cycleSearchBudget must be > 0, got " + cycleSearchBudget);
        }
        Objects.requireNonNull(workload, "workload");
        Objects.requireNonNull(registerOptions, "registerOptions");
        if (cycleSearchTimeoutMillis < 0) {
            throw new IllegalArgumentException("cycleSearchTimeoutMillis must be >= 0, got " + cycleSearchTimeoutMillis);
        }
        if (Objects.requireNonNull(clockUncertainty, "clockUncertainty").isNegative()) {
            throw new IllegalArgumentException("clockUncertainty must be >= 0, got " + clockUncertainty);
        }
    }

    /** List-append options. */
    public CheckerOptions(Set<ConsistencyModel> consistencyModels, Set<String> anomalies, int reorderWindow,
                          long cycleSearchBudget) {
        this(consistencyModels, anomalies, reorderWindow, cycleSearchBudget, Workload.LIST_APPEND,
                RegisterOptions.NONE, 0, DEFAULT_CLOCK_UNCERTAINTY);
    }

    /** Strict-serializable, no extra anomalies, in-order delivery. */
    public static CheckerOptions defaults() {
        return new CheckerOptions(DEFAULT_MODELS, Set.of(), 0, DEFAULT_CYCLE_SEARCH_BUDGET);
    }

    /** A builder holding the defaults of {@link #defaults()}. */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding these options, to change some of them. */
    public Builder toBuilder() {
        return new Builder().consistencyModels(consistencyModels).anomalies(anomalies).reorderWindow(reorderWindow)
                .cycleSearchBudget(cycleSearchBudget).workload(workload).registerOptions(registerOptions)
                .cycleSearchTimeoutMillis(cycleSearchTimeoutMillis).clockUncertainty(clockUncertainty);
    }

    /** Builds {@link CheckerOptions}; the record's constructor checks the values. */
    public static final class Builder {
        private Set<ConsistencyModel> consistencyModels = DEFAULT_MODELS;
        private Set<String> anomalies = Set.of();
        private int reorderWindow;
        private long cycleSearchBudget = DEFAULT_CYCLE_SEARCH_BUDGET;
        private Workload workload = Workload.LIST_APPEND;
        private RegisterOptions registerOptions = RegisterOptions.NONE;
        private long cycleSearchTimeoutMillis;
        private java.time.Duration clockUncertainty = DEFAULT_CLOCK_UNCERTAINTY;

        private Builder() {
        }

        public Builder consistencyModels(Set<ConsistencyModel> value) {
            consistencyModels = value;
            return this;
        }

        public Builder anomalies(Set<String> value) {
            anomalies = value;
            return this;
        }

        public Builder reorderWindow(int value) {
            reorderWindow = value;
            return this;
        }

        public Builder cycleSearchBudget(long value) {
            cycleSearchBudget = value;
            return this;
        }

        public Builder workload(Workload value) {
            workload = value;
            return this;
        }

        public Builder registerOptions(RegisterOptions value) {
            registerOptions = value;
            return this;
        }

        /** Checks an rw-register history with the given version-order sources. */
        public Builder registers(RegisterOptions value) {
            return workload(Workload.RW_REGISTER).registerOptions(value);
        }

        public Builder cycleSearchTimeoutMillis(long value) {
            cycleSearchTimeoutMillis = value;
            return this;
        }

        public Builder clockUncertainty(java.time.Duration value) {
            clockUncertainty = value;
            return this;
        }

        public CheckerOptions build() {
            return new CheckerOptions(consistencyModels, anomalies, reorderWindow, cycleSearchBudget, workload,
                    registerOptions, cycleSearchTimeoutMillis, clockUncertainty);
        }
    }

}

package io.isowatch.checker;

import io.isowatch.config.OptionDeclaration;
import io.isowatch.config.ValueTypes;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;

/**
 * The checker's options, declared once: {@code check}'s and {@code replay}'s flags and the stream
 * job's keys are derived from these, and {@link CheckerOptionsReader} reads them. Keys are Elle's
 * and elle-cli's names.
 */
public final class CheckerDeclarations {

    private static final String CHECK = "check";
    private static final String REPLAY = "replay";

    public static final OptionDeclaration<String> WORKLOAD = OptionDeclaration
            .key("workload", ValueTypes.text("list-append or rw-register"))
            .defaultValue("list-append")
            .doc("the workload the history records")
            .flags(List.of("-m", "--model"), CHECK, REPLAY).job().chart("job.options.workload").build();

    public static final OptionDeclaration<String> CONSISTENCY_MODELS = OptionDeclaration
            .key("consistency-models", ValueTypes.text("Elle model names, comma-separated"))
            .defaultValue("strict-serializable")
            .doc("models that must hold; `none` for none; any name Elle knows (aliases such as `PL-2` too)")
            .flags(List.of("-c", "--consistency-models"), CHECK, REPLAY, "demo").job()
            .chart("job.options.consistencyModels").build();

    public static final OptionDeclaration<String> ANOMALIES = OptionDeclaration
            .key("anomalies", ValueTypes.text("Elle anomaly names, comma-separated"))
            .doc("further anomalies to prohibit (`G1`, `G2` and the like expand as in Elle)")
            .flags(List.of("-a", "--anomalies"), CHECK, REPLAY).job().build();

    public static final OptionDeclaration<Boolean> WFR_KEYS = OptionDeclaration
            .key("wfr-keys", ValueTypes.bool()).defaultValue(false)
            .doc("rw-register: writes follow reads within a transaction")
            .flags(List.of("--wfr-keys"), CHECK, REPLAY).job().build();

    public static final OptionDeclaration<Boolean> SEQUENTIAL_KEYS = OptionDeclaration
            .key("sequential-keys", ValueTypes.bool()).defaultValue(false)
            .doc("rw-register: process order orders each key's versions")
            .flags(List.of("--sequential-keys"), CHECK, REPLAY).job().build();

    public static final OptionDeclaration<Boolean> LINEARIZABLE_KEYS = OptionDeclaration
            .key("linearizable-keys", ValueTypes.bool()).defaultValue(false)
            .doc("rw-register: realtime order orders each key's versions")
            .flags(List.of("--linearizable-keys"), CHECK, REPLAY).job().build();

    public static final OptionDeclaration<Integer> REORDER_WINDOW = OptionDeclaration
            .key("reorder-window", ValueTypes.integer(0, Integer.MAX_VALUE)).defaultValue(0)
            .doc("how many events may arrive ahead of one with a smaller index (the job orders events itself)")
            .flags(List.of("--reorder-window"), CHECK, REPLAY).build();

    public static final OptionDeclaration<Long> CYCLE_SEARCH_BUDGET = OptionDeclaration
            .key("cycle-search-budget", ValueTypes.wholeNumber(1, Long.MAX_VALUE))
            .defaultValue(CheckerOptions.DEFAULT_CYCLE_SEARCH_BUDGET)
            .doc("edges one cycle search may visit; beyond it the verdict is unknown")
            .flags(List.of("--cycle-search-budget"), CHECK, REPLAY).job().build();

    /**
     * A bare number is seconds to the job, as every other duration, but milliseconds to the flag,
     * which exists for elle-cli's command lines, where it means milliseconds (decision 0018).
     */
    public static final OptionDeclaration<Duration> CYCLE_SEARCH_TIMEOUT = OptionDeclaration
            .key("cycle-search-timeout", ValueTypes.duration(ChronoUnit.SECONDS))
            .flagType(ValueTypes.duration(ChronoUnit.MILLIS))
            .defaultValue(Duration.ZERO)
            .doc("time one cycle search may take (Elle's `:cycle-search-timeout`), `0` for no limit, so a verdict "
                    + "does not depend on the machine's speed; beyond it the verdict is unknown. Give a unit "
                    + "(`500ms`, `2s`): a bare number is milliseconds to the flag (elle-cli's meaning) but "
                    + "seconds to the job")
            .flags(List.of("-s", "--cycle-search-timeout"), CHECK, REPLAY).job().build();

    /**
     * 100 ms by default (decision 0021): NTP over the public internet keeps a host within tens of
     * milliseconds, so two hosts may differ by about twice that; chrony on a LAN keeps them within
     * a millisecond. Too large an uncertainty only loses realtime edges (fewer findings); too small
     * a one can make a realtime anomaly out of a clock difference, a false alarm, the worst error a
     * checker can make. So the default leans large.
     */
    public static final OptionDeclaration<Duration> CLOCK_UNCERTAINTY = OptionDeclaration
            .key("clock-uncertainty", ValueTypes.duration(ChronoUnit.SECONDS))
            .defaultValue(Duration.ofMillis(100))
            .doc("how far apart the clocks of two agents recording one history may be: transactions of different "
                    + "agents are ordered in real time only when one was invoked more than this after the other "
                    + "completed (decision 0021); for `check`, several files given with it are one history, one "
                    + "file per agent")
            .flags(List.of("--clock-uncertainty"), CHECK).job().chart("job.options.clockUncertainty").build();

    /** Every checker option, in the docs' order. */
    public static final List<OptionDeclaration<?>> ALL = List.of(WORKLOAD, CONSISTENCY_MODELS, ANOMALIES, WFR_KEYS,
            SEQUENTIAL_KEYS, LINEARIZABLE_KEYS, REORDER_WINDOW, CYCLE_SEARCH_BUDGET, CYCLE_SEARCH_TIMEOUT,
            CLOCK_UNCERTAINTY);

    private CheckerDeclarations() {
    }
}

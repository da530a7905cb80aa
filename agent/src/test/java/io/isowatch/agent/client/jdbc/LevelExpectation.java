package io.isowatch.agent.client.jdbc;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.checker.Workload;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What one contended run of an engine at one isolation level must show, as data: the models the
 * engine's manual promises (the history must be valid under each) and, for models it does not
 * promise, the anomalies the runs showed (invalid, with at least one of the given types, or any
 * when none is given). An engine's {@code <Engine>IsolationIT} lists these; {@link
 * JdbcHistories#tests} runs each against the engine's server.
 *
 * @param name          the run's name, also its report file and its table prefix (so at most
 *                      39 characters: another run adds two, see {@link #again})
 * @param level         the isolation level asked for
 * @param settings      engine settings appended to the JDBC URL (e.g. MariaDB's
 *                      {@code ?sessionVariables=innodb_snapshot_isolation=ON}), or ""
 * @param workload      list-append or rw-register
 * @param seed          the workload's seed
 * @param txns          transactions to run
 * @param minOk         committed transactions the run must reach (0: no minimum)
 * @param validUnder    models the history must satisfy
 * @param showsUnder    models the history must violate, each with the anomaly types of which it
 *                      must show at least one (empty: any)
 * @param failurePrefix a failure reason the run must have met (proof of contention), or null
 */
record LevelExpectation(String name, JdbcIsolation level, String settings, Workload workload, long seed, int txns,
                        int minOk, List<String> validUnder, Map<String, Set<AnomalyType>> showsUnder,
                        String failurePrefix) {

    /** A contended list-append run of {@link JdbcHistories#TXNS} transactions, expecting nothing yet. */
    static LevelExpectation of(String name, JdbcIsolation level, long seed) {
        return new LevelExpectation(name, level, "", Workload.LIST_APPEND, seed, JdbcHistories.TXNS, 0, List.of(),
                Map.of(), null);
    }

    LevelExpectation validUnder(String model) {
        return new LevelExpectation(name, level, settings, workload, seed, txns, minOk, append(validUnder, model),
                showsUnder, failurePrefix);
    }

    /** The history must be invalid under {@code model}, showing one of {@code anyOf} (any anomaly when empty). */
    LevelExpectation shows(String model, AnomalyType... anyOf) {
        Map<String, Set<AnomalyType>> shows = new LinkedHashMap<>(showsUnder);
        shows.put(model, Set.of(anyOf));
        return new LevelExpectation(name, level, settings, workload, seed, txns, minOk, validUnder, shows,
                failurePrefix);
    }

    LevelExpectation failsWith(String prefix) {
        return new LevelExpectation(name, level, settings, workload, seed, txns, minOk, validUnder, showsUnder, prefix);
    }

    LevelExpectation withSettings(String urlSuffix) {
        return new LevelExpectation(name, level, urlSuffix, workload, seed, txns, minOk, validUnder, showsUnder,
                failurePrefix);
    }

    /** An rw-register run of {@code count} transactions of which at least {@code ok} must commit. */
    LevelExpectation registers(int count, int ok) {
        return new LevelExpectation(name, level, settings, Workload.RW_REGISTER, seed, count, ok, validUnder,
                showsUnder, failurePrefix);
    }

    /**
     * The same expectation for another run, {@code attempt}, of a level whose anomalies did not
     * show: tables of its own (the name gains the attempt) and the next seed.
     */
    LevelExpectation again(int attempt) {
        return new LevelExpectation(name + "-" + attempt, level, settings, workload, seed + attempt - 1, txns, minOk,
                validUnder, showsUnder, failurePrefix);
    }

    /** The table prefix of the run: its name in SQL's identifier alphabet. */
    String tablePrefix() {
        return name.replace('-', '_');
    }

    private static List<String> append(List<String> list, String item) {
        List<String> out = new java.util.ArrayList<>(list);
        out.add(item);
        return List.copyOf(out);
    }
}

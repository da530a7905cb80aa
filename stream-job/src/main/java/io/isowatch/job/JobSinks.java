package io.isowatch.job;

import io.isowatch.history.HistoryEvent;
import io.isowatch.sinks.Alert;

import org.apache.flink.api.connector.sink2.Sink;

import java.util.List;
import java.util.Objects;

/**
 * Where the job's outputs go.
 *
 * @param alerts        every alert goes to each of these (Kafka, file, webhook, console)
 * @param deadLetters   malformed records, protocol faults, rejected and late events
 * @param verdicts      per history (agent), the verdict of a bounded input, or null (a replay
 *                      reads it)
 * @param checkedEvents the events fed to the checkers, in their order, or null; for tests and
 *                      debugging
 */
public record JobSinks(List<Sink<Alert>> alerts, Sink<DeadLetter> deadLetters, Sink<HistoryVerdict> verdicts,
                       Sink<HistoryEvent> checkedEvents) {

    public JobSinks {
        alerts = List.copyOf(alerts);
        Objects.requireNonNull(deadLetters, "deadLetters");
    }

    /** Alerts and dead letters only. */
    public static JobSinks of(List<Sink<Alert>> alerts, Sink<DeadLetter> deadLetters) {
        return new JobSinks(alerts, deadLetters, null, null);
    }

    public JobSinks withVerdicts(Sink<HistoryVerdict> value) {
        return new JobSinks(alerts, deadLetters, value, checkedEvents);
    }

    public JobSinks withCheckedEvents(Sink<HistoryEvent> value) {
        return new JobSinks(alerts, deadLetters, verdicts, value);
    }
}

package io.isowatch.ui.intake;

import io.isowatch.sinks.Alert;
import io.isowatch.ui.AlertLine;
import io.isowatch.ui.FindingStore;
import io.isowatch.ui.FindingView;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Turns one record of an alerts source (a line of the file, the value of a topic record) into a
 * finding in the store. A record that is no alert this console reads is counted in the store
 * and skipped, never fatal: one bad line must not blind the console to the ones after it. The
 * first few are logged with the reason. Thread-safe.
 */
public final class AlertIntake {

    private static final Logger LOG = LoggerFactory.getLogger(AlertIntake.class);
    private static final int LOGGED_PROBLEMS = 5;

    private final FindingStore store;
    private final String sourceName;

    /** @param sourceName names the source in log lines, e.g. the file or the topic */
    public AlertIntake(FindingStore store, String sourceName) {
        this.store = store;
        this.sourceName = sourceName;
    }

    /** Adds the alert {@code json} holds; false when it was a repeat or unreadable. */
    public boolean accept(String json) {
        Alert alert;
        try {
            alert = AlertLine.parse(json);
        } catch (IllegalArgumentException e) {
            store.noteUnreadable();
            if (store.unreadable() <= LOGGED_PROBLEMS) {
                LOG.warn("skipped a record of {} that is no alert: {}", sourceName, e.getMessage());
            }
            return false;
        }
        return store.add(FindingView.of(alert));
    }
}

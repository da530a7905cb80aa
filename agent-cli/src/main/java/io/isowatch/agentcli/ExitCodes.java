package io.isowatch.agentcli;

/** Exit codes: 0, 1 and 255 as elle-cli uses them, and {@link #UNSHIPPED} of {@code agent run}. */
public final class ExitCodes {

    /** Every history valid, or unknown. */
    public static final int VALID = 0;
    /** At least one history is invalid. */
    public static final int INVALID = 1;
    /**
     * {@code agent run} ended with events it recorded still unshipped to Kafka: the shipper is
     * stalled or failed (a missing topic, unreachable brokers), or the drain timeout passed. The
     * events stay in the spool and ship on the next run on it. Its own code, so that a script or
     * an orchestrator tells "recorded but not delivered" from success (0), a finding (1) and an
     * error (255). Not elle-cli's.
     */
    public static final int UNSHIPPED = 3;
    /** Bad input or usage: no verdict could be given. */
    public static final int ERROR = 255;

    private ExitCodes() {
    }
}

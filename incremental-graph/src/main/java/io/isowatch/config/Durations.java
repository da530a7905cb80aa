package io.isowatch.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one way isowatch reads a duration, in the CLI's flags and the job's options alike: a
 * number with an optional unit ({@code 500ms}, {@code 1.5s}, {@code 5m}, {@code 2h}; a bare
 * number is seconds, so {@code 0} is zero), or ISO-8601 ({@code PT1M}).
 */
public final class Durations {

    private static final Pattern AMOUNT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)?");

    private Durations() {
    }

    /**
     * Parses {@code text} as the value of {@code option}.
     *
     * @throws IllegalArgumentException naming the option and the text, with examples
     */
    public static Duration parse(String option, String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        Matcher m = AMOUNT.matcher(t);
        if (m.matches()) {
            double amount = Double.parseDouble(m.group(1));
            double nanosPerUnit = switch (m.group(2) == null ? "s" : m.group(2)) {
                case "ms" -> 1e6;
                case "m" -> 60e9;
                case "h" -> 3600e9;
                default -> 1e9;
            };
            return Duration.ofNanos(Math.round(amount * nanosPerUnit));
        }
        try {
            return Duration.parse(t.toUpperCase(Locale.ROOT));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException(option + ": cannot read \"" + text
                    + "\" as a duration; write e.g. 500ms, 10s, 5m, 2h, 30 (seconds) or PT1M");
        }
    }

    /**
     * Writes {@code d} as {@link #parse} reads it, in the largest unit that keeps it whole:
     * {@code 500ms}, {@code 30s}, {@code 10m}, {@code 2h}.
     */
    public static String format(Duration d) {
        long ms = d.toMillis();
        if (ms == 0 || ms % 1000 != 0) {
            return ms + "ms";
        }
        long s = ms / 1000;
        if (s % 3600 == 0) {
            return s / 3600 + "h";
        }
        return s % 60 == 0 ? s / 60 + "m" : s + "s";
    }
}

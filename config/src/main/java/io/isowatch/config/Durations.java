package io.isowatch.config;

import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.time.temporal.ChronoUnit;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one way isowatch reads a duration, in the CLI's flags and the job's options alike: a
 * number with a unit ({@code 500ms}, {@code 1.5s}, {@code 5m}, {@code 2h}) or ISO-8601
 * ({@code PT1M}). A bare number is read in the unit its option declares: seconds everywhere but
 * {@code check -s}, where Elle's command line made it milliseconds (decision 0018); {@code 0} is
 * zero in either.
 */
public final class Durations {

    private static final Pattern AMOUNT = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*(ms|s|m|h)?");
    private static final Pattern BARE = Pattern.compile("\\s*\\d+(?:\\.\\d+)?\\s*");

    private Durations() {
    }

    /**
     * Parses {@code text} as the value of {@code option}, a bare number as seconds.
     *
     * @throws IllegalArgumentException naming the option and the text, with examples
     */
    public static Duration parse(String option, String text) {
        return parse(option, text, ChronoUnit.SECONDS);
    }

    /**
     * Parses {@code text} as the value of {@code option}, a bare number in {@code bareUnit}
     * (seconds or milliseconds).
     *
     * @throws IllegalArgumentException naming the option and the text, with examples
     */
    public static Duration parse(String option, String text, ChronoUnit bareUnit) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        Matcher m = AMOUNT.matcher(t);
        if (m.matches()) {
            double amount = Double.parseDouble(m.group(1));
            String unit = m.group(2) != null ? m.group(2) : bareUnit == ChronoUnit.MILLIS ? "ms" : "s";
            double nanosPerUnit = switch (unit) {
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
                    + "\" as a duration; write e.g. 500ms, 10s, 5m, 2h, 30 (" + unitName(bareUnit) + ") or PT1M");
        }
    }

    /**
     * As {@link #parse(String, String, ChronoUnit)}, with an optional leading {@code -} (or
     * {@code +}) for the few options that shift rather than wait: {@code -250ms}.
     *
     * @throws IllegalArgumentException naming the option and the text, with examples
     */
    public static Duration parseSigned(String option, String text, ChronoUnit bareUnit) {
        String t = text.trim();
        if (t.startsWith("-")) {
            return parse(option, t.substring(1), bareUnit).negated();
        }
        return parse(option, t.startsWith("+") ? t.substring(1) : t, bareUnit);
    }

    /** Whether {@code text} is a number without a unit, whose meaning depends on the option. */
    public static boolean isBareNumber(String text) {
        return BARE.matcher(text).matches();
    }

    /** "seconds" or "milliseconds": how the docs name a bare number's unit. */
    public static String unitName(ChronoUnit bareUnit) {
        return switch (bareUnit) {
            case MILLIS -> "milliseconds";
            case SECONDS -> "seconds";
            default -> throw new IllegalArgumentException(
                    "a bare duration is seconds or milliseconds, not " + bareUnit);
        };
    }

    /**
     * Writes {@code d} as {@link #parse} reads it, in the largest unit that keeps it whole:
     * {@code 500ms}, {@code 30s}, {@code 10m}, {@code 2h}; always with its unit, so it means the
     * same to every option.
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

package io.isowatch.config;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Locale;

/** The value types options are declared with. Each is immutable and stateless. */
public final class ValueTypes {

    private ValueTypes() {
    }

    /** Text taken as written, trimmed; empty is allowed (it means "none" where the option says so). */
    public static ValueType<String> text() {
        return text("text");
    }

    /** Text taken as written, trimmed, described as {@code what} (its form is checked where it is used). */
    public static ValueType<String> text(String what) {
        return new ValueType<>() {
            @Override
            public String parse(String where, String text) {
                return text.trim();
            }

            @Override
            public String format(String value) {
                return value;
            }

            @Override
            public String describe() {
                return what;
            }
        };
    }

    /** One of a closed set of names, compared case-insensitively and kept in lower case. */
    public static ValueType<String> oneOf(String... names) {
        List<String> allowed = List.of(names);
        return new ValueType<>() {
            @Override
            public String parse(String where, String text) {
                return check(where, text.trim().toLowerCase(Locale.ROOT));
            }

            @Override
            public String check(String where, String value) {
                if (!allowed.contains(value)) {
                    throw new IllegalArgumentException(
                            where + ": expected one of " + allowed + ", got \"" + value + "\"");
                }
                return value;
            }

            @Override
            public String format(String value) {
                return value;
            }

            @Override
            public String describe() {
                return "one of " + String.join(", ", allowed);
            }
        };
    }

    /** {@code true} or {@code false}, nothing else. */
    public static ValueType<Boolean> bool() {
        return new ValueType<>() {
            @Override
            public Boolean parse(String where, String text) {
                String t = text.trim();
                if (t.equals("true") || t.equals("false")) {
                    return Boolean.parseBoolean(t);
                }
                throw new IllegalArgumentException(where + ": expected true or false, got \"" + text + "\"");
            }

            @Override
            public String format(Boolean value) {
                return value.toString();
            }

            @Override
            public String describe() {
                return "true or false";
            }
        };
    }

    /** A whole number in {@code [min, max]}. */
    public static ValueType<Integer> integer(int min, int max) {
        ValueType<Long> whole = wholeNumber(min, max);
        return new ValueType<>() {
            @Override
            public Integer parse(String where, String text) {
                return whole.parse(where, text).intValue();
            }

            @Override
            public Integer check(String where, Integer value) {
                return whole.check(where, value.longValue()).intValue();
            }

            @Override
            public String format(Integer value) {
                return value.toString();
            }

            @Override
            public String describe() {
                return whole.describe();
            }
        };
    }

    /** A whole number in {@code [min, max]}, as a long. */
    public static ValueType<Long> wholeNumber(long min, long max) {
        return new ValueType<>() {
            @Override
            public Long parse(String where, String text) {
                try {
                    return check(where, Long.parseLong(text.trim()), text);
                } catch (NumberFormatException e) {
                    throw outOfRange(where, text);
                }
            }

            @Override
            public Long check(String where, Long value) {
                return check(where, value, value.toString());
            }

            private Long check(String where, long value, String text) {
                if (value < min || value > max) {
                    throw outOfRange(where, text);
                }
                return value;
            }

            private IllegalArgumentException outOfRange(String where, String text) {
                return new IllegalArgumentException(where + ": expected a whole number from " + min
                        + (max == Long.MAX_VALUE || max == Integer.MAX_VALUE ? " up" : " to " + max)
                        + ", got \"" + text + "\"");
            }

            @Override
            public String format(Long value) {
                return value.toString();
            }

            @Override
            public String describe() {
                if (min == Long.MIN_VALUE && max == Long.MAX_VALUE) {
                    return "whole number";
                }
                return max == Long.MAX_VALUE || max == Integer.MAX_VALUE ? "whole number ≥ " + min
                        : "whole number " + min + "–" + max;
            }
        };
    }

    /** A decimal number in {@code [min, max]} (a probability is {@code decimal(0, 1)}). */
    public static ValueType<Double> decimal(double min, double max) {
        return new ValueType<>() {
            @Override
            public Double parse(String where, String text) {
                try {
                    return check(where, Double.parseDouble(text.trim()));
                } catch (NumberFormatException e) {
                    throw new IllegalArgumentException(where + ": expected " + describe() + ", got \"" + text + "\"");
                }
            }

            @Override
            public Double check(String where, Double value) {
                // Written so that NaN fails too.
                if (!(value >= min && value <= max)) {
                    throw new IllegalArgumentException(where + ": expected " + describe() + ", got " + value);
                }
                return value;
            }

            @Override
            public String format(Double value) {
                return value == Math.rint(value) && !Double.isInfinite(value) ? Long.toString(value.longValue())
                        : value.toString();
            }

            @Override
            public String describe() {
                return max == Double.MAX_VALUE ? "number ≥ " + format(min)
                        : "number " + format(min) + "–" + format(max);
            }
        };
    }

    /**
     * A duration with a unit ({@code 500ms}, {@code 2s}, {@code 1m}, {@code 1h}) or ISO-8601; a bare
     * number is read in {@code bareUnit} ({@link Durations}).
     */
    public static ValueType<Duration> duration(ChronoUnit bareUnit) {
        return new ValueType<>() {
            @Override
            public Duration parse(String where, String text) {
                return Durations.parse(where, text, bareUnit);
            }

            @Override
            public Duration check(String where, Duration value) {
                if (value.isNegative()) {
                    throw new IllegalArgumentException(where + " must not be negative, got " + value);
                }
                return value;
            }

            @Override
            public String format(Duration value) {
                return Durations.format(value);
            }

            @Override
            public String describe() {
                return "duration (bare number: " + Durations.unitName(bareUnit) + ")";
            }
        };
    }

    /**
     * A duration that may be negative ({@code -250ms}), for an option that shifts something
     * rather than waits; otherwise as {@link #duration(ChronoUnit)}.
     */
    public static ValueType<Duration> signedDuration(ChronoUnit bareUnit) {
        return new ValueType<>() {
            @Override
            public Duration parse(String where, String text) {
                return Durations.parseSigned(where, text, bareUnit);
            }

            @Override
            public String format(Duration value) {
                return value.isNegative() ? "-" + Durations.format(value.negated()) : Durations.format(value);
            }

            @Override
            public String describe() {
                return "duration, may be negative (bare number: " + Durations.unitName(bareUnit) + ")";
            }
        };
    }
}

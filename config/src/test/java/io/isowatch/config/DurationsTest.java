package io.isowatch.config;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DurationsTest {

    @Test
    void parse_acceptsUnitsPlainSecondsDecimalsAndIso() {
        assertEquals(Duration.ofSeconds(2), Durations.parse("d", "2"));
        assertEquals(Duration.ZERO, Durations.parse("d", "0"));
        assertEquals(Duration.ofMillis(500), Durations.parse("d", "500ms"));
        assertEquals(Duration.ofSeconds(5), Durations.parse("d", " 5 s "));
        assertEquals(Duration.ofMinutes(5), Durations.parse("d", "5m"));
        assertEquals(Duration.ofHours(2), Durations.parse("d", "2H"));
        assertEquals(Duration.ofMillis(1500), Durations.parse("d", "1.5s"));
        assertEquals(Duration.ofMinutes(1), Durations.parse("d", "PT1M"));
        assertEquals(Duration.ofSeconds(5), Durations.parse("d", "pt5s"));
    }

    @Test
    void parse_refusesOtherText_namingOptionAndValue() {
        for (String bad : new String[] {"soon", "", "5 days", "-5s", "1.s"}) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> Durations.parse("--drain-timeout", bad));
            assertTrue(e.getMessage().startsWith("--drain-timeout: cannot read \"" + bad + "\" as a duration"),
                    e.getMessage());
        }
    }

    @Test
    void parseSigned_acceptsALeadingSign_andRoundTripsThroughItsType() {
        assertEquals(Duration.ofMillis(-250), Durations.parseSigned("d", "-250ms", java.time.temporal.ChronoUnit.SECONDS));
        assertEquals(Duration.ofSeconds(-2), Durations.parseSigned("d", " -2", java.time.temporal.ChronoUnit.SECONDS));
        assertEquals(Duration.ofMinutes(1), Durations.parseSigned("d", "+1m", java.time.temporal.ChronoUnit.SECONDS));
        ValueType<Duration> type = ValueTypes.signedDuration(java.time.temporal.ChronoUnit.SECONDS);
        for (Duration d : new Duration[] {Duration.ofMillis(-250), Duration.ofSeconds(-90), Duration.ZERO,
                Duration.ofHours(2)}) {
            assertEquals(d, type.parse("d", type.format(d)));
        }
        assertThrows(IllegalArgumentException.class, () -> Durations.parseSigned("d", "--5s",
                java.time.temporal.ChronoUnit.SECONDS));
    }
}

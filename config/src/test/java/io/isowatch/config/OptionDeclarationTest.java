package io.isowatch.config;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OptionDeclarationTest {

    private static final OptionDeclaration<Duration> LINGER = OptionDeclaration
            .key("linger", ValueTypes.duration(ChronoUnit.SECONDS)).defaultValue(Duration.ofMillis(1500))
            .flagType(ValueTypes.duration(ChronoUnit.MILLIS))
            .doc("how long to linger").flags(List.of("-l", "--linger"), "run", "demo")
            .commandDefault("demo", Duration.ZERO, "the demo ends at once").job().alias("wait").build();

    @Test
    void defaults_areWrittenWithTheirUnit_andPerCommand() {
        assertEquals("1500ms", LINGER.defaultText());
        assertEquals("1500ms", LINGER.defaultText("run"));
        assertEquals("0ms", LINGER.defaultText("demo"));
        assertEquals("--linger", LINGER.flagName());
    }

    @Test
    void aBareNumber_isReadInTheUnitOfItsSurface() {
        assertEquals(Duration.ofSeconds(2), LINGER.parse("linger", "2"));
        assertEquals(Duration.ofMillis(2), LINGER.parseFlag("--linger", "2"));
        assertEquals(Duration.ofSeconds(2), LINGER.parseFlag("--linger", "2s"));
        assertTrue(Durations.isBareNumber(" 2 ") && !Durations.isBareNumber("2s"));
    }

    @Test
    void aFormerName_stillReads_butNotBesideTheNewOne() {
        assertEquals(Map.of("linger", "3s"), OptionDeclaration.resolveAliases(Map.of("wait", "3s"), List.of(LINGER)));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> OptionDeclaration.resolveAliases(Map.of("wait", "3s", "linger", "1s"), List.of(LINGER)));
        assertTrue(e.getMessage().contains("former name wait"), e.getMessage());
    }

    @Test
    void tables_showTypeUnitDefaultAndTheCommandThatDiffers() {
        String job = OptionTables.jobTable(List.of(LINGER));
        assertTrue(job.contains("| `linger` (formerly `wait`) | duration (bare number: seconds) | `1500ms` |"), job);
        String flags = OptionTables.flagTable(List.of(LINGER), List.of("run", "demo"));
        assertTrue(flags.contains("| `-l`, `--linger` (formerly `--wait`) | duration (bare number: milliseconds) | "
                + "`1500ms` (demo: `0`, the demo ends at once) |"), flags);
    }

    @Test
    void aDeclaration_needsADoc_andADefaultOnlyForItsOwnCommands() {
        assertThrows(IllegalArgumentException.class,
                () -> OptionDeclaration.key("x", ValueTypes.bool()).build());
        assertThrows(IllegalArgumentException.class, () -> OptionDeclaration.key("x", ValueTypes.bool()).doc("x")
                .flags(List.of("--x"), "run").commandDefault("demo", true, "why").build());
        assertThrows(IllegalArgumentException.class,
                () -> OptionDeclaration.key("Not_Kebab", ValueTypes.bool()).doc("x").build());
    }
}

package io.isowatch.cli;

import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The demo's console stays up after the run in a terminal, until Enter; a script or CI never waits on it. */
class DemoLingerTest {

    @Test
    void auto_isUntilEnterInATerminal_andNoneOtherwise() {
        assertEquals(DemoCommand.UNTIL_ENTER, DemoCommand.linger(DemoCommand.AUTO_LINGER, true));
        assertEquals(Duration.ZERO, DemoCommand.linger(DemoCommand.AUTO_LINGER, false));
    }

    @Test
    void aGivenDuration_holdsEitherWay_andABadOneNamesTheFlag() {
        assertEquals(Duration.ofMinutes(10), DemoCommand.linger("10m", true));
        assertEquals(Duration.ofMinutes(10), DemoCommand.linger("10m", false));
        assertEquals(Duration.ZERO, DemoCommand.linger("0", true));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> DemoCommand.linger("soon", false));
        assertTrue(e.getMessage().contains("--ui-linger"), e.getMessage());
    }
}

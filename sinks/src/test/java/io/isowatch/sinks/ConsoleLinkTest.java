package io.isowatch.sinks;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

class ConsoleLinkTest {

    @Test
    void finding_appendsThePathAndTheEncodedId_toTheBaseWithoutItsTrailingSlash() {
        ConsoleLink link = new ConsoleLink("https://isowatch.example.com/console/");
        assertEquals("https://isowatch.example.com/console", link.base());
        assertEquals("https://isowatch.example.com/console/findings/3f2a", link.finding("3f2a"));
        // Ids are hex, but one read from a foreign alert must not change the path it lands on.
        assertEquals("https://isowatch.example.com/console/findings/a%2F..%2Fb%20c%3Fd", link.finding("a/../b c?d"));
    }

    @Test
    void ofNullable_emptyMeansNoConsole() {
        assertNull(ConsoleLink.ofNullable(""));
        assertNull(ConsoleLink.ofNullable("  "));
        assertEquals("http://127.0.0.1:8642", ConsoleLink.ofNullable(" http://127.0.0.1:8642 ").base());
    }

    @Test
    void constructor_rejectsWhatIsNoHttpBase() {
        assertThrows(IllegalArgumentException.class, () -> new ConsoleLink("ftp://host/"));
        assertThrows(IllegalArgumentException.class, () -> new ConsoleLink("javascript:alert(1)"));
        assertThrows(IllegalArgumentException.class, () -> new ConsoleLink("http://host/?q=1"));
        assertThrows(IllegalArgumentException.class, () -> new ConsoleLink("no url at all"));
    }
}

package io.isowatch.ui.server;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

class HostCheckTest {

    @Test
    void loopbackBound_allowsLoopbackNamesOnly() throws Exception {
        HostCheck check = new HostCheck(InetAddress.getByName("127.0.0.1"));
        for (String ok : new String[] {"localhost", "localhost:8642", "127.0.0.1:1", "127.1.2.3", "[::1]:8642", "LOCALHOST"}) {
            assertTrue(check.allows(ok), ok);
        }
        for (String bad : new String[] {"evil.example", "localhost.evil.example", "127.0.0.1.evil.example", "[::2]", "10.0.0.1"}) {
            assertFalse(check.allows(bad), bad);
        }
    }

    @Test
    void boundElsewhere_allowsAnyName() throws Exception {
        assertTrue(new HostCheck(InetAddress.getByName("0.0.0.0")).allows("isowatch.example.com"));
    }
}

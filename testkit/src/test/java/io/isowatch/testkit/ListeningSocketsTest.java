package io.isowatch.testkit;

import org.junit.jupiter.api.Test;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The kernel's list of this process's listening sockets, as the network-exposure tests read it. */
class ListeningSocketsTest {

    @Test
    void parse_readsIpv4AsProcWritesIt() {
        ListeningSockets.Listener l = ListeningSockets.parse("0100007F:1F90");
        assertEquals("127.0.0.1:8080", l.toString());
        assertTrue(l.loopback());
        assertFalse(ListeningSockets.parse("00000000:0050").loopback(), "0.0.0.0 is every interface");
    }

    @Test
    void parse_readsIpv6AndMappedIpv4() {
        assertEquals("[0:0:0:0:0:0:0:1]:9092", ListeningSockets.parse("00000000000000000000000001000000:2384").toString());
        assertTrue(ListeningSockets.parse("00000000000000000000000001000000:2384").loopback());
        assertFalse(ListeningSockets.parse("00000000000000000000000000000000:2384").loopback(), ":: is every interface");
        assertTrue(ListeningSockets.parse("0000000000000000FFFF00000100007F:21C2").loopback(), "::ffff:127.0.0.1");
    }

    @Test
    void ofThisProcess_seesAWildcardAndALoopbackListenerWithTheirAddresses() throws Exception {
        try (ServerSocket wildcard = new ServerSocket(0);
             ServerSocket loopback = new ServerSocket()) {
            loopback.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            Set<ListeningSockets.Listener> listeners = ListeningSockets.ofThisProcess();
            ListeningSockets.Listener open = find(listeners, wildcard.getLocalPort());
            assertTrue(open.address().isAnyLocalAddress(), "ServerSocket(0) binds every interface: " + open);
            assertFalse(open.loopback());
            assertTrue(find(listeners, loopback.getLocalPort()).loopback(), listeners.toString());
        }
    }

    @Test
    void ofThisProcess_forgetsAClosedListener() throws Exception {
        int port;
        try (ServerSocket s = new ServerSocket(0)) {
            port = s.getLocalPort();
            find(ListeningSockets.ofThisProcess(), port);
        }
        assertTrue(ListeningSockets.ofThisProcess().stream().noneMatch(l -> l.port() == port));
    }

    @Test
    void watch_recordsAListenerThatCameAndWent() throws Exception {
        int port;
        try (ListeningSockets.Watch watch = ListeningSockets.watch()) {
            try (ServerSocket s = new ServerSocket()) {
                s.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
                port = s.getLocalPort();
                Thread.sleep(100);
            }
            Thread.sleep(100);
            assertEquals(Set.of(new ListeningSockets.Listener(InetAddress.getLoopbackAddress(), port)), watch.opened());
        }
    }

    private static ListeningSockets.Listener find(Set<ListeningSockets.Listener> listeners, int port) {
        return listeners.stream().filter(l -> l.port() == port).findFirst()
                .orElseThrow(() -> new AssertionError("no listener on port " + port + " among " + listeners));
    }
}

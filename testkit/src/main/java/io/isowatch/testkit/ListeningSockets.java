package io.isowatch.testkit;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.ByteOrder;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The TCP sockets this JVM listens on, as the kernel reports them: {@code /proc/net/tcp} and
 * {@code /proc/net/tcp6} rows in state LISTEN ({@code 0A}) whose inode is one of this process's
 * file descriptors ({@code /proc/self/fd/N -> socket:[inode]}). Reading the kernel's table rather
 * than asking each component where it bound catches the sockets nobody configured: a test
 * harness's pre-bound port, a reporter's HTTP server. Linux only.
 */
public final class ListeningSockets {

    private static final String LISTEN = "0A";

    /** One listening socket: the local address it is bound to, and its port. */
    public record Listener(InetAddress address, int port) {

        /** Whether only this machine can connect: 127.0.0.0/8 or ::1 (also as ::ffff:127.x.y.z). */
        public boolean loopback() {
            return address.isLoopbackAddress();
        }

        @Override
        public String toString() {
            String host = address.getHostAddress();
            return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
        }
    }

    private ListeningSockets() {
    }

    /**
     * Starts recording every socket this process opens for listening from now on, looking every
     * 20 ms until closed: for commands whose ports live only while they run.
     */
    public static Watch watch() {
        return new Watch();
    }

    /** The listeners opened since {@link #watch()}; see {@link #opened()}. */
    public static final class Watch implements AutoCloseable {

        private final Set<Listener> before = ofThisProcess();
        private final Set<Listener> opened = ConcurrentHashMap.newKeySet();
        private final Thread poller = new Thread(this::poll, "listening-sockets-watch");
        private volatile boolean closed;

        private Watch() {
            poller.setDaemon(true);
            poller.start();
        }

        private void poll() {
            while (!closed) {
                look();
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        private void look() {
            for (Listener l : ofThisProcess()) {
                if (!before.contains(l)) {
                    opened.add(l);
                }
            }
        }

        /** Every listener seen since the watch began that was not there before, closed or not. */
        public Set<Listener> opened() {
            look();
            return Set.copyOf(opened);
        }

        /** Stops looking. */
        @Override
        public void close() throws InterruptedException {
            closed = true;
            poller.join();
        }
    }

    /**
     * The sockets this process listens on right now, IPv4 and IPv6.
     *
     * @throws IllegalStateException where {@code /proc/net/tcp} does not exist (not Linux)
     */
    public static Set<Listener> ofThisProcess() {
        Path proc = Path.of("/proc");
        if (!Files.isReadable(proc.resolve("net/tcp"))) {
            throw new IllegalStateException("cannot read /proc/net/tcp: listing listening sockets needs Linux's /proc");
        }
        Set<Long> inodes = socketInodes(proc.resolve("self/fd"));
        Set<Listener> listeners = new LinkedHashSet<>();
        listeners.addAll(listeners(proc.resolve("net/tcp"), inodes));
        listeners.addAll(listeners(proc.resolve("net/tcp6"), inodes));
        return listeners;
    }

    /** The inodes of the sockets among this process's file descriptors. */
    private static Set<Long> socketInodes(Path fds) {
        Set<Long> inodes = new HashSet<>();
        try (DirectoryStream<Path> entries = Files.newDirectoryStream(fds)) {
            for (Path fd : entries) {
                String target;
                try {
                    target = Files.readSymbolicLink(fd).toString();
                } catch (IOException closedMeanwhile) {
                    continue;
                }
                if (target.startsWith("socket:[") && target.endsWith("]")) {
                    inodes.add(Long.parseLong(target.substring("socket:[".length(), target.length() - 1)));
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + fds + ": " + e.getMessage(), e);
        }
        return inodes;
    }

    /** Rows of one /proc/net table in state LISTEN whose inode is one of {@code inodes}. */
    private static List<Listener> listeners(Path table, Set<Long> inodes) {
        if (!Files.exists(table)) {
            return List.of(); // a kernel without IPv6
        }
        List<String> lines;
        try {
            lines = Files.readAllLines(table);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + table + ": " + e.getMessage(), e);
        }
        return lines.stream().skip(1).map(String::trim).map(l -> l.split("\\s+"))
                // sl local rem st queues timer retransmits uid timeout inode ...
                .filter(f -> f.length > 9 && LISTEN.equals(f[3]) && inodes.contains(Long.parseLong(f[9])))
                .map(f -> parse(f[1]))
                .toList();
    }

    /**
     * Reads {@code ADDRESS:PORT} as /proc writes it: the address in hex, each 32-bit word in the
     * host's byte order (little-endian on x86 and arm64), the port in hex, big-endian.
     */
    static Listener parse(String local) {
        boolean littleEndian = ByteOrder.nativeOrder() == ByteOrder.LITTLE_ENDIAN;
        int colon = local.indexOf(':');
        String hex = local.substring(0, colon);
        byte[] address = new byte[hex.length() / 2];
        for (int word = 0; word < address.length / 4; word++) {
            for (int b = 0; b < 4; b++) {
                int at = (word * 4 + (littleEndian ? 3 - b : b)) * 2;
                address[word * 4 + b] = (byte) Integer.parseInt(hex.substring(at, at + 2), 16);
            }
        }
        try {
            return new Listener(InetAddress.getByAddress(address), Integer.parseInt(local.substring(colon + 1), 16));
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException("not an address in /proc/net/tcp: " + local, e);
        }
    }
}

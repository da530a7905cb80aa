package io.isowatch.ui.server;

import java.net.InetAddress;
import java.util.Locale;

/**
 * Refuses requests whose {@code Host} is no loopback name while the console listens on a
 * loopback address only.
 *
 * <p>A console bound to 127.0.0.1 is meant for this machine's browser; without this check a web
 * page elsewhere could point a DNS name of its own at 127.0.0.1 ("DNS rebinding") and read the
 * findings through the victim's browser. A console bound to another address (in a cluster, behind
 * a Service or an ingress) is reached under names this cannot know, and accepts any.
 */
final class HostCheck {

    private final boolean loopbackOnly;

    HostCheck(InetAddress bound) {
        this.loopbackOnly = bound.isLoopbackAddress();
    }

    /** Whether a request with this {@code Host} header (null when absent) may be answered. */
    boolean allows(String hostHeader) {
        if (!loopbackOnly || hostHeader == null) {
            return true;
        }
        String host = hostHeader.trim().toLowerCase(Locale.ROOT);
        if (host.startsWith("[")) {
            int end = host.indexOf(']');
            return end > 0 && host.substring(1, end).equals("::1");
        }
        int colon = host.indexOf(':');
        if (colon >= 0) {
            host = host.substring(0, colon);
        }
        return host.equals("localhost") || host.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
    }
}

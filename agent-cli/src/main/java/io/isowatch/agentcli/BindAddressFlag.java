package io.isowatch.agentcli;

import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * {@code --bind-address}: the one address every port a command opens listens on, shared by
 * {@code agent run}, {@code demo} and {@code job} (a picocli mixin). The default is 127.0.0.1:
 * a port reachable from the network lets anyone forge history events (Kafka), cancel the checker
 * (Flink's REST API) or read what is tested (metrics). The findings console has its own
 * {@code --ui-bind} ({@link ConsoleFlags}).
 */
public final class BindAddressFlag {

    public static final String DEFAULT = "127.0.0.1";

    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--bind-address", descriptionKey = "bind-address", paramLabel = "ADDRESS")
    String value;

    /** The address asked for; an unknown host name is a usage error naming the flag. */
    public InetAddress address() {
        try {
            return InetAddress.getByName(value);
        } catch (UnknownHostException e) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--bind-address: unknown address " + value + "; give an IP address such as " + DEFAULT);
        }
    }

    /**
     * The address as the host of a URL for a browser on this machine: the bound address (IPv6 in
     * brackets), or 127.0.0.1 when bound to every interface, as the console's link says.
     */
    public String urlHost() {
        return urlHost(address());
    }

    /** {@link #urlHost()} of any address. */
    public static String urlHost(InetAddress a) {
        if (a.isAnyLocalAddress()) {
            return DEFAULT;
        }
        return a instanceof Inet6Address ? "[" + a.getHostAddress() + "]" : a.getHostAddress();
    }
}

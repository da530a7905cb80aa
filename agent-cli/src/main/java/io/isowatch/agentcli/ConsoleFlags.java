package io.isowatch.agentcli;

import io.isowatch.ui.FindingStore;
import io.isowatch.ui.server.ConsoleServer;
import picocli.CommandLine;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.UnknownHostException;

/**
 * Where the findings console listens, shared by {@code ui} and {@code demo} (a picocli mixin):
 * {@code --ui-bind} and {@code --ui-port}.
 *
 * <p>Without {@code --ui-port} the console takes {@value #DEFAULT_PORT}, a port to bookmark, and
 * when another program (or a second demo) holds it, any free port instead, saying so: a demo
 * must not fail for want of a port. A port given explicitly is taken or the start fails.
 */
public final class ConsoleFlags {

    static final int DEFAULT_PORT = 8642;

    @CommandLine.Spec(CommandLine.Spec.Target.MIXEE)
    CommandLine.Model.CommandSpec spec;

    @Option(names = "--ui-bind", descriptionKey = "ui-bind", paramLabel = "ADDRESS")
    String bind;

    @Option(names = "--ui-port", descriptionKey = "ui-port", paramLabel = "PORT")
    Integer port;

    /** Whether {@code --ui-port 0} was given. */
    public boolean portZero() {
        return port != null && port == 0;
    }

    /** Starts the console on the flags' address, serving {@code store}. */
    public ConsoleServer start(FindingStore store, PrintWriter err) {
        InetAddress address;
        try {
            address = InetAddress.getByName(bind);
        } catch (UnknownHostException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--ui-bind: unknown address " + bind);
        }
        if (port != null) {
            if (port < 0 || port > 65535) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--ui-port must lie in 0..65535, got " + port);
            }
            try {
                return ConsoleServer.start(address, port, store);
            } catch (UncheckedIOException e) {
                throw new CommandLine.ParameterException(spec.commandLine(), "--ui-port: " + e.getMessage());
            }
        }
        try {
            return ConsoleServer.start(address, DEFAULT_PORT, store);
        } catch (UncheckedIOException taken) {
            ConsoleServer any = ConsoleServer.start(address, 0, store);
            err.println("isowatch: port " + DEFAULT_PORT + " is taken; the findings console uses port " + any.port()
                    + " instead (--ui-port chooses)");
            err.flush();
            return any;
        }
    }
}

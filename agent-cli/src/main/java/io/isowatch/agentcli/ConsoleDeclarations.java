package io.isowatch.agentcli;

import io.isowatch.config.OptionDeclaration;
import io.isowatch.config.Topics;
import io.isowatch.config.ValueTypes;

import java.util.List;

/**
 * The findings console's flags, declared once (decision 0018): {@code ui}'s, and where the
 * console listens for {@code ui} and {@code demo} ({@link ConsoleFlags}).
 */
public final class ConsoleDeclarations {

    private static final String UI = "ui";
    private static final String DEMO = "demo";

    public static final OptionDeclaration<String> ALERTS_FILE = OptionDeclaration
            .key("alerts-file", ValueTypes.text("file"))
            .doc("follow this alerts file (JSON lines, as `demo --alerts-file` and `JsonLinesAlertSink` write it) "
                    + "from its first line as it grows; it may not exist yet; a file that shrinks is read again from "
                    + "its start")
            .flags(List.of("--alerts-file"), UI).build();

    public static final OptionDeclaration<String> BOOTSTRAP_SERVERS = OptionDeclaration
            .key("bootstrap-servers", ValueTypes.text("host:port,..."))
            .doc("follow the alerts topic on these Kafka brokers, every partition from its beginning, without a "
                    + "consumer group or committed offsets")
            .flags(List.of("--bootstrap-servers"), UI).build();

    public static final OptionDeclaration<String> ALERTS_TOPIC = OptionDeclaration
            .key("alerts-topic", ValueTypes.text("Kafka topic")).defaultValue(Topics.ALERTS)
            .doc("the alerts topic (the job's `alerts-topic` default)")
            .flags(List.of("--alerts-topic"), UI).build();

    public static final OptionDeclaration<Integer> MAX_FINDINGS = OptionDeclaration
            .key("max-findings", ValueTypes.integer(1, Integer.MAX_VALUE)).defaultValue(10_000)
            .doc("findings kept in memory, newest; older ones are forgotten (`/api/overview`'s counts per type "
                    + "still include them)")
            .flags(List.of("--max-findings"), UI).build();

    public static final OptionDeclaration<String> UI_BIND = OptionDeclaration
            .key("ui-bind", ValueTypes.text("address")).defaultValue("127.0.0.1")
            .doc("address the findings console listens on; bound to a loopback address it answers only requests "
                    + "for `localhost`/`127.x.x.x`/`[::1]` (DNS rebinding); `0.0.0.0` serves every interface and any "
                    + "host name")
            .flags(List.of("--ui-bind"), UI, DEMO).build();

    /** No default: without the flag the console tries its port and takes any free one when it is taken. */
    public static final OptionDeclaration<Integer> UI_PORT = OptionDeclaration
            .key("ui-port", ValueTypes.integer(0, 65535)).noDefault(ConsoleFlags.DEFAULT_PORT + ", or any free port when taken")
            .doc("port of the findings console; `0` for any free port (`demo`: `0` turns the console off); a port "
                    + "given and taken is an error")
            .flags(List.of("--ui-port"), UI, DEMO).build();

    public static final OptionDeclaration<String> UI_LINGER = OptionDeclaration
            .key("ui-linger", ValueTypes.text("auto or a duration (bare number: seconds)")).defaultValue("auto")
            .doc("keep the console up this long after the run (e.g. `10m`, or `0`); Enter (in a terminal) or Ctrl-C "
                    + "ends it sooner. `auto`: in a terminal until you press Enter, otherwise (a script, CI) not at all")
            .flags(List.of("--ui-linger"), DEMO).build();

    /** The console's flags, in the docs' order. */
    public static final List<OptionDeclaration<?>> ALL = List.of(ALERTS_FILE, BOOTSTRAP_SERVERS, ALERTS_TOPIC,
            MAX_FINDINGS, UI_BIND, UI_PORT, UI_LINGER);

    private ConsoleDeclarations() {
    }
}

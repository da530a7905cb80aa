package io.isowatch.cli;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The launcher builds only the subcommand its arguments name, and every one otherwise. */
class MainTest {

    private static final List<String> ALL = List.of("check", "replay", "gen", "demo", "ui", "agent", "job", "help");

    @Test
    void namedSubcommand_isBuiltAloneBesideHelp() {
        assertEquals(List.of("check", "help"), subcommands("check", "-q", "h.jsonl"));
        assertEquals(List.of("agent", "help"), subcommands("agent", "run", "--help"));
    }

    @Test
    void noSubcommandHelpOrATypo_buildsEveryOne() {
        assertEquals(ALL, subcommands());
        assertEquals(ALL, subcommands("help", "check"));
        assertEquals(ALL, subcommands("chek"));
        assertEquals(ALL, subcommands("--version"));
    }

    @Test
    void usage_listsEveryCommand() {
        CheckCommandTest.Run r = CheckCommandTest.run();
        for (String name : ALL) {
            assertTrue(r.out().contains("\n  " + name + " "), name + " missing: " + r.out());
        }
    }

    private static List<String> subcommands(String... args) {
        return List.copyOf(Main.commandLine(args).getSubcommands().keySet());
    }
}

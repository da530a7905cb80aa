package io.isowatch.cli;

import io.isowatch.testing.Golden;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * Check's text output rebuilt from check's JSON output, for every golden history, with no titles
 * from alerts: the renderer replay uses must give the very text check gives.
 */
class VerdictJsonTextTest {

    static List<Golden.Case> cases() {
        return Golden.cases();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("cases")
    void render_fromChecksJson_equalsChecksText(Golden.Case c) {
        List<String> args = new ArrayList<>(List.of("check", "-q", "--max-shown", "3"));
        args.addAll(GoldenArgs.of(c));
        args.add(c.history().toString());
        CheckCommandTest.Run text = CheckCommandTest.run(args.toArray(String[]::new));
        args.add(2, "--format");
        args.add(3, "json");
        CheckCommandTest.Run json = CheckCommandTest.run(args.toArray(String[]::new));
        assertEquals(text.code(), json.code(), text.err());

        String verdict = "{" + json.out().trim().substring(json.out().indexOf(",\"valid\"") + 1);
        String[] lines = text.out().split("\n", -1);
        String expected = String.join("\n", List.of(lines).subList(1, lines.length - 2)) + "\n";
        VerdictJsonText v = VerdictJsonText.parse(verdict, key -> null);
        assertEquals(lines[0], c.history() + "\t" + v.validName());
        if (!"true".equals(v.validName())) {
            assertEquals(expected, v.render(3) + "\n");
        }
    }
}

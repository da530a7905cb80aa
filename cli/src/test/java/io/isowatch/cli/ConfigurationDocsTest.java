package io.isowatch.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * docs/configuration.md's tables of options are what the declarations render. Run with
 * {@code -Disowatch.regenerate-docs=true} to rewrite them ({@link ConfigurationDocs#REGENERATE}).
 */
class ConfigurationDocsTest {

    @Test
    void tables_matchTheDeclarations() throws IOException {
        if (Boolean.getBoolean("isowatch.regenerate-docs")) {
            ConfigurationDocs.main(new String[0]);
        }
        Map<String, String> expected = ConfigurationDocs.tables();
        Map<String, String> found = ConfigurationDocs.regions(Files.readString(ConfigurationDocs.FILE));
        assertEquals(expected.keySet(), found.keySet(), "docs/configuration.md's generated regions");
        expected.forEach((name, table) -> assertEquals(table, found.get(name),
                "docs/configuration.md's table '" + name + "' differs from the option declarations; "
                        + "regenerate it with: " + ConfigurationDocs.REGENERATE));
    }
}

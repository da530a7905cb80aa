package io.isowatch.helm;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.marcnuri.helm.LintResult;
import io.isowatch.helm.Charts.ValueSet;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** {@code helm lint --strict}: with the defaults, and with each CI value set laid over them. */
class HelmLintTest {

    @Test
    void lintStrict_defaultValues_passes() {
        LintResult result = Charts.lintStrict(Charts.chartDir());
        assertFalse(result.isFailed(), () -> String.join("\n", result.getMessages()));
    }

    @ParameterizedTest
    @EnumSource(value = ValueSet.class, names = {"MINIMAL", "FULL", "FLEET"})
    void lintStrict_ciValueSet_passes(ValueSet set, @TempDir Path tmp) {
        LintResult result = Charts.lintStrict(Charts.chartWithValues(set, tmp));
        assertFalse(result.isFailed(), () -> set + ":\n" + String.join("\n", result.getMessages()));
    }

    /** Guards the lint itself: a chart whose template cannot render must fail it. */
    @Test
    void lintStrict_brokenTemplate_fails(@TempDir Path tmp) throws Exception {
        Path chart = Charts.chartWithValues(ValueSet.FULL, tmp);
        Files.writeString(chart.resolve("templates/broken.yaml"), "{{ .Values.job.nosuch.field }}\n");
        LintResult result = Charts.lintStrict(chart);
        assertTrue(result.isFailed(), () -> String.join("\n", result.getMessages()));
    }
}

package io.isowatch.checker;

import io.isowatch.anomaly.ConsistencyModel;
import org.junit.jupiter.api.Test;

import java.util.Map;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class CheckerOptionsReaderTest {

    private static CheckerOptions read(Map<String, String> raw) {
        return CheckerOptionsReader.read(raw, key -> "<" + key + ">");
    }

    private static String refusal(Map<String, String> raw) {
        return assertThrows(IllegalArgumentException.class, () -> read(raw)).getMessage();
    }

    @Test
    void defaults_areCheckerOptionsDefaults() {
        assertEquals(CheckerOptions.defaults(), read(Map.of()));
    }

    @Test
    void everyKey_isRead_andWriteRoundTrips() {
        CheckerOptions o = read(Map.of("consistency-models", " serializable , PL-2 ", "anomalies", "G1a",
                "workload", "rw-register", "reorder-window", "16", "cycle-search-budget", "77",
                "cycle-search-timeout", "1500ms", "sequential-keys", "true"));
        assertEquals(Set.of(ConsistencyModel.of("serializable"), ConsistencyModel.of("PL-2")), o.consistencyModels());
        assertEquals(Set.of("G1a"), o.anomalies());
        assertEquals(Workload.RW_REGISTER, o.workload());
        assertEquals(16, o.reorderWindow());
        assertEquals(77, o.cycleSearchBudget());
        assertEquals(1500, o.cycleSearchTimeoutMillis());
        assertEquals(new RegisterOptions(false, true, false), o.registerOptions());
        assertEquals(o, read(CheckerOptionsReader.write(o)));
        assertEquals(Set.of(), read(Map.of("consistency-models", "none", "anomalies", "G0")).consistencyModels());
    }

    @Test
    void badValues_areRefused_namingTheOptionAndValue() {
        assertTrue(refusal(Map.of("workload", "bank")).startsWith("<workload>: unknown workload \"bank\""));
        assertTrue(refusal(Map.of("consistency-models", "serialisable")).startsWith("<consistency-models>: "));
        assertTrue(refusal(Map.of("consistency-models", "strict-serializable,bogus"))
                .startsWith("<consistency-models>: unknown consistency model \"bogus\"; known models"));
        assertTrue(refusal(Map.of("anomalies", "G9")).startsWith("<anomalies>: "));
        assertTrue(refusal(Map.of("reorder-window", "-1")).contains("<reorder-window>: expected a whole number"));
        assertTrue(refusal(Map.of("cycle-search-budget", "0")).contains("got \"0\""));
        assertTrue(refusal(Map.of("cycle-search-timeout", "soon")).startsWith("<cycle-search-timeout>: cannot read"));
        assertTrue(refusal(Map.of("wfr-keys", "yes")).startsWith("<wfr-keys>: expected true or false"));
        assertTrue(refusal(Map.of("linearizable-keys", "true")).contains("apply to the rw-register workload only"));
    }
}

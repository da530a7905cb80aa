package io.isowatch.cli;

import io.isowatch.testing.Golden;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** The check options a golden history's expected verdict was computed with, as command-line flags. */
final class GoldenArgs {

    private GoldenArgs() {
    }

    @SuppressWarnings("unchecked")
    static List<String> of(Golden.Case c) {
        List<String> args = new ArrayList<>();
        List<String> models = c.strings("consistency-models");
        args.add("-c");
        args.add(models == null || models.isEmpty() ? "none" : String.join(",", models));
        List<String> anomalies = c.strings("anomalies");
        if (anomalies != null && !anomalies.isEmpty()) {
            args.add("-a");
            args.add(String.join(",", anomalies));
        }
        if ("rw-register".equals(c.expected().get("workload"))) {
            args.add("-m");
            args.add("rw-register");
            Map<String, Object> r = (Map<String, Object>) c.expected().getOrDefault("register-options", Map.of());
            for (String flag : List.of("wfr-keys", "sequential-keys", "linearizable-keys")) {
                if (Boolean.TRUE.equals(r.get(flag))) {
                    args.add("--" + flag);
                }
            }
        }
        return args;
    }
}

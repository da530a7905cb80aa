package io.isowatch.anomaly;

import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * The indexes {@link ConsistencyModels} answers from, derived once from {@link LatticeData}.
 *
 * <p>Every field is immutable. Model graph and prohibition tables use canonical model names only,
 * as Elle's do after {@code canonical-model-name}.
 *
 * @param canonical      every known model name (alias or canonical) to its canonical name
 * @param friendly       every canonical model name to the name Elle prints for it
 * @param models         model implications over canonical names
 * @param prohibits      canonical model to the anomalies it directly prohibits
 * @param prohibitedBy   anomaly to the canonical models that directly prohibit it
 * @param anomalies      anomaly implications
 * @param depths         Elle's {@code anomaly-depths}: implication plus severity depth, 0 for the
 *                       directly prohibited anomalies that neither graph mentions
 * @param modelNames     Elle's {@code all-models}
 * @param anomalyNames   Elle's {@code all-anomalies}, plus garbage-read and the unknown types
 * @param cycleTypes     every cycle type Elle searches for, variants included
 */
record LatticeTables(
        Map<String, String> canonical,
        Map<String, String> friendly,
        LatticeGraph models,
        Map<String, Set<String>> prohibits,
        Map<String, Set<String>> prohibitedBy,
        LatticeGraph anomalies,
        Map<String, Integer> depths,
        SortedSet<String> modelNames,
        SortedSet<String> anomalyNames,
        Set<String> cycleTypes) {

    /** Builds the tables; throws IllegalStateException if the data is inconsistent. */
    static LatticeTables build() {
        Map<String, String> aliases = LatticeData.CANONICAL_MODEL_NAMES;
        LatticeGraph models = LatticeGraph.of(LatticeData.MODEL_IMPLICATIONS,
                m -> aliases.getOrDefault(m, m));

        SortedSet<String> modelNames = new TreeSet<>(models.vertices());
        modelNames.addAll(aliases.keySet());
        modelNames.addAll(aliases.values());
        Map<String, String> canonical = new HashMap<>();
        modelNames.forEach(m -> canonical.put(m, aliases.getOrDefault(m, m)));

        Map<String, Set<String>> prohibits = new HashMap<>();
        Map<String, Set<String>> prohibitedBy = new HashMap<>();
        LatticeData.DIRECT_PROHIBITIONS.forEach((model, anomalyList) -> {
            String m = canonical.get(model);
            if (m == null) {
                throw new IllegalStateException(LatticeMessages.unknownModel(model, modelNames));
            }
            for (String a : anomalyList) {
                prohibits.computeIfAbsent(m, k -> new HashSet<>()).add(a);
                prohibitedBy.computeIfAbsent(a, k -> new HashSet<>()).add(m);
            }
        });

        LatticeGraph anomalies = LatticeGraph.of(LatticeData.IMPLIED_ANOMALIES, a -> a);
        LatticeGraph severity = LatticeGraph.of(LatticeData.SEVERITY, a -> a);
        Map<String, Integer> depths = new HashMap<>(anomalies.union(severity).depths());
        prohibitedBy.keySet().forEach(a -> depths.putIfAbsent(a, 0));

        SortedSet<String> anomalyNames = new TreeSet<>(depths.keySet());
        anomalyNames.add(LatticeData.GARBAGE_READ);
        anomalyNames.addAll(LatticeData.UNKNOWN_TYPES);

        return new LatticeTables(Map.copyOf(canonical), friendlyNames(models, aliases), models,
                freeze(prohibits), freeze(prohibitedBy), anomalies, Map.copyOf(depths),
                Collections.unmodifiableSortedSet(modelNames),
                Collections.unmodifiableSortedSet(anomalyNames), elleCycleTypes());
    }

    private static Map<String, String> friendlyNames(LatticeGraph models, Map<String, String> aliases) {
        Map<String, Set<String>> byCanonical = new HashMap<>();
        aliases.forEach((alias, c) -> byCanonical.computeIfAbsent(c, k -> new TreeSet<>()).add(alias));
        Map<String, String> friendly = new HashMap<>();
        models.vertices().forEach(m -> friendly.put(m, m));
        byCanonical.forEach((c, names) -> {
            String chosen = names.size() == 1
                    ? names.iterator().next()
                    : LatticeData.FRIENDLY_TIE_BREAKS.get(c);
            if (chosen == null || !names.contains(chosen)) {
                throw new IllegalStateException(LatticeMessages.ambiguousFriendlyName(c, names));
            }
            friendly.put(c, chosen);
        });
        return Map.copyOf(friendly);
    }

    private static Set<String> elleCycleTypes() {
        Set<String> types = new HashSet<>();
        for (String base : LatticeData.BASE_CYCLE_TYPES) {
            types.addAll(List.of(base, base + LatticeData.PROCESS_SUFFIX, base + LatticeData.REALTIME_SUFFIX));
        }
        return Set.copyOf(types);
    }

    private static Map<String, Set<String>> freeze(Map<String, Set<String>> m) {
        Map<String, Set<String>> copy = new HashMap<>();
        m.forEach((k, v) -> copy.put(k, Set.copyOf(v)));
        return Map.copyOf(copy);
    }
}

package io.isowatch.anomaly;

import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * A consistency model Elle knows, by the name the user gave it, so that an options record cannot
 * hold a model that would only be refused later, when a checker is built from it.
 *
 * <p>The name is checked against {@link ConsistencyModels#modelNames()} when the value is built
 * (by the constructor, and so by Java deserialization too) and kept exactly as given: Elle keeps
 * aliases such as {@code serializable} or {@code PL-3} as written, canonicalising them only to
 * look up the lattice, and alerts and verdict headers print them the same way. Equality and the
 * natural order are by that name, so {@code serializable} and {@code PL-3} are two values with
 * the same {@link #canonical()} name, as they are two entries in Elle's model set.
 *
 * @param name the model's Elle name or alias, as given
 * @see <a href="https://github.com/jepsen-io/elle/blob/main/src/elle/consistency_model.clj">Elle's
 *      elle.consistency-model</a>
 */
public record ConsistencyModel(String name) implements Comparable<ConsistencyModel>, java.io.Serializable {

    /** Elle's default model when none is named. */
    public static final ConsistencyModel STRICT_SERIALIZABLE = new ConsistencyModel("strict-serializable");

    /**
     * Checks the name against Elle's model names, aliases included.
     *
     * @throws IllegalArgumentException when Elle does not know the model (or it is null), naming
     *                                  the value and listing the known names
     */
    public ConsistencyModel {
        ConsistencyModels.canonicalModel(name);
    }

    // Equality by name, written out: a record's generated equals and hashCode are bootstrapped
    // through method handles on first use, which cost a check's start tens of milliseconds when
    // the options put the first model in a set.
    @Override
    public boolean equals(Object other) {
        return other instanceof ConsistencyModel that && that.name.equals(name);
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    /** The model of this name; see the constructor for what it refuses. */
    public static ConsistencyModel of(String name) {
        return new ConsistencyModel(name);
    }

    /**
     * The models of these names, as an immutable set; duplicates collapse.
     *
     * @throws IllegalArgumentException at the first name Elle does not know
     */
    public static Set<ConsistencyModel> ofNames(Collection<String> names) {
        Objects.requireNonNull(names, "names");
        return Set.copyOf(names.stream().map(ConsistencyModel::new).toList());
    }

    /**
     * The names of these models in natural order: the form the lattice queries and the wire
     * formats (alerts, reports, option text) take, in a stable order whatever the set's.
     */
    public static List<String> names(Collection<ConsistencyModel> models) {
        Objects.requireNonNull(models, "models");
        return models.stream().sorted().map(ConsistencyModel::name).toList();
    }

    /** Elle's canonical name, e.g. {@code PL-3} for {@code serializable}. */
    public String canonical() {
        return ConsistencyModels.canonicalModel(name);
    }

    /**
     * The name Elle prints for this model in a boundary, e.g. {@code serializable} for
     * {@code PL-3}; see {@link ConsistencyModels#friendlyModel}.
     */
    public String friendlyName() {
        return ConsistencyModels.friendlyModel(name);
    }

    @Override
    public int compareTo(ConsistencyModel other) {
        return name.compareTo(other.name);
    }

    /** The name as given. */
    @Override
    public String toString() {
        return name;
    }
}

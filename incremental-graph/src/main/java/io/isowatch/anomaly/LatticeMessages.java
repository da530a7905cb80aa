package io.isowatch.anomaly;

import io.isowatch.config.NearestNames;

import java.util.Collection;
import java.util.TreeSet;

/** Message templates for the lattice's exceptions, kept together so their wording stays uniform. */
final class LatticeMessages {

    private LatticeMessages() {
    }

    static String unknownModel(String name, Collection<String> known) {
        String near = NearestNames.didYouMean(name, known);
        return "unknown consistency model \"" + name + "\"" + near + (near.isEmpty()
                ? "; known models (Elle's names) are: " + new TreeSet<>(known)
                : " (isowatch check --help lists every model)");
    }

    static String unknownAnomaly(String name, Collection<String> known) {
        String near = NearestNames.didYouMean(name, known);
        return "unknown anomaly \"" + name + "\"" + near + (near.isEmpty()
                ? "; known anomalies (Elle's names, plus garbage-read) are: " + new TreeSet<>(known)
                : " (docs/anomalies.md lists every anomaly)");
    }

    static String nullName(String what) {
        return "a " + what + " name was null; pass Elle's name as a string, e.g. \"G1c\" or \"serializable\"";
    }

    static String cyclicLattice(Collection<String> vertices) {
        return "lattice data has a cycle among " + new TreeSet<>(vertices)
                + "; Elle's lattices are acyclic, so a row in LatticeData was mistyped";
    }

    static String ambiguousFriendlyName(String canonical, Collection<String> aliases) {
        return "canonical model \"" + canonical + "\" has aliases " + new TreeSet<>(aliases)
                + " but no entry in LatticeData.FRIENDLY_TIE_BREAKS to choose Elle's friendly name";
    }

    static String modelInBothBoundaries(String model) {
        return "model \"" + model + "\" is in both not and alsoNot; a ruled-out model is either"
                + " among the weakest or stronger than one of them, never both";
    }
}

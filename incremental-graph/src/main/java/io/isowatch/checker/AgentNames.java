package io.isowatch.checker;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The ids of a fleet's agents by ordinal, for explanations. A stream job learns agents as they
 * appear, so names come one at a time; an ordinal not named reads {@code agent N}.
 */
final class AgentNames {

    private final List<String> names = new ArrayList<>();

    void name(int agent, String id) {
        if (agent < 0) {
            throw new IllegalArgumentException("agent ordinal must be >= 0, got " + agent);
        }
        Objects.requireNonNull(id, "id");
        while (names.size() <= agent) {
            names.add(null);
        }
        names.set(agent, id);
    }

    String name(int agent) {
        String id = agent < names.size() ? names.get(agent) : null;
        return id != null ? id : "agent " + agent;
    }
}

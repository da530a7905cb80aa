package io.isowatch.agent.recorder;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * One agent's place in a history that several agents record together (issue 37): the history's
 * name and the agent's member number, and the one rule that keeps the members' numbers apart.
 *
 * <p><b>The rule.</b> Member {@code m} (0 to {@value #MAX_MEMBER}) owns the ids
 * {@code m × 10⁹ + n} for {@code n} from 0 to 10⁹ − 1: its process {@code n} is process
 * {@link #process(long) m × 10⁹ + n} of the history, and the {@code n}-th value it writes to a key
 * is the value {@link #value(long) m × 10⁹ + n}. So two members never share a process, and never
 * append the same element to (or write the same value into) the same key, whatever each does on its
 * own: Elle needs both (a process is one thread of the history; an element tells its writer).
 * 10⁹ per member is far beyond what one agent numbers (its processes grow by the client count at
 * each {@code info}; a key takes a few hundred writes before it retires), and the largest id,
 * 999,999,999,999, is printed whole by every tool. Member 0 owns the ids an agent without a
 * history uses, below 10⁹.
 *
 * <p>What this cannot check: that two agents were given different members, nor that string values
 * (which have no numbers) differ. Deployments derive the member from something unique per agent
 * (the chart: the pod's ordinal). Immutable.
 *
 * @param history the history's name: 1 to 100 of letters, digits, {@code .}, {@code _} and
 *                {@code -}, starting with a letter or digit (it names Kafka headers, agent ids
 *                and Kubernetes objects)
 * @param member  this agent's number in the history, 0 to {@value #MAX_MEMBER}
 */
public record HistoryMember(String history, int member) {

    /** The largest member number. */
    public static final int MAX_MEMBER = 999;
    /** The ids each member owns: {@code member × STRIDE} up to, not including, the next member's. */
    public static final long STRIDE = 1_000_000_000L;

    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9][A-Za-z0-9._-]{0,99}");

    public HistoryMember {
        Objects.requireNonNull(history, "history");
        if (!NAME.matcher(history).matches()) {
            throw new IllegalArgumentException("history name '" + history + "': use 1 to 100 letters, digits, '.', '_'"
                    + " or '-', starting with a letter or digit (it becomes a Kafka header and part of agent ids)");
        }
        if (member < 0 || member > MAX_MEMBER) {
            throw new IllegalArgumentException("member " + member + " of history '" + history + "': members are 0 to "
                    + MAX_MEMBER + " (member m owns process ids and written values m × 10^9 to m × 10^9 + 999,999,999);"
                    + " give each agent of the history its own number in that range");
        }
    }

    /**
     * The history's process id of this member's process {@code local}.
     *
     * @throws IllegalArgumentException when {@code local} is outside 0 to 10⁹ − 1
     */
    public long process(long local) {
        return own("process", local);
    }

    /**
     * The value this member writes as its {@code local}-th value of a key (an appended element or
     * a register value).
     *
     * @throws IllegalArgumentException when {@code local} is outside 0 to 10⁹ − 1
     */
    public long value(long local) {
        return own("value", local);
    }

    /** Whether {@code id} (a process id or a written value) is one this member owns. */
    public boolean owns(long id) {
        return id >= 0 && id / STRIDE == member;
    }

    /**
     * The member's own number of {@code id}, which it owns: the inverse of {@link #process} and
     * {@link #value}.
     *
     * @throws IllegalArgumentException when this member does not own {@code id}
     */
    public long local(long id) {
        if (!owns(id)) {
            throw new IllegalArgumentException(id + " is not an id of member " + member + " of history '" + history
                    + "' (" + member * STRIDE + " to " + (member * STRIDE + STRIDE - 1) + ")");
        }
        return id - member * STRIDE;
    }

    private long own(String what, long local) {
        if (local < 0 || local >= STRIDE) {
            throw new IllegalArgumentException("member " + member + " of history '" + history + "' ran out of " + what
                    + " ids: its own number " + local + " is outside 0 to " + (STRIDE - 1));
        }
        return member * STRIDE + local;
    }
}

package io.isowatch.agent.client.jdbc;

import io.isowatch.history.MicroOp;

import java.util.List;
import java.util.Objects;

/**
 * Which server runs each transaction: the nodes of one logical database, as Jepsen runs them,
 * and an optional read target for read-only transactions.
 *
 * <p>Worker {@code w} talks to node {@code w mod n} for the whole run: clients are spread over the
 * nodes round-robin, and a process that replaces another after an {@code info} (same worker)
 * stays on its node. A transaction made only of reads goes to the read target when there is one
 * (a replica, say); every other transaction goes to the worker's node. The first node is the
 * primary: it creates and empties the tables at start.
 *
 * <p>All servers must be reached through one {@link Dialect}: they hold one set of tables of one
 * database, so mixing engines has no meaning. They share the login, the workload and the tables;
 * the read target may run at its own isolation level (a PostgreSQL hot standby refuses
 * SERIALIZABLE).
 *
 * @param nodes    the servers that take writes, at least one; the first is the primary
 * @param readNode the server for read-only transactions, or null to run them on the nodes too
 */
public record JdbcTopology(List<JdbcTarget> nodes, JdbcTarget readNode) {

    public JdbcTopology {
        Objects.requireNonNull(nodes, "nodes");
        if (nodes.isEmpty()) {
            throw new IllegalArgumentException("--target: give at least one JDBC URL");
        }
        nodes = List.copyOf(nodes);
        JdbcTarget primary = nodes.get(0);
        for (JdbcTarget node : nodes) {
            requireSameDatabase("--target", primary, node);
            if (node.isolation() != primary.isolation()) {
                throw new IllegalArgumentException("--target " + node.redactedUrl() + ": every node runs at the first's "
                        + "isolation level, " + primary.isolation().cliName() + ", not " + node.isolation().cliName());
            }
        }
        if (readNode != null) {
            requireSameDatabase("--read-target", primary, readNode);
        }
    }

    /** One server taking every transaction: the topology of a plain {@code --target URL} run. */
    public static JdbcTopology single(JdbcTarget target) {
        return new JdbcTopology(List.of(target), null);
    }

    /**
     * Nodes at {@code urls} and an optional read target at {@code readUrl}, all with
     * {@code template}'s login, level, workload and tables; the read target at {@code readLevel}.
     *
     * @param readUrl   null for no read target
     * @param readLevel the read target's level; null for the template's
     * @throws IllegalArgumentException naming the option and the (redacted) URL at fault
     */
    public static JdbcTopology of(JdbcTarget template, List<String> urls, String readUrl, JdbcIsolation readLevel) {
        List<JdbcTarget> nodes = urls.stream().map(u -> at("--target", template, u)).toList();
        JdbcTarget read = readUrl == null ? null : at("--read-target", template, readUrl)
                .withIsolation(readLevel == null ? template.isolation() : readLevel);
        return new JdbcTopology(nodes, read);
    }

    /** The primary: the first node, where the run creates and empties its tables. */
    public JdbcTarget primary() {
        return nodes.get(0);
    }

    /** The node of worker {@code worker}, for its whole run: round-robin over the nodes. */
    public JdbcTarget node(int worker) {
        return nodes.get(Math.floorMod(worker, nodes.size()));
    }

    /**
     * The server that runs {@code txn} for worker {@code worker}: the read target when there is
     * one and {@code txn} only reads, the worker's node otherwise.
     */
    public JdbcTarget serverFor(int worker, List<MicroOp> txn) {
        return readNode != null && readOnly(txn) ? readNode : node(worker);
    }

    /** True when every micro-op of {@code txn} is a read (an empty transaction writes nothing either). */
    public static boolean readOnly(List<MicroOp> txn) {
        for (MicroOp m : txn) {
            if (!(m instanceof MicroOp.Read)) {
                return false;
            }
        }
        return true;
    }

    private static JdbcTarget at(String option, JdbcTarget template, String url) {
        Objects.requireNonNull(url, option);
        try {
            return template.withUrl(url.trim());
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(option + " " + JdbcTarget.redact(url) + ": " + e.getMessage(), e);
        }
    }

    private static void requireSameDatabase(String option, JdbcTarget primary, JdbcTarget other) {
        if (other.dialect() != primary.dialect()) {
            throw new IllegalArgumentException(option + " " + other.redactedUrl() + " is " + other.dialect().displayName()
                    + " but the first --target " + primary.redactedUrl() + " is " + primary.dialect().displayName()
                    + ": every server of a run must be the same engine (the nodes of one database)");
        }
        if (!other.tablePrefix().equals(primary.tablePrefix()) || other.workload() != primary.workload()
                || !Objects.equals(other.user(), primary.user()) || !Objects.equals(other.password(), primary.password())) {
            throw new IllegalArgumentException(option + " " + other.redactedUrl()
                    + ": every server of a run shares the first --target's login, workload and tables");
        }
    }
}

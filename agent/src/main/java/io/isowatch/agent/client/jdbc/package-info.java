/**
 * JDBC adapters: the workload runner's transactions against PostgreSQL and MariaDB/MySQL.
 *
 * <p>{@link io.isowatch.agent.client.jdbc.JdbcClientFactory#connect} checks the target and
 * prepares two tables, {@code <prefix>_append (k BIGINT PRIMARY KEY, v TEXT)} holding each list
 * as comma-separated elements, and {@code <prefix>_register (k BIGINT PRIMARY KEY, v BIGINT)}.
 * An append is one upsert whose update concatenates inside the database, so the statement is
 * atomic on the row it finds; a read parses the text back into the list. Every transaction runs
 * at the {@link io.isowatch.agent.client.jdbc.JdbcIsolation} of the run.
 *
 * <p>A run may span several servers of one database ({@link io.isowatch.agent.client.jdbc.JdbcTopology}):
 * worker {@code w} talks to node {@code w mod n} for the whole run, as Jepsen pins a process's
 * thread to a node, and transactions that only read may go to a read target, such as a replica.
 *
 * <p>The classification of outcomes is what keeps the checker sound: see
 * {@link io.isowatch.agent.client.jdbc.JdbcClient}. An error before {@code COMMIT} is a
 * {@code fail}; an error from {@code COMMIT} is a {@code fail} only when the server says it
 * rolled back, otherwise {@code info}. Marking an uncertain commit as failed would make the
 * checker report aborted reads that never happened.
 */
package io.isowatch.agent.client.jdbc;

/**
 * The agent's view of a database under test: {@link io.isowatch.agent.client.DatabaseClient}
 * runs one transaction of micro-ops and either returns them completed or throws an exception
 * that classifies the outcome, {@link io.isowatch.agent.client.DefinitelyAbortedException}
 * (recorded as {@code fail}) or {@link io.isowatch.agent.client.IndeterminateException}
 * ({@code info}). Getting that classification right is the adapter's one hard job: calling an
 * uncertain outcome a failure makes the checker report anomalies that did not happen.
 * {@link io.isowatch.agent.client.EmbeddedStoreClient} adapts the embedded store; JDBC adapters
 * (PostgreSQL, MariaDB) implement the same interface.
 */
package io.isowatch.agent.client;

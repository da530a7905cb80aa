/**
 * What the checker proves and what it means: anomaly types, findings, and the lattice that turns
 * anomalies into verdicts about consistency models.
 *
 * <p>{@link io.isowatch.anomaly.AnomalyType} lists every anomaly isowatch reports, under Elle's
 * name: the dependency-graph cycles (G0, G1c, G-single-item, G-nonadjacent-item, G2-item, each
 * with {@code -process} and {@code -realtime} variants) and the non-cycle anomalies found in
 * single reads or traces (G1a, G1b, internal, lost-update, ... and isowatch's own garbage-read).
 * A {@link io.isowatch.anomaly.Finding} is one proven instance, final once emitted, holding the
 * {@link io.isowatch.anomaly.Txn}s involved and, for cycles, the
 * {@link io.isowatch.anomaly.Evidence} behind each edge.
 *
 * <p>{@link io.isowatch.anomaly.ConsistencyModels} holds Elle's lattice as data: which models
 * imply which, which anomalies imply which, and which anomalies each model prohibits directly.
 * From it come the anomaly types a check must report, the order in which cycles are searched, and
 * the {@link io.isowatch.anomaly.Boundary} of models a history rules out. Invariant: for the same
 * options and anomalies, these answers equal Elle's, name for name, so a verdict from isowatch
 * can be compared with one from Elle directly. The lattice tables are immutable and built once.
 * A {@link io.isowatch.anomaly.ConsistencyModel} is one model name the lattice knows, checked when
 * the value is built, so options never carry a model the checker would refuse.
 *
 * <p>References: A. Adya, <i>Weak Consistency: A Generalized Theory and Optimistic
 * Implementations for Distributed Transactions</i>, PhD thesis, MIT, 1999 (the G-classes and the
 * PL levels); K. Kingsbury and P. Alvaro, <i>Elle: Inferring Isolation Anomalies from
 * Experimental Observations</i>, VLDB 2020, and its implementation, jepsen-io/elle
 * ({@code elle.consistency-model}, {@code elle.txn}).
 *
 * @see <a href="https://pmg.csail.mit.edu/papers/adya-phd.pdf">Adya's thesis</a>
 * @see <a href="https://github.com/jepsen-io/elle">Elle</a>
 */
package io.isowatch.anomaly;

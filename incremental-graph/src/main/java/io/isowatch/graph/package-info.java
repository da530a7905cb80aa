/**
 * The dependency graph between transactions (Adya, "Weak Consistency: A Generalized Theory and
 * Optimistic Implementations for Distributed Transactions", MIT 1999): write (ww), read (wr) and
 * anti-dependency (rw) edges, plus the process and realtime orders Elle adds for session and
 * strict models.
 *
 * <p>Only the checker mutates the graph ({@link io.isowatch.graph.MutableDependencyGraph});
 * everyone else reads it through {@link io.isowatch.graph.DependencyGraph}. Edges are stored in
 * primitive pools, except the realtime order, which {@link io.isowatch.graph.RealtimeEdges} keeps
 * implicitly; none carries evidence, which explanations recompute, as Elle's explainers do.
 *
 * <p>For long streams the checker forgets a prefix of the transactions now and then
 * ({@link io.isowatch.graph.MutableDependencyGraph#evictBelow}): the rest are renumbered from 0
 * and keep the edges among themselves, walked in the same order as before.
 */
package io.isowatch.graph;

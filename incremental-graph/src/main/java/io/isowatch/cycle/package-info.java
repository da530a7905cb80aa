/**
 * Incremental cycle detection and classification.
 *
 * <p>{@link io.isowatch.cycle.IncrementalCycleIndex} keeps strongly connected components and a
 * topological order of their condensation as edges arrive (a backward edge that closes no cycle
 * shifts the range between its ends; one that closes a cycle merges, as Pearce–Kelly do).
 * {@link io.isowatch.cycle.CycleSearch} then looks, through the edge that closed a cycle, for
 * each anomaly's shape as {@link io.isowatch.cycle.CycleSpec} describes it (Elle, section 4:
 * G0, G1c, G-single, G-nonadjacent, G2-item, and their process and realtime variants). Invariant:
 * a search that finds nothing proves there is no such cycle through that edge; one that runs out
 * of budget says so, and is never taken for "none". When the checker forgets its oldest
 * transactions, the index is rebuilt to hold exactly the components of the graph that remains
 * (each component they leave keeps the tags of the one it came from), and a search forgets its
 * focus.
 */
package io.isowatch.cycle;

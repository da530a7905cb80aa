/**
 * Per-key version traces: what the reads of a key reveal about the order of its versions, and
 * the ww, wr and rw edges and per-key findings (G1a, G1b, duplicates, incompatible orders, dirty
 * updates, garbage reads) that follow, as Elle's list-append checker infers them.
 *
 * <p>Invariant: every edge and finding a trace reports is final; inferences that later events
 * could change wait until the key settles. Traces of different keys share nothing, so they can be
 * kept in parallel (the stream job keys them by object key).
 */
package io.isowatch.trace;

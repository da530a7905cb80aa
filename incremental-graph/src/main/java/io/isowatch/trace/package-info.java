/**
 * Per-key version traces: what the reads of a key reveal about the order of its versions, and
 * the ww, wr and rw edges and per-key findings (G1a, G1b, duplicates, incompatible orders, dirty
 * updates, garbage reads) that follow, as Elle's list-append checker infers them.
 *
 * <p>Invariant: every edge and finding a trace reports is final; inferences that later events
 * could change wait until the key settles, which is when its owner calls {@code settle}
 * ({@code IncrementalChecker.finish()} settles every key at once, at the end of the history:
 * docs/decisions/0003 and 0009). Traces of different keys share nothing but the listener they
 * report to and, for list-append keys, the pools their lists of waiting readers and frontiers
 * live in (storage only: a trace reaches only its own lists); the checker keeps all of a
 * history's traces in one thread, and so does the stream job (docs/decisions/0005).
 *
 * <p>List-append traces can forget a prefix of the transactions ({@code evictBelow}): ids are
 * renumbered, forgotten readers lose what was still to come, elements of forgotten writers stay
 * in the order as appended by a writer that never completes, and a trace no retained
 * transaction touched is dropped. Forgetting only ever loses edges and findings.
 */
package io.isowatch.trace;

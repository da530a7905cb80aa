/**
 * Reading and writing Jepsen histories: {@link io.isowatch.history.codec.HistoryReader} streams
 * client ops out of JSON lines, a JSON array or EDN, the inputs elle-cli accepts, and
 * {@link io.isowatch.history.codec.JsonLinesWriter} writes them back as JSON lines.
 *
 * <p>Invariants: reading never holds more than a fixed buffer plus the current op, so input
 * size is unbounded; a writer's output read back gives equal ops (same index, time, type,
 * process and micro-ops, with the source line filled in); keys and values become atoms of the
 * caller's {@link io.isowatch.history.AtomTable}, EDN keywords turning into their names as
 * strings. This package checks form only: syntax, missing or ill-typed fields, unknown
 * micro-ops, keys that are neither integers nor strings. Every such fault is a
 * {@link io.isowatch.history.codec.HistoryFormatException} naming the source, line and field.
 * Whether the history makes sense (paired invocations, unique appends) is the checker's
 * business.
 *
 * <p>The op map shape is Jepsen's (see the Elle paper, Kingsbury and Alvaro, VLDB 2020, and
 * {@code jepsen.history}); the reader follows elle-cli in accepting type, function and micro-op
 * names as strings with or without a leading colon.
 */
package io.isowatch.history.codec;

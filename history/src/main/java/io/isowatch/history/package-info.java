/**
 * The history model: Jepsen operations ({@link io.isowatch.history.Op}) made of micro-ops
 * (appends, reads, register writes), with keys and values as 64-bit atoms
 * ({@link io.isowatch.history.AtomTable}) so that the checker works on primitives. The wire
 * formats live in {@code io.isowatch.history.codec}, shared by every writer and reader. A
 * history recorded by several agents becomes one by {@link io.isowatch.history.AgentMerge}'s
 * order, the one rule {@code check} and the stream job share (decision 0021).
 *
 * <p>Semantics follow Jepsen: {@code :fail} means the transaction definitely did not commit,
 * {@code :info} that its outcome is unknown (and its process never invokes again).
 */
package io.isowatch.history;

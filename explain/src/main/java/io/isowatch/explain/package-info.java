/**
 * Turns findings into words and pictures: Elle-style text, JSON shaped like elle-cli's output,
 * and Graphviz DOT and standalone SVG drawings of cycles. A verdict made elsewhere (the stream
 * job's) travels as {@link io.isowatch.explain.VerdictCodec} bytes, which read back whole, so it is
 * rendered by these same renderers rather than re-parsed from its JSON.
 *
 * <p>Everything here is a pure function of a {@link io.isowatch.anomaly.Finding} (or a
 * {@link io.isowatch.checker.Verdict}) and the {@link io.isowatch.history.AtomTable} that names
 * its keys and values. Nothing is cached between calls, so the renderers are safe to call from
 * any thread that owns its arguments.
 *
 * <p>Invariants the renderers keep:
 * <ul>
 *   <li>A cycle's transactions are named T1..Tn in the order of its steps' sources, so the text,
 *       the JSON and the pictures of one cycle use the same names.</li>
 *   <li>Edge sentences follow Elle's wording word for word ({@code elle.core}, {@code
 *       elle.list-append}, {@code elle.rw-register}); the cycle text is what Elle's
 *       {@code render-cycle-explanation} prints for the same cycle.</li>
 *   <li>Ops print as Jepsen EDN the way Elle's {@code pr-str} shows them. Whether a read holds a
 *       list or a register value is not recorded in {@link io.isowatch.history.MicroOp.Read}; a
 *       finding is rendered with register notation when one of its transactions writes a
 *       register ({@code [:w k v]}) and none appends.</li>
 * </ul>
 *
 * <p>References: Kingsbury and Alvaro, "Elle: Inferring Isolation Anomalies from Experimental
 * Observations", PVLDB 14(3), 2021; the colours of the pictures follow Elle's {@code elle.viz}.
 */
package io.isowatch.explain;

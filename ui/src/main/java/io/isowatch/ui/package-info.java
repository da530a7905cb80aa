/**
 * The findings console's model and pages: what a person who got an alert looks at.
 *
 * <p>Everything here starts from an {@link io.isowatch.sinks.Alert}, the job's own alert format,
 * so the live console (reading the alerts file or topic), the demo's console and the static report
 * of {@code isowatch check -o DIR} show the same thing: {@link io.isowatch.ui.AlertLine} reads an
 * alert back from its JSON, {@link io.isowatch.ui.FindingView} adds what a page needs (the models
 * a finding rules out, its transactions), {@link io.isowatch.ui.CycleJson} rebuilds a cycle from
 * the finding's JSON so the core's {@link io.isowatch.explain.CycleSvg} draws it as {@code check}
 * does, and {@link io.isowatch.ui.FindingStore} holds the findings, each id once, bounded.
 *
 * <p>Pages are one plain HTML shell and one script ({@code console.js}) served from the jar's
 * resources, or inlined into the static report ({@link io.isowatch.ui.ConsolePage},
 * {@link io.isowatch.ui.StaticReport}). Values that come from a history never pass through HTML
 * markup built as text: the server and the report hand them to the page as JSON
 * ({@link io.isowatch.ui.ConsoleJson}, which escapes {@code < > & '} and the line separators so
 * the JSON is inert inside a {@code <script>} element), and the script places them as text only.
 * Pictures are the core's escaped SVG, shown through {@code <img>}, where no script can run. A
 * Content-Security-Policy forbids inline scripts on the server and allows only the report's own
 * script (by its hash) in the static file.
 *
 * <p>This package holds no HTTP and no threads: the server lives in {@code io.isowatch.ui.server},
 * the file and topic followers in {@code io.isowatch.ui.intake}.
 */
package io.isowatch.ui;

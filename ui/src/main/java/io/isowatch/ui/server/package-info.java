/**
 * The findings console's web server: the JDK's {@link com.sun.net.httpserver.HttpServer}
 * ({@link io.isowatch.ui.server.ConsoleServer}) answering a fixed set of read-only routes
 * ({@link io.isowatch.ui.server.Routes}) from a {@link io.isowatch.ui.FindingStore}.
 *
 * <p>Invariants: only GET is answered; no part of a request reaches a file path (the page and
 * its two assets are strings from the jar, a finding id is only a key of the store); every page
 * is the same shell, so no request or history value is ever spliced into HTML; every response
 * carries the page policy and the protective headers ({@code Responses}); bound to a loopback
 * address, requests naming another host are refused ({@code HostCheck}, against DNS rebinding).
 * Live updates are Server-Sent Events ({@code EventStream}), a bounded number at once. Decision
 * record: docs/decisions/0008-findings-console.md.
 */
package io.isowatch.ui.server;

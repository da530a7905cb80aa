/** Alerts appended to a JSON-lines file, one {@link io.isowatch.sinks.AlertJson} object a line. */
package io.isowatch.sinks.file;

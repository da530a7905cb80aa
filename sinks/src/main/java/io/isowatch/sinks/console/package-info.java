/** Alerts as text for people: the title, the detection details and Elle-style explanation. */
package io.isowatch.sinks.console;

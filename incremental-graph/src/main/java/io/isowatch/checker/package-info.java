/**
 * The entry point: {@link io.isowatch.checker.IncrementalChecker} takes history events one at a
 * time, in any order within a reorder window, and reports each anomaly as soon as it is proven;
 * {@code finish()} returns Elle's verdict ({@code valid?}, anomaly types, {@code not},
 * {@code also-not}). The CLI and the stream job both run this class: there is one implementation
 * of the semantics.
 */
package io.isowatch.checker;

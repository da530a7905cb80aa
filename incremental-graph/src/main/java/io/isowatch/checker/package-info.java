/**
 * The entry point: {@link io.isowatch.checker.IncrementalChecker} takes history events one at a
 * time, in any order within a reorder window, and reports each anomaly as soon as it is proven;
 * {@code finish()} returns Elle's verdict ({@code valid?}, anomaly types, {@code not},
 * {@code also-not}). The CLI and the stream job both run this class: there is one implementation
 * of the semantics. A history recorded by several agents is checked with
 * {@code checkAsFleet(clockUncertainty)}: realtime between two agents then needs a gap larger than
 * the uncertainty ({@code FleetRealtime}, decision 0021).
 */
package io.isowatch.checker;

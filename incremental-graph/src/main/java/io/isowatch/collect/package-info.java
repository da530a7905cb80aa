/**
 * Small primitive collections for the checker's hot paths: per-event work must not box longs or
 * allocate entries. They hold only what the checker needs (no iterators, no removal beyond what
 * is used) and are not thread-safe.
 */
package io.isowatch.collect;

/**
 * Options declared once: {@link io.isowatch.config.OptionDeclaration} holds an option's key, type
 * (and unit), default, doc and where it applies; {@link io.isowatch.config.ValueTypes} reads and
 * writes values, {@link io.isowatch.config.Durations} durations; {@link io.isowatch.config.OptionTables}
 * renders the docs' tables. Each module declares its own options beside the record they fill
 * (the checker's, the job's, the transaction shape's); the CLI, the job, the docs and the Helm
 * chart are derived from or checked against those declarations (decision 0018). Pure Java: no
 * framework, no clock, no state.
 */
package io.isowatch.config;

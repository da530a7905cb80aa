/**
 * Where the console's findings come from: the alerts JSON-lines file a job or demo appends to
 * ({@link io.isowatch.ui.intake.AlertsFileFollower}) and the job's alerts topic
 * ({@link io.isowatch.ui.intake.AlertsTopicFollower}). Both hand each record to one
 * {@link io.isowatch.ui.intake.AlertIntake}, which reads it as the job wrote it
 * ({@link io.isowatch.sinks.AlertJson}) and adds it to the {@link io.isowatch.ui.FindingStore};
 * a record it cannot read is counted and skipped. Followers only read: the file is opened for
 * reading, and the topic is read without a consumer group or committed offsets.
 */
package io.isowatch.ui.intake;

package io.isowatch.job;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.Comparator;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * The completed checkpoints in a local checkpoint directory, as Flink lays them out:
 * {@code DIR/<job id>/chk-<n>/_metadata}. A checkpoint is complete once its {@code _metadata}
 * exists (Flink writes it last, after every state file); a job killed mid-checkpoint leaves a
 * {@code chk-<n>} without one, which is passed over. Each run of the job has its own job id, so a
 * directory that outlived several runs holds one subdirectory per run; the latest checkpoint is
 * the one whose metadata was written last.
 */
public final class RetainedCheckpoints {

    private static final Pattern CHECKPOINT = Pattern.compile("chk-(\\d+)");
    private static final String METADATA = "_metadata";

    private RetainedCheckpoints() {
    }

    /** The newest completed checkpoint's directory under {@code dir}, if there is one. */
    public static Optional<Path> latest(Path dir) {
        if (!Files.isDirectory(dir)) {
            return Optional.empty();
        }
        try (Stream<Path> jobs = Files.list(dir)) {
            return jobs.filter(Files::isDirectory)
                    .flatMap(RetainedCheckpoints::completed)
                    .max(Comparator.comparing(RetainedCheckpoints::written).thenComparingLong(RetainedCheckpoints::number));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list checkpoint directory " + dir + ": " + e.getMessage(), e);
        }
    }

    private static Stream<Path> completed(Path jobDir) {
        try (Stream<Path> children = Files.list(jobDir)) {
            return children.filter(p -> CHECKPOINT.matcher(p.getFileName().toString()).matches())
                    .filter(p -> Files.isRegularFile(p.resolve(METADATA)))
                    .toList().stream();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot list " + jobDir + ": " + e.getMessage(), e);
        }
    }

    private static FileTime written(Path checkpoint) {
        try {
            return Files.getLastModifiedTime(checkpoint.resolve(METADATA));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The checkpoint's number, {@code n} of {@code chk-n}. */
    static long number(Path checkpoint) {
        Matcher m = CHECKPOINT.matcher(checkpoint.getFileName().toString());
        return m.matches() ? Long.parseLong(m.group(1)) : -1;
    }
}

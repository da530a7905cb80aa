package io.isowatch.agentcli;

import io.isowatch.config.OptionDeclaration;
import io.isowatch.config.ValueTypes;

import java.util.List;

/**
 * {@code isowatch job}'s own flags beside the job's {@code --key value} options (which are
 * {@code JobDeclarations}'), declared once (decision 0018); its {@code --metrics-port} and
 * {@code --bind-address} are {@link RunDeclarations}'.
 */
public final class JobFlagDeclarations {

    private static final String JOB = "job";

    public static final OptionDeclaration<String> FROM_CHECKPOINT = OptionDeclaration
            .key("from-checkpoint", ValueTypes.text("latest, none or a directory")).defaultValue("latest")
            .doc("`latest`: resume from the newest completed checkpoint in `checkpoint-dir` (a local directory; none "
                    + "there: start afresh); `none`: start afresh; a path: resume from that `chk-N` or savepoint "
                    + "directory")
            .flags(List.of("--from-checkpoint"), JOB).build();

    /** The job command's own flags. */
    public static final List<OptionDeclaration<?>> ALL = List.of(FROM_CHECKPOINT);

    private JobFlagDeclarations() {
    }
}

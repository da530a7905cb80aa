package io.isowatch.agentcli;

import io.isowatch.config.OptionDeclaration;
import io.isowatch.config.ValueTypes;

import java.util.List;

/**
 * How {@code check} and {@code replay} print and write what they found, declared once (decision
 * 0018); {@code -q} is also {@code agent run}'s. The checker's own flags are
 * {@code CheckerDeclarations}'.
 */
public final class OutputDeclarations {

    private static final String CHECK = "check";
    private static final String REPLAY = "replay";
    private static final String AGENT_RUN = "agent run";

    public static final OptionDeclaration<String> FORMAT = OptionDeclaration
            .key("format", ValueTypes.oneOf("text", "json")).defaultValue("text")
            .doc("`text`, or `json`: one object per file per line")
            .flags(List.of("--format", "--output"), CHECK, REPLAY).build();

    public static final OptionDeclaration<String> DIRECTORY = OptionDeclaration
            .key("directory", ValueTypes.text("directory"))
            .doc("write explanations (`<anomaly>.txt`), DOT/SVG pictures of cycles, and `index.html` (the findings "
                    + "console's static report: list, explanations, pictures, verdict; opens from `file://`; at most "
                    + "500 findings per type, the `.txt` files hold all) here")
            .flags(List.of("-o", "-d", "--directory"), CHECK).build();

    public static final OptionDeclaration<String> PLOT_FORMAT = OptionDeclaration
            .key("plot-format", ValueTypes.oneOf("svg")).defaultValue("svg")
            .doc("the pictures' format; `svg` is the only one (isowatch draws in-process, without Graphviz; for "
                    + "PNG run `dot -Tpng` on the `.dot` files)")
            .flags(List.of("-p", "--plot-format"), CHECK).build();

    public static final OptionDeclaration<Long> MAX_PLOT_BYTES = OptionDeclaration
            .key("max-plot-bytes", ValueTypes.wholeNumber(0, Long.MAX_VALUE)).noDefault("no limit")
            .doc("skip the SVG of a cycle whose DOT is larger than this many bytes, as elle-cli does; the DOT is "
                    + "written either way")
            .flags(List.of("-b", "--max-plot-bytes"), CHECK).build();

    public static final OptionDeclaration<Integer> MAX_SHOWN = OptionDeclaration
            .key("max-shown", ValueTypes.integer(0, Integer.MAX_VALUE)).defaultValue(8)
            .doc("text output: findings shown per anomaly type")
            .flags(List.of("--max-shown"), CHECK, REPLAY).build();

    public static final OptionDeclaration<Boolean> PARSE_ONLY = OptionDeclaration
            .key("parse-only", ValueTypes.bool()).defaultValue(false)
            .doc("only read each file (format, fields, micro-ops), without checking it: say how many events it "
                    + "holds and how long reading took; exit 0 when every file reads, 255 otherwise")
            .flags(List.of("--parse-only"), CHECK).build();

    public static final OptionDeclaration<Boolean> QUIET = OptionDeclaration
            .key("quiet", ValueTypes.bool()).defaultValue(false)
            .doc("no progress lines on stderr (faults and warnings still print)")
            .flags(List.of("-q", "--quiet"), CHECK, REPLAY, AGENT_RUN).build();

    /** The output flags, in the docs' order. */
    public static final List<OptionDeclaration<?>> ALL = List.of(FORMAT, DIRECTORY, PLOT_FORMAT, MAX_PLOT_BYTES,
            MAX_SHOWN, PARSE_ONLY, QUIET);

    private OutputDeclarations() {
    }
}

package io.isowatch.cli;

import io.isowatch.agentcli.ExitCodes;
import io.isowatch.explain.Notation;
import io.isowatch.explain.OpText;
import io.isowatch.gen.GeneratorOptions;
import io.isowatch.gen.ListAppendGenerator;
import io.isowatch.gen.RegisterGenerator;
import io.isowatch.history.AtomTable;
import io.isowatch.history.Op;
import io.isowatch.history.codec.JsonLinesWriter;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.concurrent.Callable;

/** {@code isowatch gen}: writes a list-append or rw-register history from a simulated strict-serializable store. */
@Command(name = "gen", mixinStandardHelpOptions = true, addMethodSubcommands = false,
        description = {"Writes a Jepsen list-append or rw-register history (JSON lines or EDN) from a simulated store that is "
                + "strict-serializable by construction, with optional aborts (:fail) and unknown outcomes (:info).",
                "For benchmarks, soak tests and experiments: 'isowatch gen -n 1000000 -o h.jsonl && isowatch check h.jsonl'."})
final class GenCommand implements Callable<Integer> {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Mixin
    GeneratorFlags workload;

    @Option(names = {"-o", "--output"}, descriptionKey = "output", paramLabel = "FILE")
    Path output;

    @Option(names = "--format", descriptionKey = "format", paramLabel = "FORMAT")
    String format;

    @Option(names = "--workload", descriptionKey = "workload", paramLabel = "W")
    String workloadName;

    @Override
    public Integer call() throws IOException {
        if (!"json".equals(format) && !"edn".equals(format)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--format " + format + " is not supported; use json or edn");
        }
        if (!"list-append".equals(workloadName) && !"rw-register".equals(workloadName)) {
            throw new CommandLine.ParameterException(spec.commandLine(),
                    "--workload " + workloadName + " is not supported; use list-append or rw-register");
        }
        Iterator<Op> generator;
        try {
            GeneratorOptions options = workload.toOptions();
            generator = "rw-register".equals(workloadName)
                    ? new RegisterGenerator(options) : new ListAppendGenerator(options);
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.getMessage());
        }
        OutputStream sink = output == null ? new NonClosing(System.out)
                : new BufferedOutputStream(new FileOutputStream(output.toFile()), 1 << 16);
        if ("edn".equals(format)) {
            writeEdn(generator, sink, "rw-register".equals(workloadName) ? Notation.RW_REGISTER : Notation.LIST_APPEND);
        } else {
            try (JsonLinesWriter writer = new JsonLinesWriter(sink, new AtomTable())) {
                while (generator.hasNext()) {
                    writer.write(generator.next());
                }
            }
        }
        return ExitCodes.VALID;
    }

    /** Each op as Elle prints it ({@link OpText}), a line each: the shape of Jepsen's history.edn. */
    private static void writeEdn(Iterator<Op> generator, OutputStream sink, Notation notation) throws IOException {
        AtomTable atoms = new AtomTable();
        try (Writer out = new OutputStreamWriter(sink, StandardCharsets.UTF_8)) {
            while (generator.hasNext()) {
                out.write(OpText.render(generator.next(), atoms, notation));
                out.write('\n');
            }
        }
    }

    /** Lets the writer close its stream without closing stdout. */
    private static final class NonClosing extends java.io.FilterOutputStream {
        NonClosing(OutputStream out) {
            super(out);
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            out.write(b, off, len);
        }

        @Override
        public void close() throws IOException {
            flush();
        }
    }
}

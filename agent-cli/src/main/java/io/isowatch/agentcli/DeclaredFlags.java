package io.isowatch.agentcli;

import io.isowatch.checker.CheckerDeclarations;
import io.isowatch.config.OptionDeclaration;
import io.isowatch.gen.TxnShapeDeclarations;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;

import java.util.ArrayList;
import java.util.List;
import java.util.ListResourceBundle;
import java.util.Optional;

/**
 * Gives the flags of declared options ({@link OptionDeclaration}) their defaults and descriptions
 * from the declarations: a flag names its declaration with {@code descriptionKey}, and its
 * annotation holds neither a default nor a description. Installed on every command line the
 * launchers run ({@link Launcher}).
 */
public final class DeclaredFlags {

    /** Every declaration a launcher's flags may name. */
    public static final List<OptionDeclaration<?>> ALL = all();

    private DeclaredFlags() {
    }

    /**
     * Installs the declarations' defaults and descriptions on {@code cli} and its subcommands, as
     * built now.
     */
    public static void install(CommandLine cli) {
        cli.setDefaultValueProvider(DeclaredFlags::defaultValue);
        describe(cli);
    }

    /** The declaration a flag of {@code command} names, if any. */
    public static Optional<OptionDeclaration<?>> declaration(ArgSpec arg) {
        if (!(arg instanceof OptionSpec o) || o.descriptionKey() == null || o.descriptionKey().isEmpty()
                || arg.command() == null) {
            return Optional.empty();
        }
        String command = command(arg.command());
        return ALL.stream().filter(d -> d.key().equals(o.descriptionKey()) && d.appliesTo(command)).findFirst();
    }

    /** {@code check}, {@code agent run}: a command's name below the launcher. */
    public static String command(CommandSpec spec) {
        String qualified = spec.qualifiedName(" ");
        int space = qualified.indexOf(' ');
        return space < 0 ? "" : qualified.substring(space + 1);
    }

    private static String defaultValue(ArgSpec arg) {
        return declaration(arg).map(d -> d.defaultText(command(arg.command())))
                .filter(text -> !text.isEmpty()).orElse(null);
    }

    private static void describe(CommandLine cli) {
        CommandSpec spec = cli.getCommandSpec();
        List<Object[]> entries = new ArrayList<>();
        for (OptionSpec o : spec.options()) {
            declaration(o).ifPresent(d -> entries.add(new Object[] {d.key(), description(d, o)}));
        }
        if (!entries.isEmpty()) {
            Object[][] contents = entries.toArray(new Object[0][]);
            spec.resourceBundle(new ListResourceBundle() {
                @Override
                protected Object[][] getContents() {
                    return contents;
                }
            });
        }
        cli.getSubcommands().values().forEach(DeclaredFlags::describe);
    }

    /** The doc without the docs' code marks, with the default (picocli fills it in). */
    private static String description(OptionDeclaration<?> d, OptionSpec o) {
        String doc = d.doc().replace("`", "");
        String line = Character.toUpperCase(doc.charAt(0)) + doc.substring(1);
        if (o.arity().max() == 0) {
            return line + ".";
        }
        String dflt = d.defaultText(command(o.command())).isEmpty() ? d.noDefault() : "${DEFAULT-VALUE}";
        return line + "; " + d.flagType().describe() + " (default: " + dflt + ").";
    }

    private static List<OptionDeclaration<?>> all() {
        List<OptionDeclaration<?>> all = new ArrayList<>(CheckerDeclarations.ALL);
        all.addAll(TxnShapeDeclarations.ALL);
        all.addAll(RunDeclarations.ALL);
        all.addAll(OutputDeclarations.ALL);
        all.addAll(ConsoleDeclarations.ALL);
        all.addAll(AgentDeclarations.ALL);
        all.addAll(JobFlagDeclarations.ALL);
        return List.copyOf(all);
    }
}

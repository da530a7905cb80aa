package io.isowatch.config;

import java.time.Duration;
import java.util.List;

/**
 * Markdown tables of declared options, as docs/configuration.md holds them: one row per option
 * with its name, type (and unit), default and meaning. A test compares the docs with these tables,
 * so a changed declaration fails the build until the docs are regenerated.
 */
public final class OptionTables {

    private OptionTables() {
    }

    /** The stream job's options: {@code | key | type | default | meaning |}, those declared {@code job()}. */
    public static String jobTable(List<OptionDeclaration<?>> options) {
        StringBuilder b = new StringBuilder("| key | type | default | meaning |\n|---|---|---|---|\n");
        for (OptionDeclaration<?> o : options) {
            if (o.job()) {
                row(b, code(o.key()) + aliases(o.aliases(), ""), o, null);
            }
        }
        return b.toString();
    }

    /**
     * The flags of {@code commands} among {@code options}: {@code | flag | type | default | meaning |}.
     * With several commands, a default one of them overrides is named with it; with one, the
     * table shows that command's own default.
     */
    public static String flagTable(List<OptionDeclaration<?>> options, List<String> commands) {
        StringBuilder b = new StringBuilder("| flag | type | default | meaning |\n|---|---|---|---|\n");
        for (OptionDeclaration<?> o : options) {
            if (commands.stream().anyMatch(o::appliesTo)) {
                String only = commands.stream().allMatch(o::appliesTo) ? ""
                        : " (" + String.join(", ", commands.stream().filter(o::appliesTo).toList()) + ")";
                String names = String.join(", ", o.flags().stream().map(OptionTables::code).toList());
                row(b, names + aliases(o.aliases(), "--") + only, o, commands);
            }
        }
        return b.toString();
    }

    private static void row(StringBuilder b, String name, OptionDeclaration<?> o, List<String> commands) {
        String meaning = o.doc();
        if (!o.aliases().isEmpty()) {
            meaning += "; the former name still works for one release";
        }
        boolean flag = commands != null;
        boolean isSwitch = flag && o.defaultValue() instanceof Boolean;
        String type = isSwitch ? "switch" : (flag ? o.flagType() : o.type()).describe();
        String dflt = isSwitch ? (Boolean.TRUE.equals(o.defaultValue()) ? "on" : "off") : defaultCell(o, commands);
        b.append("| ").append(name).append(" | ").append(type).append(" | ").append(dflt).append(" | ")
                .append(meaning).append(" |\n");
    }

    private static <T> String defaultCell(OptionDeclaration<T> o, List<String> commands) {
        if (commands != null && commands.size() == 1 && o.commandDefaults().containsKey(commands.get(0))) {
            // A table of one command shows that command's own default, and why it differs.
            return code(show(o, o.commandDefaults().get(commands.get(0)))) + " (" + o.commandDefaultWhy() + ")";
        }
        String cell = o.defaultValue() == null ? o.noDefault() : code(show(o, o.defaultValue()));
        if (commands != null) {
            for (String c : commands) {
                T d = o.commandDefaults().get(c);
                if (d != null) {
                    cell += " (" + c + ": " + code(show(o, d)) + ", " + o.commandDefaultWhy() + ")";
                }
            }
        }
        return cell;
    }

    private static <T> String show(OptionDeclaration<T> o, T value) {
        if (value instanceof Duration d && d.isZero()) {
            return "0";
        }
        String s = o.flagType().format(value);
        return s.isEmpty() ? "\"\"" : s;
    }

    private static String aliases(List<String> aliases, String prefix) {
        return aliases.isEmpty() ? "" : " (formerly " + String.join(", ",
                aliases.stream().map(a -> code(prefix + a)).toList()) + ")";
    }

    private static String code(String s) {
        return "`" + s + "`";
    }
}

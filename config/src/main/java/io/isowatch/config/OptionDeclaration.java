package io.isowatch.config;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One option, declared once (in the spirit of Flink's {@code ConfigOption}): its key, value type
 * (and so its unit), default, one-line doc, and where it applies: the CLI commands and flag names
 * that take it, whether the stream job reads it as {@code --key value}, and the Helm value that
 * sets it. The CLI's defaults and descriptions, the job's parsing and the tables of
 * docs/configuration.md all come from here, and tests hold the chart to it (decision 0018).
 *
 * <p>Build one with {@link #key}: {@code OptionDeclaration.key("idle-timeout", ValueTypes.duration(SECONDS))
 * .defaultValue(Duration.ofSeconds(30)).doc("...").job().chart("job.options.idleTimeout").build()}.
 *
 * @param key             kebab-case name: the job option's key, else the long flag without dashes
 * @param type            how values are read and written
 * @param flagType        how the CLI flags read them, when that differs (a bare duration's unit); else {@code type}
 * @param defaultValue    the default; null when there is none (then {@code noDefault} says what that means)
 * @param noDefault       the docs' word for an absent default: "none", "no limit", "(required)"
 * @param doc             one line: what the option means
 * @param flags           the CLI flag names, short first (empty when no command takes it as a flag)
 * @param commands        the CLI commands that take the flags ({@code check}, {@code agent run}, ...)
 * @param commandDefaults defaults that differ for one command, with {@code commandDefaultWhy} saying why
 * @param commandDefaultWhy why a command's default differs; empty when none does
 * @param job             whether the stream job reads it ({@code --key value})
 * @param chartValue      the Helm value (dotted path under values.yaml) that sets the job option;
 *                        empty when the chart does not set it
 * @param chartDefault    the chart's own default for it, as text, when it deliberately differs from
 *                        the job's (a parallelism for a cluster); null when the chart keeps the job's
 * @param aliases         former names still accepted for one release (announced in the docs)
 * @param <T>             the value's type
 */
public record OptionDeclaration<T>(String key, ValueType<T> type, ValueType<T> flagType, T defaultValue,
                                   String noDefault, String doc, List<String> flags, List<String> commands,
                                   Map<String, T> commandDefaults, String commandDefaultWhy, boolean job,
                                   String chartValue, String chartDefault, List<String> aliases) {

    public OptionDeclaration {
        Objects.requireNonNull(key, "key");
        if (!key.matches("[a-z][a-z0-9]*(-[a-z0-9]+)*")) {
            throw new IllegalArgumentException("option key \"" + key + "\" is not kebab-case");
        }
        Objects.requireNonNull(type, "type of " + key);
        Objects.requireNonNull(flagType, "flagType of " + key);
        Objects.requireNonNull(noDefault, "noDefault of " + key);
        if (doc == null || doc.isBlank()) {
            throw new IllegalArgumentException("option " + key + " needs a one-line doc");
        }
        flags = List.copyOf(flags);
        commands = List.copyOf(commands);
        if (flags.isEmpty() != commands.isEmpty()) {
            throw new IllegalArgumentException("option " + key + ": flags and the commands taking them go together");
        }
        commandDefaults = Map.copyOf(commandDefaults);
        if (!commandDefaults.isEmpty() && commandDefaultWhy.isBlank()) {
            throw new IllegalArgumentException("option " + key + ": say why a command's default differs");
        }
        if (!commands.containsAll(commandDefaults.keySet())) {
            throw new IllegalArgumentException("option " + key + ": a default for a command that does not take it");
        }
        Objects.requireNonNull(chartValue, "chartValue of " + key);
        aliases = List.copyOf(aliases);
    }

    /**
     * {@code raw} with every former name ({@link #aliases()}) of {@code options} replaced by the
     * current key, so a renamed option still reads for one release.
     *
     * @throws IllegalArgumentException when an option is given under both names
     */
    public static Map<String, String> resolveAliases(Map<String, String> raw, List<OptionDeclaration<?>> options) {
        Map<String, String> resolved = new LinkedHashMap<>(raw);
        for (OptionDeclaration<?> o : options) {
            for (String alias : o.aliases()) {
                if (resolved.containsKey(alias)) {
                    if (resolved.containsKey(o.key())) {
                        throw new IllegalArgumentException("option " + o.key() + " is given twice, also under its "
                                + "former name " + alias + "; keep " + o.key());
                    }
                    resolved.put(o.key(), resolved.remove(alias));
                }
            }
        }
        return resolved;
    }

    /** Starts a declaration. */
    public static <T> Builder<T> key(String key, ValueType<T> type) {
        return new Builder<>(key, type);
    }

    /** Reads {@code text} as this option's value; messages name the option as {@code where}. */
    public T parse(String where, String text) {
        return type.parse(where, text);
    }

    /** Reads {@code text} as a CLI flag's value (a bare duration in the flag's unit). */
    public T parseFlag(String where, String text) {
        return flagType.parse(where, text);
    }

    /** The default as the parser reads it; empty when there is none. */
    public String defaultText() {
        return defaultValue == null ? "" : type.format(defaultValue);
    }

    /** The default {@code command} uses, as the parser reads it; empty when there is none. */
    public String defaultText(String command) {
        T d = commandDefaults.getOrDefault(command, defaultValue);
        return d == null ? "" : flagType.format(d);
    }

    /** The name messages use for this option under {@code command}: its long flag, else its key. */
    public String flagName() {
        return flags.isEmpty() ? key : flags.get(flags.size() - 1);
    }

    /** Whether {@code command} takes this option as a flag. */
    public boolean appliesTo(String command) {
        return commands.contains(command);
    }

    /** Builds a declaration; {@link #doc} is required, everything else optional. */
    public static final class Builder<T> {
        private final String key;
        private final ValueType<T> type;
        private ValueType<T> flagType;
        private T defaultValue;
        private String noDefault = "none";
        private String doc;
        private final List<String> flags = new ArrayList<>();
        private final List<String> commands = new ArrayList<>();
        private final Map<String, T> commandDefaults = new LinkedHashMap<>();
        private String commandDefaultWhy = "";
        private boolean job;
        private String chartValue = "";
        private String chartDefault;
        private final List<String> aliases = new ArrayList<>();

        private Builder(String key, ValueType<T> type) {
            this.key = key;
            this.type = type;
        }

        public Builder<T> defaultValue(T value) {
            this.defaultValue = value;
            return this;
        }

        /** The docs' word for "no default": "none" unless said otherwise. */
        public Builder<T> noDefault(String word) {
            this.noDefault = word;
            return this;
        }

        public Builder<T> doc(String line) {
            this.doc = line;
            return this;
        }

        /** The flag names (short first) and the commands that take them. */
        public Builder<T> flags(List<String> names, String... takenBy) {
            flags.addAll(names);
            commands.addAll(List.of(takenBy));
            return this;
        }

        /** A default that differs for one command, and why. */
        public Builder<T> commandDefault(String command, T value, String why) {
            commandDefaults.put(command, value);
            commandDefaultWhy = why;
            return this;
        }

        /** How the CLI flags read the value, when that differs from the job (a bare duration's unit). */
        public Builder<T> flagType(ValueType<T> value) {
            this.flagType = value;
            return this;
        }

        /** The stream job reads it as {@code --key value}. */
        public Builder<T> job() {
            this.job = true;
            return this;
        }

        /** The Helm value (dotted path) that sets the job option. */
        public Builder<T> chart(String valuePath) {
            this.chartValue = valuePath;
            return this;
        }

        /** The Helm value (dotted path) that sets the job option, with the chart's own default, and why. */
        public Builder<T> chart(String valuePath, String ownDefault) {
            this.chartValue = valuePath;
            this.chartDefault = ownDefault;
            return this;
        }

        /** A former name, still accepted for one release. */
        public Builder<T> alias(String formerName) {
            aliases.add(formerName);
            return this;
        }

        public OptionDeclaration<T> build() {
            return new OptionDeclaration<>(key, type, flagType == null ? type : flagType, defaultValue, noDefault, doc,
                    flags, commands, commandDefaults, commandDefaultWhy, job, chartValue, chartDefault, aliases);
        }
    }
}

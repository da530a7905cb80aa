package io.isowatch.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.isowatch.config.OptionDeclaration;
import io.isowatch.job.JobDeclarations;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.StreamSupport;
import org.junit.jupiter.api.Test;

/**
 * The chart agrees with the job's option declarations ({@link JobDeclarations}, decision 0018):
 * every job option the chart passes is declared with the value that sets it; that value exists in
 * values.yaml and values.schema.json; its default there is the job's (or the chart's own, where the
 * declaration says the chart differs); and every value the schema enumerates is one the job accepts.
 */
class ChartJobOptionsTest {

    private static final Pattern ARG = Pattern.compile("^- --([a-z][a-z0-9-]*)$", Pattern.MULTILINE);

    @Test
    void everyJobArgument_isADeclaredOption_andEveryChartOption_isPassed() throws IOException {
        String helpers = Files.readString(Charts.chartDir().resolve("templates/_helpers.tpl"));
        int start = helpers.indexOf("define \"isowatch.job.args\"");
        String args = helpers.substring(start, helpers.indexOf("{{- end }}\n\n", start));
        Set<String> passed = new TreeSet<>();
        Matcher m = ARG.matcher(args);
        while (m.find()) {
            passed.add(m.group(1));
        }
        Set<String> declared = JobDeclarations.ALL.stream().filter(o -> !o.chartValue().isEmpty())
                .map(OptionDeclaration::key).collect(Collectors.toCollection(TreeSet::new));
        assertEquals(declared, passed, "the job options templates/_helpers.tpl passes (isowatch.job.args) and "
                + "those JobDeclarations say the chart sets (chart(...)); declare the chart value or pass the option");
    }

    @Test
    void chartValues_existWithTheDeclaredDefaults() throws IOException {
        JsonNode values = Charts.YAML.readTree(Charts.chartDir().resolve("values.yaml").toFile());
        JsonNode schema = new ObjectMapper().readTree(Charts.chartDir().resolve("values.schema.json").toFile());
        List<String> problems = new ArrayList<>();
        for (OptionDeclaration<?> o : JobDeclarations.ALL) {
            if (!o.chartValue().isEmpty()) {
                check(o, values, schema, problems);
            }
        }
        assertEquals(List.of(), problems);
    }

    private static <T> void check(OptionDeclaration<T> o, JsonNode values, JsonNode schema, List<String> problems) {
        String path = o.chartValue();
        JsonNode value = values.at("/" + path.replace('.', '/'));
        JsonNode property = schema;
        for (String segment : path.split("\\.")) {
            property = property.path("properties").path(segment);
        }
        if (value.isMissingNode()) {
            problems.add("values.yaml has no " + path + ", which sets job option " + o.key());
            return;
        }
        if (property.isMissingNode()) {
            problems.add("values.schema.json has no " + path + ", which sets job option " + o.key());
            return;
        }
        String where = "values.yaml " + path;
        String expected = o.chartDefault() != null ? o.chartDefault() : o.defaultText();
        try {
            T chart = o.parse(where, text(value));
            T declared = o.parse("declared default of " + o.key(), expected);
            if (!chart.equals(declared)) {
                problems.add(where + " is " + text(value) + " where job option " + o.key() + " declares "
                        + (o.chartDefault() != null ? "the chart's default " : "the default ") + expected);
            }
        } catch (IllegalArgumentException e) {
            problems.add(e.getMessage());
        }
        for (JsonNode allowed : property.path("enum")) {
            try {
                o.parse("values.schema.json " + path + " enum", allowed.asText());
            } catch (IllegalArgumentException e) {
                problems.add(e.getMessage() + " (the schema allows what job option " + o.key() + " refuses)");
            }
        }
    }

    /** A value as the template passes it: a list joined by commas, anything else as text. */
    private static String text(JsonNode value) {
        if (value.isArray()) {
            return StreamSupport.stream(value.spliterator(), false).map(JsonNode::asText)
                    .collect(Collectors.joining(","));
        }
        return value.asText();
    }
}

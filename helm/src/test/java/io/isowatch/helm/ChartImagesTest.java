package io.isowatch.helm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.isowatch.helm.Charts.ValueSet;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.parsers.DocumentBuilderFactory;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.w3c.dom.Document;

/**
 * The Dockerfiles agree with the chart and the parent pom. No Docker engine exists on this
 * project's machines, so the images are not built; these checks keep the files consistent with what
 * the chart expects of them.
 */
class ChartImagesTest {

    static String jobDockerfile;
    static String agentDockerfile;
    static String agentDockerignore;
    static Document pom;

    @BeforeAll
    static void load() throws Exception {
        Path root = Charts.repoRoot();
        jobDockerfile = Files.readString(root.resolve("docker/job/Dockerfile"));
        agentDockerfile = Files.readString(root.resolve("docker/agent/Dockerfile"));
        agentDockerignore = Files.readString(root.resolve("docker/agent/Dockerfile.dockerignore"));
        pom = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(root.resolve("pom.xml").toFile());
    }

    static String pomProperty(String name) {
        return pom.getDocumentElement().getElementsByTagName(name).item(0).getTextContent().trim();
    }

    static String instruction(String dockerfile, String regex) {
        Matcher m = Pattern.compile(regex, Pattern.MULTILINE).matcher(dockerfile);
        assertTrue(m.find(), () -> "no match for " + regex);
        return m.group(1);
    }

    @Test
    void jobImage_isTheOfficialFlinkImageOfThePomsFlinkVersion() {
        String from = instruction(jobDockerfile, "^FROM (\\S+)$");
        String flink = pomProperty("flink.version");
        assertEquals("flink:" + flink + "-java17", from);
        String[] majorMinor = flink.split("\\.");
        JsonNode fd = Charts.render(ValueSet.DEFAULT).one("FlinkDeployment");
        assertEquals("v" + majorMinor[0] + "_" + majorMinor[1], fd.path("spec").path("flinkVersion").asText(),
                "the chart's flinkVersion must name the image's Flink minor version");
    }

    @Test
    void jobImage_putsTheShadedJarWhereTheFlinkDeploymentLooks() {
        String target = instruction(jobDockerfile, "^COPY --chown=flink:flink stream-job/target/isowatch-job\\.jar (\\S+)$");
        String jarUri = Charts.render(ValueSet.FULL).one("FlinkDeployment").path("spec").path("job").path("jarURI").asText();
        assertEquals("local://" + target, jarUri);
    }

    @Test
    void jobImage_makesThePrometheusReporterPluginAvailable() {
        assertTrue(jobDockerfile.contains("$FLINK_HOME/plugins/metrics-prometheus"), jobDockerfile);
        assertTrue(jobDockerfile.contains("cp \"$FLINK_HOME\"/opt/flink-metrics-prometheus-*.jar"), jobDockerfile);
        assertTrue(jobDockerfile.contains("ls \"$dir\"/flink-metrics-prometheus-*.jar\n"),
                "the build must fail when the reporter jar is missing");
    }

    @Test
    void agentImage_setsExactlyThePomsJvmFlags() {
        String flags = instruction(agentDockerfile, "^ENV JAVA_TOOL_OPTIONS=\"([^\"]*)\"$");
        assertEquals(pomProperty("isowatch.jvm.flags"), flags);
    }

    @Test
    void agentImage_runsTheAgentJarAsTheChartsUser() {
        assertEquals("eclipse-temurin:17-jre", instruction(agentDockerfile, "^FROM (\\S+)$"));
        assertEquals("/opt/isowatch/isowatch-agent.jar",
                instruction(agentDockerfile, "^COPY agent-cli/target/isowatch-agent\\.jar (\\S+)$"));
        assertEquals("[\"java\", \"-jar\", \"/opt/isowatch/isowatch-agent.jar\", \"agent\", \"run\"]",
                instruction(agentDockerfile, "^ENTRYPOINT (.+)$"));
        String user = instruction(agentDockerfile, "^USER (\\S+)$");
        JsonNode security = Charts.render(ValueSet.DEFAULT).one("Deployment")
                .path("spec").path("template").path("spec").path("securityContext");
        assertEquals(security.path("runAsUser").asText() + ":" + security.path("runAsGroup").asText(), user);
        assertEquals(List.of("9400"), List.of(instruction(agentDockerfile, "^EXPOSE (\\S+)$")));
    }

    @Test
    void agentImage_buildContextLetsInExactlyTheJarItCopies() {
        String source = instruction(agentDockerfile, "^COPY (\\S+) \\S+$");
        List<String> rules = agentDockerignore.lines().map(String::strip)
                .filter(l -> !l.isEmpty() && !l.startsWith("#")).toList();
        assertEquals(List.of("*", "!" + source), rules);
    }

    @Test
    void consoleImage_isTheAgentImage_runningUiFromTheJarTheDockerfileCopies() {
        String jar = instruction(agentDockerfile, "^COPY \\S+ (\\S+)$");
        JsonNode ui = Charts.render(ValueSet.FULL).named("Deployment", ChartRenderTest.UI)
                .path("spec").path("template").path("spec").path("containers").get(0);
        assertEquals(List.of("java", "-jar", jar, "ui"), Manifests.strings(ui.path("command")));
    }

    @Test
    void chartAppVersion_isTheProjectVersion() throws Exception {
        JsonNode chart = Charts.YAML.readTree(Charts.chartDir().resolve("Chart.yaml").toFile());
        assertEquals("v2", chart.path("apiVersion").asText());
        String project = pom.getDocumentElement().getElementsByTagName("version").item(0).getTextContent().trim();
        assertEquals(project.replace("-SNAPSHOT", ""), chart.path("appVersion").asText());
    }
}

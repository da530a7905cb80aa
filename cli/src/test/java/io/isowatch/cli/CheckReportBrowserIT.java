package io.isowatch.cli;

import io.isowatch.agentcli.ExitCodes;
import io.isowatch.testing.Json;
import io.isowatch.ui.Browser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code check -o DIR}'s index.html opened from {@code file://}: the findings check reports, with no server. */
class CheckReportBrowserIT {

    @Test
    void indexHtml_fromFile_showsTheFindingsCheckReports_andTheirPictures(@TempDir Path dir) throws Exception {
        Path history = CheckCommandTest.golden("G-single-item-read-skew");
        CheckCommandTest.Run json = CheckCommandTest.run("check", "-q", "-c", "strict-serializable", "--format", "json",
                history.toString());
        CheckCommandTest.Run written = CheckCommandTest.run("check", "-q", "-c", "strict-serializable", "-o",
                dir.toString(), history.toString());
        assertEquals(ExitCodes.INVALID, written.code(), written.err());
        Map<String, Object> verdict = Json.object(json.out().trim());
        List<String> checkTypes = new ArrayList<>();
        ((Map<?, ?>) verdict.get("anomalies")).forEach((type, findings) -> {
            for (Object f : (List<?>) findings) {
                checkTypes.add((String) type);
            }
        });

        try (Browser browser = Browser.start()) {
            browser.driver().get(dir.resolve("index.html").toUri().toString());
            List<WebElement> rows = browser.await(Duration.ofSeconds(10), d -> {
                List<WebElement> r = d.findElements(By.cssSelector("#findings tbody tr"));
                return r.size() == checkTypes.size() ? r : null;
            });
            assertEquals(checkTypes.stream().sorted().toList(),
                    rows.stream().map(r -> r.findElement(By.cssSelector("td.type")).getText()).sorted().toList());
            assertEquals(verdict.get("valid").toString(), browser.driver().findElement(By.id("verdict")).getText());
            List<String> heads = browser.driver().findElements(By.cssSelector("#findings thead th")).stream()
                    .map(h -> h.getAttribute("textContent")).toList();
            assertEquals(List.of("Anomaly", "Rules out", "Finding"), heads, "offline: no Detected, History or Delay");
            browser.screenshot("check-report-list");

            rows.get(0).findElement(By.cssSelector("td.type a")).click();
            WebElement explanation = browser.await(Duration.ofSeconds(10), d -> d.findElement(By.id("explanation")));
            assertTrue(explanation.getText().contains("a contradiction!"), explanation.getText());
            WebElement picture = browser.driver().findElement(By.id("cycle"));
            browser.await(Duration.ofSeconds(5), d -> Boolean.TRUE.equals(browser.js(
                    "return arguments[0].complete && arguments[0].naturalWidth > 0;", picture)));
            assertTrue(picture.getRect().getWidth() > 100, picture.getRect().getDimension().toString());
            String plain = browser.driver().findElement(By.id("plain-words")).getText();
            assertTrue(plain.contains("G-single-item is read skew"), plain);
            assertTrue(plain.contains("Allowed by: read uncommitted, read committed"), plain);
            assertTrue(plain.contains("Forbidden by: ") && plain.contains("serializable"), plain);
            assertTrue(plain.contains("It breaks strict-serializable, which was checked."), plain);
            String legend = browser.driver().findElement(By.id("cycle-legend")).getText();
            for (String kind : List.of("ww", "wr", "rw", "realtime", "process", "rw 3: 28 < 30")) {
                assertTrue(legend.contains(kind), kind + " in " + legend);
            }
            assertTrue(browser.driver().findElements(By.id("finding-delay")).isEmpty(), "offline: no detection delay");
            browser.screenshot("check-report-finding");
            assertEquals(List.of(), browser.scriptProblems());
        }
    }

    @Test
    void indexHtml_ofAValidHistory_showsNothingEmpty(@TempDir Path dir) throws Exception {
        CheckCommandTest.Run written = CheckCommandTest.run("check", "-q", "-o", dir.toString(),
                CheckCommandTest.golden("valid-concurrent").toString());
        assertEquals(ExitCodes.VALID, written.code(), written.err());

        try (Browser browser = Browser.start()) {
            browser.driver().get(dir.resolve("index.html").toUri().toString());
            WebElement verdict = browser.await(Duration.ofSeconds(10), d -> d.findElement(By.id("verdict")));
            assertEquals("true", verdict.getText());
            assertEquals("No findings.", browser.driver().findElement(By.id("total")).getText());
            assertTrue(browser.driver().findElements(By.id("findings")).isEmpty(), "no empty table");
            assertTrue(browser.driver().findElements(By.cssSelector(".filters")).isEmpty(), "no empty filters");
            assertTrue(browser.driver().findElements(By.xpath("//h2[text()='Histories']")).isEmpty(),
                    "no Histories heading");
            assertEquals(List.of(), browser.scriptProblems());
        }
    }
}

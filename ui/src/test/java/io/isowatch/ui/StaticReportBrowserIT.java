package io.isowatch.ui;

import io.isowatch.sinks.Alert;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.TreeSet;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The static report opened from {@code file://}, with no server anywhere. */
class StaticReportBrowserIT {

    private static Browser browser;
    private static Path page;
    private static List<Alert> alerts;

    @BeforeAll
    static void write() throws IOException {
        alerts = List.of(
                TestAlerts.writeSkewAlert("x", "y", 0, "", TestAlerts.DETECTED_AT),
                TestAlerts.writeSkewAlert(TestAlerts.SCRIPT_KEY, TestAlerts.ATTRIBUTE_KEY, 10, "", TestAlerts.DETECTED_AT),
                TestAlerts.abortedReadAlert("z", "", TestAlerts.DETECTED_AT));
        List<StaticReport.Entry> entries = alerts.stream().map(FindingView::of)
                .map(v -> new StaticReport.Entry(v, v.svg())).toList();
        StaticReport.Summary summary = new StaticReport.Summary("history.jsonl", "false", List.of("serializable"),
                new TreeSet<>(List.of("read-committed")), new TreeSet<>(List.of("serializable")),
                new StaticReport.Stats(12, 9, 1, 2), 3, "2025-01-02T03:04:05.678Z");
        Path dir = Files.createTempDirectory("isowatch-report-it");
        page = dir.resolve("index.html");
        Files.writeString(page, StaticReport.html(summary, entries), StandardCharsets.UTF_8);
        browser = Browser.start();
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.close();
        }
    }

    private static List<String> shownIds() {
        return browser.visible("#findings tbody tr").stream().map(r -> r.getDomAttribute("data-id")).toList();
    }

    @Test
    void report_fromFile_listsEveryFindingInItsOrder_withTheVerdict() {
        browser.driver().get(page.toUri().toString());
        browser.await(Duration.ofSeconds(10), d -> shownIds().size() == alerts.size());
        assertEquals(alerts.stream().map(Alert::id).toList(), shownIds());
        assertEquals("false", browser.driver().findElement(By.id("verdict")).getText());
        assertTrue(browser.driver().findElement(By.id("txns-checked")).getText().startsWith("12"));
        new Select(browser.driver().findElement(By.id("filter-type"))).selectByValue("G1a");
        assertEquals(List.of(alerts.get(2).id()), shownIds());
        browser.screenshot("report-list");
        assertClean();
    }

    @Test
    void report_findingPage_showsExplanationAndPicture_andHostileKeysStayText() {
        browser.driver().get(page.toUri().toString());
        Alert hostile = alerts.get(1);
        browser.await(Duration.ofSeconds(10), d -> d.findElement(By.cssSelector("tr[data-id='" + hostile.id() + "'] td.type a")))
                .click();
        WebElement explanation = browser.await(Duration.ofSeconds(10), d -> d.findElement(By.id("explanation")));
        assertTrue(browser.driver().getCurrentUrl().startsWith("file:"), browser.driver().getCurrentUrl());
        assertEquals(hostile.explanation(), explanation.getDomProperty("textContent"));
        WebElement picture = browser.driver().findElement(By.id("cycle"));
        browser.await(Duration.ofSeconds(5), d -> Boolean.TRUE.equals(browser.js(
                "return arguments[0].complete && arguments[0].naturalWidth > 0;", picture)));
        assertTrue(picture.getRect().getWidth() > 100, picture.getRect().getDimension().toString());
        browser.screenshot("report-hostile-finding");
        assertClean();
        browser.driver().navigate().back();
        browser.await(Duration.ofSeconds(10), d -> shownIds().size() == alerts.size());
    }

    /** No script but the report's ran, and the report's ran without an error (its policy allowed it). */
    private static void assertClean() {
        assertEquals(List.of(), browser.scriptProblems());
    }
}

package io.isowatch.ui;

import io.isowatch.anomaly.AnomalyType;
import io.isowatch.sinks.Alert;
import io.isowatch.sinks.Release;
import io.isowatch.sinks.file.JsonLinesAlertSink;
import io.isowatch.sinks.file.JsonLinesSinkOptions;
import io.isowatch.testing.Golden;
import io.isowatch.ui.intake.AlertIntake;
import io.isowatch.ui.intake.AlertsFileFollower;
import io.isowatch.ui.server.ConsoleServer;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.Rectangle;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;
import org.openqa.selenium.support.ui.Select;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The live console in a real browser: a server following an alerts file that a real
 * {@link JsonLinesAlertSink} appends to, exactly as {@code isowatch ui --alerts-file} runs it.
 */
class ConsoleBrowserIT {

    private static final long T0 = System.currentTimeMillis() - 60_000;

    private static Path dir;
    private static JsonLinesAlertSink sink;
    private static FindingStore store;
    private static AlertsFileFollower follower;
    private static ConsoleServer server;
    private static Browser browser;
    private static String base;

    private static Alert skew;
    private static Alert aborted;
    private static Alert hostile;
    private static Alert readSkew;

    @BeforeAll
    static void start() throws IOException {
        dir = Files.createTempDirectory("isowatch-console-it");
        Path file = dir.resolve("alerts.jsonl");
        skew = TestAlerts.writeSkewAlert("x", "y", 0, "agent-1", T0);
        aborted = TestAlerts.abortedReadAlert("z", "agent-2", T0 + 1000);
        // Released at the end with a hostile reason: it reaches the page as text and as a title.
        hostile = TestAlerts.writeSkewAlert(TestAlerts.SCRIPT_KEY, TestAlerts.ATTRIBUTE_KEY, 100,
                TestAlerts.HOSTILE_HISTORY, T0 + 2000).released(new Release(true, TestAlerts.ATTRIBUTE_KEY));
        Golden.Case readSkewCase = Golden.cases().stream().filter(c -> c.name().equals("G-single-item-read-skew"))
                .findFirst().orElseThrow();
        readSkew = TestAlerts.check(Files.readString(readSkewCase.history()), "agent-1", T0 + 3000).get(0)
                .released(Release.atEnd(AnomalyType.G_SINGLE_ITEM));
        sink = new JsonLinesSinkOptions(file).open();
        for (Alert a : List.of(skew, aborted, hostile, readSkew, skew)) {
            sink.accept(a);
        }
        store = new FindingStore(1000);
        follower = AlertsFileFollower.start(file, new AlertIntake(store, file.toString()), Duration.ofMillis(100));
        server = ConsoleServer.start(InetAddress.getLoopbackAddress(), 0, store);
        base = server.link().base();
        browser = Browser.start();
    }

    @AfterAll
    static void stop() {
        if (browser != null) {
            browser.close();
        }
        server.close();
        follower.close();
        sink.close();
    }

    private static List<String> shownIds() {
        return browser.visible("#findings tbody tr").stream().map(r -> r.getDomAttribute("data-id")).toList();
    }

    private static void openList() {
        browser.driver().get(base + "/");
        browser.await(Duration.ofSeconds(10), d -> shownIds().size() >= store.size() && store.size() >= 4);
    }

    @Test
    void listPage_showsEachFindingOnceNewestFirst_withCountsPerType() {
        openList();
        List<String> ids = shownIds();
        assertEquals(ids.stream().distinct().count(), ids.size(), "the repeated finding is shown once: " + ids);
        List<String> expected = store.newestFirst().stream().map(FindingView::id).toList();
        assertEquals(expected, ids);
        WebElement first = browser.driver().findElement(By.cssSelector("#findings tbody tr"));
        assertTrue(first.getText().contains(store.newestFirst().get(0).alert().type()), first.getText());
        String counts = browser.driver().findElement(By.id("counts")).getText();
        assertTrue(counts.contains("G2-item") && counts.contains("G1a") && counts.contains("G-single-item"), counts);
        WebElement row = browser.driver().findElement(By.cssSelector("tr[data-id='" + skew.id() + "']"));
        assertTrue(row.getText().contains("7 ms after its last transaction"), "the detection delay: " + row.getText());
        assertEquals(List.of(), row.findElements(By.cssSelector(".at-end")), "a live finding carries no flag");
        WebElement settled = browser.driver().findElement(By.cssSelector("tr[data-id='" + readSkew.id() + "']"));
        WebElement flag = settled.findElement(By.cssSelector("td.delay .at-end"));
        assertEquals("at the end of the history", flag.getText());
        assertEquals(Release.SETTLED_CYCLE_REASON, flag.getDomAttribute("title"), "the reason, as the flag's tooltip");
        assertTrue(settled.getText().contains("7 ms after its last transaction"), settled.getText());
        assertTrue(row.getText().contains("repeatable-read"), "the models it rules out: " + row.getText());
        assertTrue(row.getText().contains("agent-1"), row.getText());
        browser.screenshot("console-list");
        assertNoScriptErrors();
    }

    @Test
    void findingAppendedWhileThePageIsOpen_appearsWithoutReload_within2Seconds() {
        openList();
        browser.js("window.__samePage = 'yes';");
        Alert live = TestAlerts.writeSkewAlert("live-1", "live-2", 1000, "agent-3", System.currentTimeMillis());
        long start = System.nanoTime();
        sink.accept(live);
        browser.await(Duration.ofSeconds(2), d -> !d.findElements(By.cssSelector("tr[data-id='" + live.id() + "']")).isEmpty());
        long millis = (System.nanoTime() - start) / 1_000_000;
        assertTrue(millis < 2000, "shown after " + millis + " ms");
        assertEquals("yes", browser.js("return window.__samePage;"), "the page was not reloaded");
        assertEquals(live.id(), shownIds().get(0), "newest first");
        browser.screenshot("console-live-arrival");
    }

    @Test
    void findingsArrivingWhileThePointerIsOnTheList_waitUntilItLeaves_soNoRowMovesUnderIt() {
        openList();
        List<String> before = shownIds();
        WebElement first = browser.driver().findElement(By.cssSelector("#findings tbody tr"));
        Rectangle where = first.getRect();
        Alert held = TestAlerts.writeSkewAlert("held-1", "held-2", 2000, "agent-4", System.currentTimeMillis());
        try {
            new Actions(browser.driver()).moveToElement(first).perform();
            sink.accept(held);
            WebElement notice = browser.await(Duration.ofSeconds(5), d -> {
                WebElement n = d.findElement(By.id("held"));
                return n.isDisplayed() ? n : null;
            });
            assertTrue(notice.getText().startsWith("1 new finding held"), notice.getText());
            assertEquals(before, shownIds(), "no row was added while the pointer was on the list");
            assertEquals(where, first.getRect(), "the row under the pointer did not move");
            browser.screenshot("console-held-arrival");
        } finally {
            new Actions(browser.driver()).moveToElement(browser.driver().findElement(By.tagName("h1"))).perform();
        }
        browser.await(Duration.ofSeconds(2), d -> held.id().equals(shownIds().get(0)));
        assertFalse(browser.driver().findElement(By.id("held")).isDisplayed(), "the notice leaves with the held rows");
        assertEquals(before, shownIds().subList(1, shownIds().size()));
        assertNoScriptErrors();
    }

    @Test
    void findingPage_showsExplanationPictureTransactionsAndJson() {
        browser.driver().get(base + "/findings/" + skew.id());
        WebElement explanation = browser.await(Duration.ofSeconds(10), d -> d.findElement(By.id("explanation")));
        assertEquals(skew.explanation(), explanation.getDomProperty("textContent"));
        assertTrue(skew.explanation().contains("a contradiction!"), skew.explanation());
        WebElement picture = browser.driver().findElement(By.id("cycle"));
        browser.await(Duration.ofSeconds(5), d -> Boolean.TRUE.equals(browser.js(
                "const i = arguments[0]; return i.complete && i.naturalWidth > 0;", picture)));
        assertTrue(picture.getRect().getWidth() > 100 && picture.getRect().getHeight() > 100,
                "drawn with a size: " + picture.getRect().getDimension());
        List<WebElement> txns = browser.driver().findElements(By.cssSelector("#txns tbody tr"));
        assertEquals(2, txns.size());
        assertTrue(txns.get(0).getText().contains("[\"append\",\"x\",1]"), txns.get(0).getText());
        String json = browser.driver().findElement(By.id("finding-json")).getText();
        assertTrue(json.contains("\"id\": \"" + skew.id() + "\""), json);
        assertTrue(browser.driver().findElement(By.id("finding-rules-out")).getText().contains("repeatable-read"));
        assertEquals("7 ms after its last transaction", browser.driver().findElement(By.id("finding-delay")).getText());
        assertTrue(browser.driver().findElement(By.id("finding-released")).getText().startsWith("live"));
        browser.screenshot("console-finding");
        assertNoScriptErrors();

        browser.driver().get(base + "/findings/" + aborted.id());
        browser.await(Duration.ofSeconds(10), d -> d.findElement(By.id("explanation")));
        assertTrue(browser.driver().findElement(By.id("no-picture")).getText().contains("no cycle"));

        browser.driver().get(base + "/findings/" + readSkew.id());
        WebElement released = browser.await(Duration.ofSeconds(10), d -> d.findElement(By.id("finding-released")));
        assertEquals("at the end of the history: " + Release.SETTLED_CYCLE_REASON, released.getText());
        assertNoScriptErrors();
    }

    @Test
    void filters_byTypeModelAndHistory_narrowTheList() {
        openList();
        Select type = new Select(browser.driver().findElement(By.id("filter-type")));
        type.selectByValue("G1a");
        assertEquals(List.of(aborted.id()), shownIds());
        type.selectByValue("");
        Select model = new Select(browser.driver().findElement(By.id("filter-model")));
        // Read-committed is ruled out by the aborted read alone; write and read skew leave it standing.
        model.selectByValue("read-committed");
        assertEquals(List.of(aborted.id()), shownIds());
        model.selectByValue("serializable");
        Set<String> rulingOutSerializable = store.newestFirst().stream()
                .filter(v -> v.ruledOutModels().contains("serializable")).map(FindingView::id).collect(Collectors.toSet());
        assertTrue(rulingOutSerializable.containsAll(Set.of(skew.id(), aborted.id(), hostile.id(), readSkew.id())));
        assertEquals(rulingOutSerializable, Set.copyOf(shownIds()));
        model.selectByValue("");
        Select history = new Select(browser.driver().findElement(By.id("filter-history")));
        history.selectByValue("agent-1");
        assertEquals(Set.of(skew.id(), readSkew.id()), Set.copyOf(shownIds()));
        browser.screenshot("console-filtered");
        history.selectByValue("");
        // A count is a filter too.
        browser.driver().findElement(By.cssSelector("#counts .chip[data-type='G-single-item']")).click();
        assertEquals(List.of(readSkew.id()), shownIds());
        assertEquals("G-single-item", type.getFirstSelectedOption().getDomAttribute("value"));
    }

    @Test
    void hostileKeysAndNames_renderAsText_andRunNoScript() {
        openList();
        WebElement row = browser.driver().findElement(By.cssSelector("tr[data-id='" + hostile.id() + "']"));
        assertTrue(row.getText().contains(TestAlerts.HOSTILE_HISTORY), row.getText());
        assertEquals(TestAlerts.ATTRIBUTE_KEY, row.findElement(By.cssSelector(".at-end")).getDomAttribute("title"));
        assertNoScriptRan();

        browser.driver().get(base + "/findings/" + hostile.id());
        WebElement explanation = browser.await(Duration.ofSeconds(10), d -> d.findElement(By.id("explanation")));
        assertEquals(hostile.explanation(), explanation.getDomProperty("textContent"), "shown as the text it is");
        assertTrue(browser.driver().findElement(By.id("finding-released")).getText().endsWith(TestAlerts.ATTRIBUTE_KEY));
        assertTrue(explanation.getText().contains(TestAlerts.SCRIPT_KEY), explanation.getText());
        String keys = browser.driver().findElement(By.id("txns")).getText();
        assertTrue(keys.contains("\"" + TestAlerts.SCRIPT_KEY + "\""), keys);
        WebElement picture = browser.driver().findElement(By.id("cycle"));
        browser.await(Duration.ofSeconds(5), d -> Boolean.TRUE.equals(browser.js(
                "return arguments[0].complete && arguments[0].naturalWidth > 0;", picture)));
        browser.screenshot("console-hostile-finding");
        assertNoScriptRan();

        browser.driver().get(base + "/history?name=" + java.net.URLEncoder.encode(TestAlerts.HOSTILE_HISTORY,
                java.nio.charset.StandardCharsets.UTF_8));
        WebElement name = browser.await(Duration.ofSeconds(10), d -> d.findElement(By.id("history-name")));
        assertTrue(name.getText().contains(TestAlerts.HOSTILE_HISTORY), name.getText());
        assertNoScriptRan();
    }

    /** A history several agents record shows its agents, on a finding's page and on the history's. */
    @Test
    void fleetHistory_showsTheAgentsOfAFinding_andOfTheHistory() {
        Alert fleet = TestAlerts.writeSkewAlert("fleet-1", "fleet-2", 3000, "shop", T0 + 5000)
                .recordedBy(List.of("shop-1", "shop-0"));
        sink.accept(fleet);
        browser.await(Duration.ofSeconds(10), d -> store.histories().stream().anyMatch(h -> h.history().equals("shop")));
        browser.driver().get(base + "/findings/" + fleet.id());
        WebElement agents = browser.await(Duration.ofSeconds(10), d -> d.findElement(By.id("finding-agents")));
        assertEquals("shop-0, shop-1", agents.getText());
        browser.driver().get(base + "/history?name=shop");
        WebElement ofHistory = browser.await(Duration.ofSeconds(10), d -> d.findElement(By.id("history-agents")));
        assertTrue(ofHistory.getText().startsWith("shop-0, shop-1"), ofHistory.getText());
        browser.driver().get(base + "/findings/" + skew.id());
        browser.await(Duration.ofSeconds(10), d -> d.findElement(By.id("explanation")));
        assertEquals(List.of(), browser.driver().findElements(By.id("finding-agents")), "one agent's history names none");
        assertNoScriptErrors();
    }

    @Test
    void historyPage_saysWhatIsRuledOutAndByWhichFindings() {
        browser.driver().get(base + "/history?name=agent-1");
        WebElement table = browser.await(Duration.ofSeconds(10), d -> d.findElement(By.id("ruled-out")));
        String text = table.getText();
        assertTrue(text.contains("serializable"), text);
        assertTrue(text.contains(skew.id().substring(0, 12)) && text.contains(readSkew.id().substring(0, 12)), text);
        assertEquals("2", browser.driver().findElement(By.id("history-findings-count")).getText());
        WebElement timeline = browser.driver().findElement(By.id("timeline"));
        assertTrue(timeline.getRect().getWidth() > 0);
        List<String> marked = browser.driver().findElements(By.cssSelector("#lattice span.out")).stream()
                .map(WebElement::getText).toList();
        assertTrue(marked.containsAll(List.of("serializable", "repeatable-read", "strong-serializable")), marked.toString());
        assertFalse(marked.contains("read-committed"), "write and read skew leave read-committed standing: " + marked);
        browser.screenshot("console-history");
        assertNoScriptErrors();
    }

    /** No script but the console's ran, and the console's ran without an error. */
    private static void assertNoScriptRan() {
        assertEquals(List.of(), browser.scriptProblems());
        assertEquals(1L, browser.js("return document.scripts.length;"), "only the console's own script");
    }

    /** The page's own script ran without an error (a policy violation would show here too). */
    private static void assertNoScriptErrors() {
        assertEquals(List.of(), browser.consoleLog().stream().filter(l -> l.startsWith("SEVERE")).toList());
    }
}

package io.isowatch.cli;

import io.isowatch.agentcli.ExitCodes;
import io.isowatch.ui.Browser;
import org.junit.jupiter.api.Test;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The "done when": {@code isowatch demo} prints a URL, and a browser opened on it before
 * any finding exists shows write-skew findings arriving live, each with its cycle picture.
 */
class DemoConsoleBrowserIT {

    private static final Pattern CONSOLE = Pattern.compile("findings console: (http://\\S+)/ ");

    @Test
    void demo_printsTheConsolesUrl_whereWriteSkewArrivesLive_withItsPicture() throws Exception {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        AtomicInteger code = new AtomicInteger(-1);
        Thread demo = new Thread(() -> code.set(Main.run(new PrintWriter(out, true), new PrintWriter(err, true),
                "demo", "--isolation", "snapshot-isolation", "-c", "serializable", "--duration", "6",
                "--ui-linger", "2m")));
        demo.start();
        try (Browser browser = Browser.start()) {
            String base = Printed.await(out, CONSOLE, Duration.ofSeconds(60));
            // Opened before the broker and the job are up: everything after this arrives live.
            browser.driver().get(base + "/");
            browser.await(Duration.ofSeconds(10), d -> d.findElement(By.id("findings")));
            browser.js("window.__samePage = 'yes';");
            WebElement skew = browser.await(Duration.ofSeconds(90), d -> d.findElements(By.cssSelector(
                    "#findings tbody tr")).stream().filter(r -> r.getText().contains("G2-item")).findFirst().orElse(null));
            assertEquals("yes", browser.js("return window.__samePage;"), "arrived without a reload");
            browser.screenshot("demo-console-live");

            // Findings keep arriving and rows move under the pointer, so a pointer click can land
            // on another row's link: find and click the write skew's link in one script (the page
            // cannot change in between), and expect its page.
            Object href = browser.js("for (const row of document.querySelectorAll('#findings tbody tr')) {"
                    + " if (row.textContent.includes('G2-item')) {"
                    + " const link = row.querySelector('td.type a'); link.click(); return link.href; } }"
                    + " return null;");
            assertNotNull(href, "a G2-item row with a link");
            WebElement picture = browser.await(Duration.ofSeconds(10), d -> d.findElement(By.id("cycle")));
            browser.await(Duration.ofSeconds(5), d -> Boolean.TRUE.equals(browser.js(
                    "return arguments[0].complete && arguments[0].naturalWidth > 0;", picture)));
            assertTrue(picture.getRect().getWidth() > 100 && picture.getRect().getHeight() > 100,
                    picture.getRect().getDimension().toString());
            assertTrue(browser.driver().findElement(By.id("explanation")).getText().contains("a contradiction!"));
            assertTrue(browser.driver().getCurrentUrl().startsWith(base + "/findings/"));
            assertEquals(href, browser.driver().getCurrentUrl(), "the page of the finding clicked");
            browser.screenshot("demo-console-finding");
            assertEquals(List.of(), browser.scriptProblems());
            Printed.await(out, Pattern.compile(Pattern.quote("The findings console stays at " + base + "/")),
                    Duration.ofSeconds(90));
        } finally {
            // Ends the linger (or, if an assertion failed mid-run, the run).
            demo.interrupt();
            demo.join(120_000);
        }
        assertFalse(demo.isAlive(), "the demo ended");
        assertEquals(ExitCodes.VALID, code.get(), err.toString());
        assertTrue(out.toString().contains("ALERT G2-item"), out.toString());
    }
}

package io.isowatch.ui;

import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.NoAlertPresentException;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.UnexpectedAlertBehaviour;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.function.Function;

/**
 * A headless Chromium for the console's browser tests: the system's {@code chromium} driven
 * through the system's {@code chromedriver} (Debian's {@code chromium} and
 * {@code chromium-driver}; {@code .ci/run} installs them). Selenium's own driver manager is never
 * asked: it would download, and these machines cannot.
 *
 * <p>Script dialogs are left open rather than dismissed, so a test can see whether a page tried
 * to show one ({@link #dialogOpen()}). Shared with the cli's tests (test-jar).
 */
public final class Browser implements AutoCloseable {

    public static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    public static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    /** Where screenshots go, for a reviewer to look at. */
    public static final Path SCREENSHOTS = Path.of("target", "screenshots");

    private final ChromeDriver driver;

    private Browser(ChromeDriver driver) {
        this.driver = driver;
    }

    /** Starts a headless browser; fails with what to install when Chromium is missing. */
    public static Browser start() {
        for (Path p : List.of(CHROMIUM, CHROMEDRIVER)) {
            if (!Files.isExecutable(p)) {
                throw new IllegalStateException(p + " is missing: the browser tests need Debian's chromium and "
                        + "chromium-driver (apt-get install chromium chromium-driver; .ci/run does this)");
            }
        }
        ChromeDriverService service = new ChromeDriverService.Builder()
                .usingDriverExecutable(CHROMEDRIVER.toFile())
                .usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--window-size=1280,1000",
                "--disable-gpu");
        options.setUnhandledPromptBehaviour(UnexpectedAlertBehaviour.IGNORE);
        options.setCapability("goog:loggingPrefs", java.util.Map.of("browser", "ALL"));
        return new Browser(new ChromeDriver(service, options));
    }

    public WebDriver driver() {
        return driver;
    }

    /** Runs {@code script} in the page and returns its value. */
    public Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    /** Waits up to {@code timeout} for {@code condition} to be neither null nor false. */
    public <T> T await(Duration timeout, Function<WebDriver, T> condition) {
        return new WebDriverWait(driver, timeout, Duration.ofMillis(25)).until(condition);
    }

    /** The elements matching a CSS selector that are shown (not hidden by a filter). */
    public List<WebElement> visible(String css) {
        return driver.findElements(By.cssSelector(css)).stream().filter(WebElement::isDisplayed).toList();
    }

    /** Whether a script dialog (alert, confirm, prompt) is open. */
    public boolean dialogOpen() {
        try {
            driver.switchTo().alert();
            return true;
        } catch (NoAlertPresentException e) {
            return false;
        }
    }

    /** What the page logged to its console since the last call (script errors among it). */
    public List<String> consoleLog() {
        return driver.manage().logs().get("browser").getAll().stream()
                .map(e -> e.getLevel() + " " + e.getMessage()).toList();
    }

    /**
     * What shows that a script other than the console's own ran, or that the console's script
     * failed: an open dialog, the mark the tests' hostile values set ({@code window.__xss}),
     * elements such values would inject, and errors in the page's console (a policy violation is
     * one). Empty when the page is clean; reading it clears the console log.
     */
    public List<String> scriptProblems() {
        List<String> problems = new java.util.ArrayList<>();
        if (dialogOpen()) {
            problems.add("a script opened a dialog");
        }
        if (js("return window.__xss === undefined ? null : window.__xss;") != null) {
            problems.add("an injected handler ran (window.__xss is set)");
        }
        if (!driver.findElements(By.cssSelector("img[src='x'], svg[onload], [onerror], [onload]")).isEmpty()) {
            problems.add("an injected element exists");
        }
        consoleLog().stream().filter(l -> l.startsWith("SEVERE")).forEach(problems::add);
        return problems;
    }

    /** Saves a screenshot as {@code target/screenshots/<name>.png}. */
    public Path screenshot(String name) {
        try {
            Files.createDirectories(SCREENSHOTS);
            Path file = SCREENSHOTS.resolve(name + ".png");
            File shot = ((TakesScreenshot) driver).getScreenshotAs(OutputType.FILE);
            Files.copy(shot.toPath(), file, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        driver.quit();
    }
}

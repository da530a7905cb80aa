package io.isowatch.ui;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.Map;

/**
 * The console's page: one HTML shell, one style sheet and one script, read once from this jar's
 * resources, put together for the server (shell linking the other two) or the static report
 * (all inline, with the report's data).
 *
 * <p>The shell holds no value of any history: the server sends the same bytes for every page, and
 * the script fetches and places the data. In the report the data sits in a
 * {@code <script type="application/json">} element as {@link ConsoleJson} wrote it (inert there),
 * and a Content-Security-Policy in a {@code <meta>} element allows exactly the report's own script
 * and style, by hash, and pictures as {@code data:} URLs only.
 */
public final class ConsolePage {

    /** The script, served at {@code /assets/console.js}. */
    public static final String SCRIPT = text("console.js");
    /** The style sheet, served at {@code /assets/console.css}. */
    public static final String STYLE = text("console.css");
    private static final String SHELL = text("console.html");

    /** The server's policy: scripts, styles and data from this origin only; pictures also as data: URLs. */
    public static final String SERVER_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; "
            + "img-src 'self' data:; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private static final String HEAD = "<!--HEAD-->";
    private static final String TAIL = "<!--TAIL-->";

    private ConsolePage() {
    }

    /** The page every route of the server answers with; the script reads the route from the address. */
    public static String serverShell() {
        return fill(Map.of(
                HEAD, "<link rel=\"stylesheet\" href=\"/assets/console.css\">",
                TAIL, "<script src=\"/assets/console.js\"></script>"));
    }

    /**
     * The self-contained report page.
     *
     * @param dataJson the report's data as {@link ConsoleJson} writes it (script-safe)
     */
    public static String report(String dataJson) {
        if (dataJson.contains("<")) {
            throw new IllegalArgumentException("the report's data must be script-safe JSON (ConsoleJson), found '<'");
        }
        String policy = "default-src 'none'; script-src '" + sha256(SCRIPT) + "'; style-src '" + sha256(STYLE)
                + "'; img-src data:; base-uri 'none'; form-action 'none'";
        return fill(Map.of(
                HEAD, "<meta http-equiv=\"Content-Security-Policy\" content=\"" + policy + "\">\n<style>" + STYLE + "</style>",
                TAIL, "<script type=\"application/json\" id=\"isowatch-data\">" + dataJson + "</script>\n<script>"
                        + SCRIPT + "</script>"));
    }

    private static String fill(Map<String, String> parts) {
        String out = SHELL;
        for (Map.Entry<String, String> e : parts.entrySet()) {
            out = out.replace(e.getKey(), e.getValue());
        }
        return out;
    }

    /** A CSP source expression for an inline element's exact text. */
    static String sha256(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return "sha256-" + Base64.getEncoder().encodeToString(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JVM has SHA-256", e);
        }
    }

    private static String text(String name) {
        try (InputStream in = ConsolePage.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException("resource io/isowatch/ui/" + name + " is missing from the ui jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

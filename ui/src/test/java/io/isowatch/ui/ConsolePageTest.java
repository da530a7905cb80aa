package io.isowatch.ui;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class ConsolePageTest {

    @Test
    void serverShell_linksTheAssets_andHoldsNoPlaceholderOrInlineScript() {
        String shell = ConsolePage.serverShell();
        assertTrue(shell.contains("<script src=\"/assets/console.js\"></script>"));
        assertTrue(shell.contains("href=\"/assets/console.css\""));
        assertFalse(shell.contains("<!--HEAD-->") || shell.contains("<!--TAIL-->"));
        assertEquals(1, shell.split("<script").length - 1, "one script element, loaded from the server");
    }

    @Test
    void report_allowsExactlyItsOwnInlineScriptAndStyle_byHash() {
        String page = ConsolePage.report("{\"report\":{}}");
        String policy = page.substring(page.indexOf("content=\"default-src") + 9);
        policy = policy.substring(0, policy.indexOf('"'));
        int script = page.lastIndexOf("<script>") + "<script>".length();
        String inlineScript = page.substring(script, page.indexOf("</script>", script));
        int style = page.indexOf("<style>") + "<style>".length();
        String inlineStyle = page.substring(style, page.indexOf("</style>", style));
        assertEquals(ConsolePage.SCRIPT, inlineScript);
        assertEquals(ConsolePage.STYLE, inlineStyle);
        assertTrue(policy.contains("script-src '" + ConsolePage.sha256(inlineScript) + "'"), policy);
        assertTrue(policy.contains("style-src '" + ConsolePage.sha256(inlineStyle) + "'"), policy);
        assertTrue(policy.contains("img-src data:") && policy.startsWith("default-src 'none'"), policy);
        assertTrue(page.contains("<script type=\"application/json\" id=\"isowatch-data\">{\"report\":{}}</script>"));
    }

    @Test
    void report_refusesDataThatCouldCloseItsScriptElement() {
        assertThrows(IllegalArgumentException.class, () -> ConsolePage.report("{\"a\":\"</script>\"}"));
    }
}

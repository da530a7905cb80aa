package io.isowatch.sinks;

import java.io.Serializable;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.Objects;

/**
 * Where the findings console ({@code isowatch ui}) shows a finding: {@code <base>/findings/<id>}.
 *
 * <p>The one definition of a finding page's address: the sinks put it into alerts (the
 * {@code link} of {@link AlertJson}, the Alertmanager annotation {@code finding_url}) and the
 * console's server routes {@link #FINDINGS_PATH} to the page, so the two cannot drift apart.
 * Serializable, since the Flink job ships it inside its sinks.
 *
 * @param base the console's address as a reader's browser reaches it, without a trailing slash,
 *             e.g. {@code https://isowatch.example.com} or {@code http://127.0.0.1:8642}
 */
public record ConsoleLink(String base) implements Serializable {

    /** The path under which each finding has its page, its id (URL-encoded) following. */
    public static final String FINDINGS_PATH = "/findings/";

    public ConsoleLink {
        Objects.requireNonNull(base, "base");
        URI uri;
        try {
            uri = new URI(base);
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("the console's base URL is not a URL: " + base + " (" + e.getReason() + ")");
        }
        if (!("http".equals(uri.getScheme()) || "https".equals(uri.getScheme())) || uri.getHost() == null
                || uri.getQuery() != null || uri.getFragment() != null) {
            throw new IllegalArgumentException("the console's base URL must be http(s)://HOST[:PORT][/PATH] without "
                    + "query or fragment, e.g. http://127.0.0.1:8642, got " + base);
        }
        while (base.endsWith("/")) {
            base = base.substring(0, base.length() - 1);
        }
    }

    /** The link for {@code baseUrl}, or null when it is empty (no console configured). */
    public static ConsoleLink ofNullable(String baseUrl) {
        return baseUrl == null || baseUrl.isBlank() ? null : new ConsoleLink(baseUrl.trim());
    }

    /** The page of the finding with this id. */
    public String finding(String id) {
        return base + FINDINGS_PATH + URLEncoder.encode(id, StandardCharsets.UTF_8).replace("+", "%20");
    }
}

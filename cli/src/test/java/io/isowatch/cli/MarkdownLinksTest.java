package io.isowatch.cli;

import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every relative link in the repository's Markdown files (README, BENCHMARKS, docs/) names a file
 * that exists inside the repository, and every {@code #anchor} names a heading of its file, as
 * GitHub forms anchors. Links to other sites are not followed; code spans and fenced blocks are
 * skipped. It lives in the launcher's module because that one builds last and sees the whole tree.
 */
class MarkdownLinksTest {

    private static final Pattern LINK = Pattern.compile("(?<!!)\\[[^\\]]*\\]\\(([^)\\s]+)(?:\\s+\"[^\"]*\")?\\)");
    private static final Pattern HEADING = Pattern.compile("^#{1,6}\\s+(.*?)\\s*#*\\s*$");
    private static final Pattern NOT_IN_ANCHOR = Pattern.compile("[^\\w\\- ]", Pattern.UNICODE_CHARACTER_CLASS);
    private static final Pattern CODE_SPAN = Pattern.compile("`[^`]*`");
    private static final Pattern SCHEME = Pattern.compile("^[a-z][a-z0-9+.-]*:");

    @Test
    void everyRelativeLink_resolvesInsideTheRepository() throws IOException {
        Path root = repositoryRoot();
        List<String> broken = new ArrayList<>();
        Map<Path, Set<String>> anchors = new HashMap<>();
        for (Path file : markdownFiles(root)) {
            List<String> lines = proseLines(file);
            for (int i = 0; i < lines.size(); i++) {
                Matcher m = LINK.matcher(CODE_SPAN.matcher(lines.get(i)).replaceAll(""));
                while (m.find()) {
                    String problem = problem(root, file, m.group(1), anchors);
                    if (problem != null) {
                        broken.add(root.relativize(file) + ":" + (i + 1) + ": " + problem);
                    }
                }
            }
        }
        assertTrue(broken.isEmpty(), "broken links:\n" + String.join("\n", broken));
    }

    private static String problem(Path root, Path file, String target, Map<Path, Set<String>> anchors) {
        if (SCHEME.matcher(target).find()) {
            return null;
        }
        int hash = target.indexOf('#');
        String path = hash < 0 ? target : target.substring(0, hash);
        String fragment = hash < 0 ? "" : target.substring(hash + 1);
        Path resolved = path.isEmpty() ? file : file.getParent().resolve(path).normalize();
        if (!resolved.startsWith(root)) {
            return target + " points outside the repository";
        }
        if (!Files.exists(resolved)) {
            return target + ": no such file";
        }
        if (!fragment.isEmpty() && resolved.toString().endsWith(".md")
                && !anchors.computeIfAbsent(resolved, MarkdownLinksTest::anchors).contains(fragment)) {
            return target + ": no heading with anchor #" + fragment + " in " + root.relativize(resolved);
        }
        return null;
    }

    /** GitHub's anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
    private static Set<String> anchors(Path file) {
        Set<String> out = new HashSet<>();
        Map<String, Integer> seen = new HashMap<>();
        for (String line : proseLines(file)) {
            Matcher m = HEADING.matcher(line);
            if (m.matches()) {
                String text = NOT_IN_ANCHOR.matcher(m.group(1).strip().toLowerCase(Locale.ROOT)).replaceAll("");
                String anchor = text.replace(' ', '-');
                int n = seen.merge(anchor, 1, Integer::sum) - 1;
                out.add(n == 0 ? anchor : anchor + "-" + n);
            }
        }
        return out;
    }

    /** The file's lines with those inside fenced code blocks blanked. */
    private static List<String> proseLines(Path file) {
        try {
            List<String> lines = new ArrayList<>(Files.readAllLines(file, StandardCharsets.UTF_8));
            boolean fenced = false;
            for (int i = 0; i < lines.size(); i++) {
                boolean fence = lines.get(i).startsWith("```");
                if (fence || fenced) {
                    lines.set(i, "");
                }
                if (fence) {
                    fenced = !fenced;
                }
            }
            return lines;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static List<Path> markdownFiles(Path root) throws IOException {
        try (Stream<Path> files = Files.walk(root)) {
            return files.filter(p -> p.toString().endsWith(".md"))
                    .filter(p -> {
                        String rel = root.relativize(p).toString().replace('\\', '/');
                        return !rel.startsWith(".") && !rel.contains("/target/") && !rel.startsWith("target/")
                                && !rel.contains("node_modules/") && !rel.startsWith("bench/results/");
                    })
                    .sorted()
                    .toList();
        }
    }

    /** The directory holding README.md and the Maven wrapper: the module's parent when run by Maven. */
    private static Path repositoryRoot() {
        Path dir = Path.of("").toAbsolutePath();
        while (dir != null && !(Files.exists(dir.resolve("README.md")) && Files.exists(dir.resolve("mvnw")))) {
            dir = dir.getParent();
        }
        assertTrue(dir != null, "no repository root above " + Path.of("").toAbsolutePath());
        return dir.normalize();
    }
}

package io.isowatch.config;

import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * "Did you mean ...": the known names nearest to a mistyped one, by edit distance (Levenshtein,
 * case ignored). A name counts as near when at most a third of its letters, and at least two,
 * differ, so {@code serialisable} finds {@code serializable} and {@code chek} finds {@code check},
 * and a name cut short finds the names it begins ({@code snapshot}: {@code snapshot-isolation}),
 * while a name like nothing known finds nothing rather than a guess.
 *
 * <p>Cost O(known names x length^2); meant for error messages, not hot paths.
 */
public final class NearestNames {

    private NearestNames() {
    }

    /** The known names at the smallest edit distance from {@code typed}, if near enough; sorted, at most 3. */
    public static List<String> of(String typed, Collection<String> known) {
        String t = typed.toLowerCase(Locale.ROOT);
        int limit = Math.max(2, t.length() / 3);
        int best = Integer.MAX_VALUE;
        TreeSet<String> nearest = new TreeSet<>();
        for (String name : known) {
            int d = distance(t, name.toLowerCase(Locale.ROOT));
            if (d > limit || d > best) {
                continue;
            }
            if (d < best) {
                best = d;
                nearest.clear();
            }
            nearest.add(name);
        }
        if (nearest.isEmpty() && t.length() >= 3) {
            for (String name : known) {
                if (name.toLowerCase(Locale.ROOT).startsWith(t)) {
                    nearest.add(name); // a name cut short: snapshot for snapshot-isolation
                }
            }
        }
        List<String> out = new ArrayList<>(nearest);
        return out.size() > 3 ? out.subList(0, 3) : out;
    }

    /** {@code "; did you mean serializable?"}, or {@code ""} when no known name is near. */
    public static String didYouMean(String typed, Collection<String> known) {
        List<String> near = of(typed, known);
        return near.isEmpty() ? "" : "; did you mean " + String.join(" or ", near) + "?";
    }

    static int distance(String a, String b) {
        int[] prev = new int[b.length() + 1];
        int[] cur = new int[b.length() + 1];
        for (int j = 0; j <= b.length(); j++) {
            prev[j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            cur[0] = i;
            for (int j = 1; j <= b.length(); j++) {
                int substitute = prev[j - 1] + (a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1);
                cur[j] = Math.min(substitute, Math.min(prev[j] + 1, cur[j - 1] + 1));
            }
            int[] swap = prev;
            prev = cur;
            cur = swap;
        }
        return prev[b.length()];
    }
}

package dev.hmpagent.text;

import java.time.Duration;
import java.util.regex.Pattern;

/**
 * The text helpers every room shares: one line of a text, cut to a length, for command results, error lines and
 * what a person reads. A cut never splits a surrogate pair, and "…" always says that something was cut.
 */
public final class Text {
    private static final Pattern SPACES = Pattern.compile("\\s+");

    private Text() { }

    /** {@code s} on one line (runs of white space become one space), cut at {@code max} characters with "…". */
    public static String oneLine(String s, int max) {
        return cut(collapse(s), max);
    }

    /** Runs of white space (newlines included) as one space, the ends stripped; "" for null. */
    public static String collapse(String s) {
        return s == null ? "" : SPACES.matcher(s.strip()).replaceAll(" ");
    }

    /** The first line of {@code s} once its blank ends are stripped, itself stripped; "" for null or blank. */
    public static String firstLine(String s) {
        return s == null ? "" : s.strip().lines().findFirst().orElse("").strip();
    }

    /** The first {@code max} characters of {@code s} and "…" when it is longer (so at most {@code max + 1}). */
    public static String cut(String s, int max) {
        if (s.length() <= max) return s;
        return s.substring(0, pairSafe(s, max)) + "…";
    }

    /** {@code s} within {@code width} characters, "…" included, for a column or a terminal line. */
    public static String fit(String s, int width) {
        if (s.length() <= width) return s;
        return s.substring(0, pairSafe(s, Math.max(0, width - 1))) + "…";
    }

    /** {@code end}, or one less when the character before it starts a surrogate pair that {@code end} would split. */
    private static int pairSafe(String s, int end) {
        return end > 0 && Character.isHighSurrogate(s.charAt(end - 1)) ? end - 1 : end;
    }

    /** "1 entry", "2 entries": {@code n} with the right form of the noun. */
    public static String count(long n, String one, String many) {
        return n + " " + (n == 1 ? one : many);
    }

    /** A wait as a person reads it: "1 s" … "119 s" (seconds rounded up, at least 1), then whole minutes ("2 min"). */
    public static String duration(Duration d) {
        long s = Math.max(1, (d.toMillis() + 999) / 1000);
        return s < 120 ? s + " s" : (s / 60) + " min";
    }
}

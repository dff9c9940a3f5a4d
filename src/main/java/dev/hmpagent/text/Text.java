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

    /**
     * {@code v} with two decimals, exactly as {@code String.format(Locale.ROOT, "%.2f", v)} writes it (half up, from
     * the shortest decimal that reads back as {@code v}) at a tenth of its cost: a novelty is written into every
     * tick's reply row and prompt.
     */
    public static String twoDecimals(double v) {
        if (!Double.isFinite(v)) return String.format(java.util.Locale.ROOT, "%.2f", v);
        String out = new java.math.BigDecimal(Double.toString(v)).setScale(2, java.math.RoundingMode.HALF_UP)
                .toPlainString();
        // BigDecimal has no negative zero; the formatter keeps the sign of a negative value that rounds to zero
        return out.equals("0.00") && (Double.doubleToRawLongBits(v) < 0) ? "-0.00" : out;
    }

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

    /**
     * A wait as a person reads it, as long as it is: "0.5 s", "1.3 s", "4 s" under 10 s (to the tenth), then whole
     * seconds to 119 s, then whole minutes ("2 min"). Never rounded up: a line saying "2 s" before a retry at 1.25 s
     * made the agent look early.
     */
    public static String duration(Duration d) {
        long millis = Math.max(0, d.toMillis());
        if (millis < 9_950) {
            long tenths = Math.max(1, (millis + 50) / 100);
            return tenths % 10 == 0 ? tenths / 10 + " s" : tenths / 10 + "." + tenths % 10 + " s";
        }
        long s = (millis + 500) / 1000;
        return s < 120 ? s + " s" : (s / 60) + " min";
    }
}

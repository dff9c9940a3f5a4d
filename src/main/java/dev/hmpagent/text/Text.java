package dev.hmpagent.text;

import java.time.Duration;

/** Text helpers for command results and other lines the LLM or a person reads. */
public final class Text {
    private Text() { }

    /** {@code s} on one line (runs of white space become one space), cut at {@code max} characters with "…". */
    public static String oneLine(String s, int max) {
        String one = s == null ? "" : s.strip().replaceAll("\\s+", " ");
        return one.length() > max ? one.substring(0, max) + "…" : one;
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

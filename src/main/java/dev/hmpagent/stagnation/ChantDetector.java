package dev.hmpagent.stagnation;

/**
 * Watches a reply as it streams in for "chanting": a model stuck in a loop that repeats the same sentence or
 * chunk again and again until max_tokens. It fires when the tail of the text is one exact period of at least
 * {@code minPeriod} characters repeated at least {@code repeats} times in a row. Text from the command block
 * on ({@code # Commands:} / {@code # Команды:}) is exempt: twenty similar commands are not chanting.
 *
 * <p>Cheap enough for every delta: the candidate period comes from the previous occurrence of the last
 * {@code minPeriod} characters, and the check runs once per {@code minPeriod} new characters. Not thread-safe:
 * one per call, fed on the thread that streams.
 */
public final class ChantDetector {
    private static final String[] COMMAND_MARKERS = {"# Commands:", "# Команды:"};

    private final int minPeriod;
    private final int repeats;
    private final int maxPeriod;
    private final StringBuilder text = new StringBuilder();
    private int checkedAt;
    private boolean exempt;
    private Found found;

    /** Where the loop begins, its period and how many times it was repeated when it was cut. */
    public record Found(int loopStart, String period, int times) { }

    /**
     * @param minPeriod the shortest repeated chunk that counts (20)
     * @param repeats   how many times in a row (10)
     * @param maxPeriod the longest chunk looked for (a few sentences)
     */
    public ChantDetector(int minPeriod, int repeats, int maxPeriod) {
        if (minPeriod < 1 || repeats < 2 || maxPeriod < minPeriod) throw new IllegalArgumentException("bad limits");
        this.minPeriod = minPeriod;
        this.repeats = repeats;
        this.maxPeriod = maxPeriod;
    }

    /** Adds a delta; returns true once the text chants (and from then on). */
    public boolean feed(String delta) {
        if (found != null) return true;
        if (exempt) return false;
        text.append(delta);
        for (String marker : COMMAND_MARKERS) {
            int at = text.indexOf(marker, Math.max(0, checkedAt - marker.length()));
            if (at >= 0) {
                text.setLength(at);   // what follows is the command block: never chanting
                exempt = true;
                found = check();
                return found != null;
            }
        }
        if (text.length() - checkedAt < minPeriod) return false;
        checkedAt = text.length();
        found = check();
        return found != null;
    }

    /** What was found, or null. */
    public Found found() {
        return found;
    }

    private Found check() {
        int n = text.length();
        if (n < minPeriod * repeats) return null;
        String suffix = text.substring(n - minPeriod);
        // the nearest earlier occurrence of the last chunk gives the only period worth checking at this end
        for (int from = n - minPeriod - 1; from >= Math.max(0, n - minPeriod - maxPeriod); ) {
            int prev = text.lastIndexOf(suffix, from);
            if (prev < 0 || prev < n - minPeriod - maxPeriod) return null;
            int period = n - minPeriod - prev;
            if (period >= minPeriod && n >= period * repeats && repeatsBack(n, period) >= period * (repeats - 1)
                    && !shorterPeriod(n, period)) {
                int run = repeatsBack(n, period);
                int start = n - period - run;
                int times = (run + period) / period;
                return new Found(start, text.substring(start, start + period), times);
            }
            from = prev - 1;
        }
        return null;
    }

    /** Whether the repeated chunk is itself a shorter one repeated ("ok ok ok …"): under minPeriod it is not chanting. */
    private boolean shorterPeriod(int n, int period) {
        for (int d = 1; d < minPeriod; d++) {
            if (period % d == 0 && repeatsBack(n, d) >= period * (repeats - 1)) return true;
        }
        return false;
    }

    /** How many characters back from the end each equals the one {@code period} before it. */
    private int repeatsBack(int n, int period) {
        int i = n - 1;
        while (i - period >= 0 && text.charAt(i) == text.charAt(i - period)) i--;
        return n - 1 - i;
    }
}

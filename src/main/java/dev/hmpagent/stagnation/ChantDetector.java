package dev.hmpagent.stagnation;

import java.util.Arrays;

/**
 * Watches a reply as it streams in for "chanting": a model stuck in a loop that repeats the same sentence or
 * chunk again and again until max_tokens. It fires at the first character after which the text ends with one chunk
 * {@code u} of {@code minPeriod} to {@code maxPeriod} characters written {@code repeats} times in a row, {@code u}
 * not itself a shorter chunk repeated ("ok ok ok …" is "ok " said many times, not "ok ok " said half as many). A
 * second rule catches short phrases (issue 35: a small model wrote {@code 300M} 52 times): a chunk of 2 to
 * {@code minPeriod - 1} characters written {@code shortRepeats} times in a row (30), if it holds a letter or digit and
 * is not digits alone, so a rule of dashes, a table's {@code |---|} row or a long number never chants. Text from the
 * command block on ({@code # Commands:} / {@code # Команды:}) is exempt: twenty similar commands are not chanting.
 * The verdict, and what is found, depend on the text only, never on how it was cut into deltas.
 *
 * <p>Linear in the reply: each character costs O(1) amortised, at most O(maxPeriod / minPeriod) (see
 * {@link #steps()}). Periods are found through the chunk of {@code minPeriod} characters that ends at each
 * character: its earlier occurrences within {@code maxPeriod} (a {@link GramIndex}) are the only periods that can
 * be running there. A period found is then tracked with a counter of how far back the text has repeated at that
 * distance, one comparison per character, until the text departs from it. When the chunk is itself crowded
 * (a period of at most half its length, as in a run of one character) its occurrences are not walked: for
 * {@code repeats} ≥ 3 a true chant always has a chunk that is not crowded, far enough inside it to be found in time
 * (see {@code ChantDetectorPropertiesTest}, which checks against the definition). With {@code repeats} = 2, a chunk
 * that is itself crowded over its whole length and broken only where it joins its copy can go unseen. A crowded
 * chunk's nearest occurrence is the period of a short phrase said over and over: that one distance is tracked.
 *
 * <p>Not thread-safe: one per call, fed on the thread that streams.
 */
public final class ChantDetector {
    private static final String[] COMMAND_MARKERS = {"# Commands:", "# Команды:"};
    /** How many times in a row a short phrase (under {@code minPeriod}) is said before it is chanting. */
    public static final int SHORT_REPEATS = 30;
    /** The shortest phrase the short rule looks for: one character over and over is a rule or a number, not a phrase. */
    private static final int SHORTEST = 2;

    private final int minPeriod;
    private final int repeats;
    private final int shortRepeats;
    private final int maxPeriod;
    private final StringBuilder text = new StringBuilder();
    private final GramIndex chunks;
    private final Tracked tracked;
    private boolean exempt;
    private Found found;
    private long steps;

    /** Where the loop begins, its period and how many times it was repeated when it was cut. */
    public record Found(int loopStart, String period, int times) { }

    /**
     * With the short rule at {@link #SHORT_REPEATS} (more when {@code minPeriod} is so long that a run of the
     * shortest phrase would not fill one chunk of it).
     *
     * @param minPeriod the shortest repeated chunk that counts (20)
     * @param repeats   how many times in a row (10)
     * @param maxPeriod the longest chunk looked for (a few sentences)
     */
    public ChantDetector(int minPeriod, int repeats, int maxPeriod) {
        this(minPeriod, repeats, maxPeriod, Math.max(SHORT_REPEATS, minPeriod / SHORTEST + 2));
    }

    /**
     * @param shortRepeats how many times in a row a phrase of 2 to {@code minPeriod - 1} characters is said before it
     *                     is chanting; 0 for no short rule. A run of the shortest phrase must fill a chunk of
     *                     {@code minPeriod}: the detector finds periods through those chunks
     */
    public ChantDetector(int minPeriod, int repeats, int maxPeriod, int shortRepeats) {
        if (minPeriod < 1 || repeats < 2 || maxPeriod < minPeriod) throw new IllegalArgumentException("bad limits");
        if ((long) maxPeriod * repeats > Integer.MAX_VALUE) throw new IllegalArgumentException("bad limits");
        if (shortRepeats != 0 && (shortRepeats < 2 || SHORTEST * (shortRepeats - 1) < minPeriod
                || (long) minPeriod * shortRepeats > Integer.MAX_VALUE)) {
            throw new IllegalArgumentException("bad limits");
        }
        this.minPeriod = minPeriod;
        this.repeats = repeats;
        this.shortRepeats = shortRepeats;
        this.maxPeriod = maxPeriod;
        this.chunks = new GramIndex(minPeriod, maxPeriod);
        this.tracked = new Tracked(maxPeriod);
    }

    /** Adds a delta; returns true once the text chants (and from then on). */
    public boolean feed(String delta) {
        for (int i = 0; i < delta.length() && found == null && !exempt; i++) {
            char c = delta.charAt(i);
            text.append(c);
            steps++;
            if (c == ':' && commandBlockBegins()) return false;
            add(c);
        }
        return found != null;
    }

    /** What was found, or null. */
    public Found found() {
        return found;
    }

    /** The detector's work so far: characters taken, compared and looked up. Linear in the text; tests check it. */
    long steps() {
        return steps;
    }

    /** Whether the text now ends with a command marker; if so, the text is cut there and the rest exempt. */
    private boolean commandBlockBegins() {
        for (String marker : COMMAND_MARKERS) {
            int at = text.length() - marker.length();
            steps += marker.length();
            if (at >= 0 && text.indexOf(marker, at) == at) {
                text.setLength(at);   // what follows is the command block: never chanting
                exempt = true;
                return true;
            }
        }
        return false;
    }

    /** Takes the character just appended: follows the tracked periods, finds new ones, and checks for a chant. */
    private void add(char c) {
        int end = text.length();
        for (int slot = tracked.size - 1; slot >= 0; slot--) {
            steps++;
            int period = tracked.period[slot];
            if (text.charAt(end - 1 - period) == c) tracked.run[slot]++;
            else tracked.remove(slot);
        }
        chunks.add(c, end > minPeriod ? text.charAt(end - 1 - minPeriod) : 0);
        if (end >= minPeriod) findPeriods(end);
        int chanting = chantingPeriod(end);
        if (chanting > 0) found = foundAt(end, chanting);
    }

    /**
     * Tracks each distance back to an earlier occurrence of the last chunk that is not tracked yet, nearest first.
     * A distance q under minPeriod is tracked too, not as a chant but to skip others: when the text has repeated at
     * distance q for the last c characters, no distance p with q < p ≤ c can chant for as long as it repeats (its
     * run overlaps q's by more than p + q characters, which then have a period dividing p and keep it: a phrase
     * shorter than minPeriod said over and over is judged at its own period, by the short rule), so those are
     * neither walked nor tracked.
     */
    private void findPeriods(int end) {
        long hash = chunks.hash();
        int later = end;
        int covered = 0;
        for (int at = chunks.previous(end); at >= minPeriod && end - at <= maxPeriod; at = chunks.previous(at)) {
            steps++;
            if (chunks.hashAt(at) != hash) continue;
            // two occurrences this close: the chunk is a shorter period repeated; walking them all would cost
            // maxPeriod per character (a run of one character), and a chant is found at another character
            if (later - at <= minPeriod / 2) {
                // the nearest one is a short phrase's period: followed (the short rule), its multiples never walked
                if (later == end && end - at >= SHORTEST && shortRepeats > 0 && !tracked.has(end - at)) track(end, end - at);
                return;
            }
            later = at;
            int period = end - at;
            if (period <= covered) continue;
            if (!tracked.has(period) && !track(end, period)) continue;
            if (period >= minPeriod) continue;
            covered = tracked.runOf(period);
            steps += tracked.size;
            tracked.removeBetween(period, covered);
            if (covered >= maxPeriod) return;
        }
    }

    /** Starts tracking a distance at which the last chunk recurs; false if it does not (two chunks sharing a hash). */
    private boolean track(int end, int period) {
        int limit = period < minPeriod ? Math.max(maxPeriod, period * (shortRepeats - 1)) : period * (repeats - 1);
        int run = repeatsBack(end, period, limit);
        if (run < minPeriod) return false;
        tracked.add(period, run);
        return true;
    }

    /** The shortest tracked period that has just repeated often enough and is not a shorter chunk repeated; 0 if none. */
    private int chantingPeriod(int end) {
        int best = 0;
        for (int slot = 0; slot < tracked.size; slot++) {
            int period = tracked.period[slot];
            int needed = period >= minPeriod ? period * (repeats - 1)
                    : period >= SHORTEST && shortRepeats > 0 ? period * (shortRepeats - 1) : -1;
            if (needed < 0 || tracked.settled[slot] || tracked.run[slot] < needed) continue;
            // judged once per run: a run whose chunk is a shorter one repeated stays so for as long as it lasts
            tracked.settled[slot] = true;
            if ((best == 0 || period < best) && primitive(end - period, end)
                    && (period >= minPeriod || phrase(end - period, end))) {
                best = period;
            }
        }
        return best;
    }

    /** Whether text[from, to) could be words: it holds a letter or digit and is not digits alone (a long number). */
    private boolean phrase(int from, int to) {
        boolean alphanumeric = false;
        boolean digitsOnly = true;
        for (int i = from; i < to; i++) {
            char c = text.charAt(i);
            steps++;
            alphanumeric |= Character.isLetterOrDigit(c);
            digitsOnly &= Character.isDigit(c);
        }
        return alphanumeric && !digitsOnly;
    }

    /** Whether text[from, to) is not a shorter chunk repeated whole (its shortest period does not divide it). */
    private boolean primitive(int from, int to) {
        int n = to - from;
        int[] border = new int[n + 1];
        border[0] = -1;
        for (int i = 1, k = -1; i <= n; i++) {
            while (k >= 0 && text.charAt(from + k) != text.charAt(from + i - 1)) {
                k = border[k];
                steps++;
            }
            border[i] = ++k;
            steps++;
        }
        int shortest = n - border[n];
        return shortest == n || n % shortest != 0;
    }

    private Found foundAt(int end, int period) {
        int run = repeatsBack(end, period, Integer.MAX_VALUE);
        int start = end - period - run;
        return new Found(start, text.substring(start, start + period), (run + period) / period);
    }

    /** How many characters back from {@code end} (at most {@code limit}) each equals the one {@code period} before it. */
    private int repeatsBack(int end, int period, int limit) {
        int i = end - 1;
        while (end - 1 - i < limit && i - period >= 0 && text.charAt(i) == text.charAt(i - period)) {
            i--;
            steps++;
        }
        return end - 1 - i;
    }

    /** The periods being followed, each with how far back the text has repeated at that distance. */
    private static final class Tracked {
        private final int[] slotOf;
        private int[] period = new int[8];
        private int[] run = new int[8];
        private boolean[] settled = new boolean[8];
        private int size;

        Tracked(int maxPeriod) {
            slotOf = new int[maxPeriod + 1];
            Arrays.fill(slotOf, -1);
        }

        boolean has(int p) {
            return slotOf[p] >= 0;
        }

        int runOf(int p) {
            return run[slotOf[p]];
        }

        void add(int p, int r) {
            if (size == period.length) {
                period = Arrays.copyOf(period, size * 2);
                run = Arrays.copyOf(run, size * 2);
                settled = Arrays.copyOf(settled, size * 2);
            }
            period[size] = p;
            run[size] = r;
            settled[size] = false;
            slotOf[p] = size++;
        }

        /** Stops tracking the periods above {@code low} and up to {@code high}. */
        void removeBetween(int low, int high) {
            for (int slot = size - 1; slot >= 0; slot--) {
                if (period[slot] > low && period[slot] <= high) remove(slot);
            }
        }

        void remove(int slot) {
            slotOf[period[slot]] = -1;
            size--;
            if (slot == size) return;
            period[slot] = period[size];
            run[slot] = run[size];
            settled[slot] = settled[size];
            slotOf[period[slot]] = slot;
        }
    }
}

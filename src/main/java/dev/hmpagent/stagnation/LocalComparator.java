package dev.hmpagent.stagnation;

import dev.hmpagent.stagnation.Comparison.Verdict;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Compares two replies without a model call; cheap enough for every tick (about 0.1 ms for two 2 KB replies,
 * four times the word-shingle score alone; a 60 KB pair, 200 units each, about 4 ms). Thread-safe: it holds no state
 * between calls.
 *
 * <h2>Novelty</h2>
 * Both replies are normalised by {@link Words} (NFKC, lower case, punctuation to spaces). Equal
 * word lists are identical: novelty 0, SAME. Otherwise novelty = 1 − max(shingle Jaccard, content Jaccard):
 * the Jaccard of word 3-shingles catches a copy with small edits, the Jaccard of content stems (stopwords and
 * the words of the command format out, each word cut to a crude stem, see {@link Words#contentStems}) catches
 * a paraphrase, which shares ideas but few 3-word runs. Measured on the replies of {@code LocalComparatorTest}
 * (an agent's thought and command block, 1.2-1.8 KB):
 * <ul>
 *   <li>one word changed: 0.02;</li>
 *   <li>the thought paraphrased: 0.46 with the same commands, 0.47 with the commands reworded too (shingles
 *       alone: 0.80 and 0.90);</li>
 *   <li>the next step on the same topic: 0.84-0.89, and 0.80 for one that recaps what the last commands
 *       showed (it shares the topic's words: the paths, the user, the job);</li>
 *   <li>unrelated text: 0.99.</li>
 * </ul>
 * On these texts a threshold of 0.6-0.7 would call the paraphrases SAME and the new steps NEW, but a looser
 * paraphrase or a step that recaps more lands in between: that middle band is where {@link HybridComparator}
 * asks a model.
 *
 * <h2>Ideas</h2>
 * Each reply is cut into units: sentences (ending in . ! ? followed by a space) within lines, a line of a
 * command block (one starting with { [ ] } or ") whole; fences, command markers and units with no content
 * word holding a letter are skipped, and at most {@value #MAX_UNITS} units of each reply are read. A unit of
 * the new reply equal (normalised) to one of the old is kept and listed nowhere; else it is <em>refined</em>
 * when its content Jaccard with the closest old unit is at least {@value #REFINED}, else <em>new</em>. An old
 * unit neither kept nor that close to a new one is <em>discarded</em>. Refined items are the new wording.
 */
public final class LocalComparator implements ReplyComparator {
    static final int MAX_UNITS = 200;
    static final double REFINED = 0.5;

    private static final Pattern BULLET = Pattern.compile("^(?:[-*•]|\\d{1,3}[.)])\\s+");
    private static final Pattern MARKER = Pattern.compile(
            "^(?:\\*\\*)?#{1,3}\\s*(?:commands|команды|end\\s+(?:of\\s+)?commands|конец\\s+команд)\\s*:?(?:\\*\\*)?$",
            Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE);

    private final double noveltyThreshold;

    /** @param noveltyThreshold a reply whose novelty is below this is SAME, else NEW (0..1) */
    public LocalComparator(double noveltyThreshold) {
        if (!(noveltyThreshold >= 0.0 && noveltyThreshold <= 1.0)) {
            throw new IllegalArgumentException("noveltyThreshold must be in 0..1: " + noveltyThreshold);
        }
        this.noveltyThreshold = noveltyThreshold;
    }

    /** Never asks a model. */
    @Override
    public Optional<Comparison> withoutCall(String previous, String current, boolean newCommands) {
        return Optional.of(compare(previous, current));
    }

    @Override
    public Comparison compare(String previous, String current) {
        Objects.requireNonNull(previous, "previous");
        Objects.requireNonNull(current, "current");
        Read a = read(previous);
        Read b = read(current);
        last = b;   // the next reply is compared with this one
        if (a.words().equals(b.words())) return Comparison.identical(Comparison.LOCAL);
        double similarity = Math.max(Words.shingleJaccard(a.shingles(), b.shingles()),
                Words.jaccard(a.stems(), b.stems()));
        double novelty = Math.min(1.0, Math.max(0.0, 1.0 - similarity));
        Verdict verdict = novelty < noveltyThreshold ? Verdict.SAME : Verdict.NEW;
        return ideas(a.units(), b.units(), verdict, novelty);
    }

    /** What the comparison reads of a reply; nothing changes it once made. */
    private record Read(String text, List<String> words, long[] shingles, Set<String> stems, List<Unit> units) { }

    /**
     * The last reply compared as the new one: each tick compares its reply with the one before, which the tick before
     * read already (issue 36). Swapped whole, so any thread sees one reply's reading or another's.
     */
    private volatile Read last;

    private Read read(String text) {
        Read kept = last;
        if (kept != null && kept.text().equals(text)) return kept;
        List<String> words = Words.normalised(text);
        return new Read(text, words, Words.shingleHashes(words), Words.contentStems(words), units(text));
    }

    private static Comparison ideas(List<Unit> olds, List<Unit> news, Verdict verdict, double novelty) {
        boolean[] keptNew = kept(news, olds);
        boolean[] keptOld = kept(olds, news);
        // the closest match of each unit on the other side; units kept as they were take no part
        double[] bestOfNew = new double[news.size()];
        double[] bestOfOld = new double[olds.size()];
        for (int i = 0; i < news.size(); i++) {
            if (keptNew[i]) continue;
            for (int j = 0; j < olds.size(); j++) {
                if (keptOld[j]) continue;
                double s = Words.jaccard(news.get(i).stems(), olds.get(j).stems());
                bestOfNew[i] = Math.max(bestOfNew[i], s);
                bestOfOld[j] = Math.max(bestOfOld[j], s);
            }
        }
        IdeaList added = new IdeaList();
        IdeaList refined = new IdeaList();
        IdeaList discarded = new IdeaList();
        for (int i = 0; i < news.size(); i++) {
            if (!keptNew[i]) (bestOfNew[i] >= REFINED ? refined : added).add(news.get(i).text());
        }
        for (int j = 0; j < olds.size(); j++) {
            if (!keptOld[j] && bestOfOld[j] < REFINED) discarded.add(olds.get(j).text());
        }
        return new Comparison(verdict, novelty, added.toList(), refined.toList(), discarded.toList(),
                Comparison.LOCAL, Comparison.NO_CALL, false);
    }

    /** Which units of {@code these} have an equal (normalised) unit in {@code others}. */
    private static boolean[] kept(List<Unit> these, List<Unit> others) {
        Set<List<String>> words = new HashSet<>();
        for (Unit o : others) words.add(o.words());
        boolean[] out = new boolean[these.size()];
        for (int i = 0; i < out.length; i++) out[i] = words.contains(these.get(i).words());
        return out;
    }

    /** A sentence or a command-block line: its text as written, its normalised words, its content stems. */
    private record Unit(String text, List<String> words, Set<String> stems) { }

    /**
     * The units of a reply in order, at most {@link #MAX_UNITS}. A hand-written scan: splitting with regular
     * expressions cost as much as all the rest of a comparison.
     */
    private static List<Unit> units(String reply) {
        List<Unit> out = new ArrayList<>();
        int n = reply.length();
        for (int start = 0; start < n && out.size() < MAX_UNITS; ) {
            int end = start;
            while (end < n && !isLineBreak(reply.charAt(end))) end++;
            addLine(reply.substring(start, end).strip(), out);
            start = end + 1;
        }
        return out;
    }

    private static void addLine(String line, List<Unit> out) {
        if (line.isEmpty() || line.startsWith("```") || isMarker(line)) return;
        char c = line.charAt(0);
        if (c == '{' || c == '[' || c == '}' || c == ']' || c == '"') {
            add(line, out);   // a line of a command block: its dots are not sentence ends
            return;
        }
        int from = 0;
        for (int i = 0; i < line.length() && out.size() < MAX_UNITS; i++) {
            if (isSentenceEnd(line.charAt(i)) && (i + 1 == line.length() || Character.isWhitespace(line.charAt(i + 1)))) {
                add(line.substring(from, i + 1), out);
                from = i + 1;
            }
        }
        if (from < line.length() && out.size() < MAX_UNITS) add(line.substring(from), out);
    }

    private static void add(String part, List<Unit> out) {
        String text = withoutBullet(part.strip());
        List<String> words = Words.normalised(text);
        Set<String> stems = Words.contentStems(words);
        if (hasLetter(stems)) out.add(new Unit(text, words, stems));
    }

    private static boolean isLineBreak(char c) {
        return c == '\n' || c == '\r' || c == '\u2028' || c == '\u2029' || c == '\u0085' || c == '\u000B' || c == '\f';
    }

    private static boolean isSentenceEnd(char c) {
        return c == '.' || c == '!' || c == '?' || c == '…';
    }

    private static boolean isMarker(String line) {
        char c = line.charAt(0);
        return (c == '#' || c == '*') && MARKER.matcher(line).matches();
    }

    private static String withoutBullet(String part) {
        if (part.isEmpty()) return part;
        char c = part.charAt(0);
        boolean maybe = c == '-' || c == '*' || c == '•' || c >= '0' && c <= '9';
        return maybe ? BULLET.matcher(part).replaceFirst("") : part;
    }

    private static boolean hasLetter(Set<String> stems) {
        for (String s : stems) {
            for (int i = 0; i < s.length(); i++) {
                if (Character.isLetter(s.charAt(i))) return true;
            }
        }
        return false;
    }
}

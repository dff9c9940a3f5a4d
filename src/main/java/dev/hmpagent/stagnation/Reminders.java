package dev.hmpagent.stagnation;

import dev.hmpagent.store.ConceptRow;
import dev.hmpagent.store.ConceptsDao;
import dev.hmpagent.store.DiaryDao;
import dev.hmpagent.store.DiaryRow;
import dev.hmpagent.store.GoalsDao;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.RatingsDao;
import dev.hmpagent.store.ReflexDao;
import dev.hmpagent.store.ResponseRow;
import dev.hmpagent.store.ResponsesDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.WorkItem;
import dev.hmpagent.text.Text;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The effects that only add a text to the next prompts ({@code reflex_items}): in context 1 a question or a nudge,
 * in context 3 something from memory the recent replies did not touch.
 */
final class Reminders {
    private static final int FLASHBACK_CANDIDATES = 500;
    private static final List<String> FRAMES = List.of(
            "look at the problem as a complete outsider would, who has never seen it",
            "invert the problem: what would make it certainly fail, and how do you avoid that?",
            "explain the situation in three sentences to a child, then see what was missing",
            "assume your current approach is wrong: what is the most different approach that could still work?",
            "change the scale: what does this look like ten times bigger, or ten times smaller?",
            "argue the opposite of what you last concluded, as convincingly as you can");

    private final ReflexDao reflex;
    private final RatingsDao ratings;
    private final DiaryDao diary;
    private final ConceptsDao concepts;
    private final GoalsDao goals;
    private final NotesDao notes;
    private final ResponsesDao responses;
    private final IntUnaryOperator random;
    private final Supplier<List<String>> commandTypes;

    Reminders(Store store, IntUnaryOperator random, Supplier<List<String>> commandTypes) {
        this.reflex = store.tables().reflex();
        this.ratings = store.tables().ratings();
        this.diary = store.tables().diary();
        this.concepts = store.tables().concepts();
        this.goals = store.tables().goals();
        this.notes = store.tables().notes();
        this.responses = store.tables().responses();
        this.random = Objects.requireNonNull(random, "random");
        this.commandTypes = Objects.requireNonNull(commandTypes, "commandTypes");
    }

    boolean anyDiaryEntry() {
        return !diary.search("", 1).isEmpty();
    }

    boolean anyConcept() {
        return !concepts.leastRecentlyTouched(1).isEmpty();
    }

    boolean anyCommandType() {
        return !commandTypes.get().isEmpty();
    }

    String metaAnalysis(String strategy, long tickId, long until) {
        Optional<RatingsDao.Rated> method = ratings.thinkingMethods().stream().filter(RatingsDao.Rated::active)
                .max(Comparator.comparingDouble(RatingsDao.Rated::reputation)
                        .thenComparing(RatingsDao.Rated::id, Comparator.reverseOrder()));
        String text = "meta-analysis: if you are going in circles, what is the meta-problem, and which way out"
                + " applies? Answer that first, in your thought, before anything else."
                + method.map(m -> " A thinking method to use: \"" + m.name() + "\": " + m.description()).orElse("");
        reflex.addItem(tickId, strategy, 1, text, until);
        return "asked the meta-question" + method.map(m -> ", with the thinking method \"" + m.name() + "\"").orElse("");
    }

    String goalReformulation(String strategy, long tickId, long until) {
        String focus = focus();
        reflex.addItem(tickId, strategy, 1, "goal reformulation: restate what you are trying to achieve in one"
                + " simpler or sharper sentence, then act on that sentence (record it with task_update or"
                + " goal_update if it changed). Now: " + focus, until);
        return "asked to restate the goal (" + Text.oneLine(focus, 80) + ")";
    }

    String creativeFrame(String strategy, long tickId, long until) {
        String frame = FRAMES.get(random.applyAsInt(FRAMES.size()));
        reflex.addItem(tickId, strategy, 1, "creative intervention: " + frame + ".", until);
        return "a change of frame: " + frame;
    }

    String randomAction(String strategy, long tickId, long until) {
        List<String> types = commandTypes.get();
        String type = types.get(random.applyAsInt(types.size()));
        reflex.addItem(tickId, strategy, 1, "random iteration: break the pattern with a command you have not"
                + " been using: " + type + " (help {\"type\": \"" + type + "\"} shows its arguments).", until);
        return "suggested the command " + type;
    }

    /** A diary entry far in meaning from the recent replies, into context 3. */
    Optional<String> flashback(long tickId, long until) {
        Set<String> recent = Words.contentSet(recentText());
        DiaryRow best = null;
        double bestSimilarity = Double.MAX_VALUE;
        for (DiaryRow d : diary.search("", FLASHBACK_CANDIDATES)) {   // newest first: ties go to the older entry
            if (d.pinned()) continue;
            double similarity = Words.jaccard(recent, Words.contentSet(d.text()));
            if (similarity <= bestSimilarity) {
                bestSimilarity = similarity;
                best = d;
            }
        }
        if (best == null) return Optional.empty();
        reflex.addItem(tickId, "Flashback", 3, "flashback, a diary entry far from your recent thoughts (diary "
                + best.id() + ", " + best.timestamp() + "): " + Text.oneLine(best.text(), 1_500), until);
        return Optional.of("brought back diary entry " + best.id() + " into context 3");
    }

    /** A concept untouched for the longest time (and not in the recent replies), into context 3. */
    Optional<String> interestMemory(long tickId, long until) {
        String recent = recentText().toLowerCase(Locale.ROOT);
        for (ConceptRow c : concepts.leastRecentlyTouched(20)) {
            if (recent.contains(c.name().toLowerCase(Locale.ROOT))) continue;
            reflex.addItem(tickId, "Interest memory", 3, "interest memory, a topic you have not touched for long: "
                    + "concept " + c.id() + " \"" + c.name() + "\""
                    + (c.description().isEmpty() ? "" : ": " + Text.oneLine(c.description(), 500))
                    + (c.links().isEmpty() ? "" : "; links: " + String.join("; ", c.links())), until);
            return Optional.of("brought back the concept \"" + c.name() + "\" into context 3");
        }
        return Optional.empty();
    }

    /** What the agent is working on, in one sentence: the pinned task or goal, else the person's last message. */
    String focus() {
        String work = workFocus();
        if (!work.isEmpty()) return work;
        return notes.list(false, "user", "", 1).stream().findFirst()
                .map(n -> "Your last message: \"" + Text.oneLine(n.text(), 200) + "\".").orElse("");
    }

    /**
     * The pinned task or goal in one sentence, empty when there is none: what may go to another agent (a person's
     * message never does).
     */
    String workFocus() {
        for (WorkItem.Kind kind : List.of(WorkItem.Kind.TASK, WorkItem.Kind.GOAL)) {
            Optional<WorkItem> w = goals.forContext(kind, 1).stream().findFirst();
            if (w.isPresent()) {
                return "The " + kind.word() + " in front of me: \"" + Text.oneLine(w.get().title(), 200) + "\".";
            }
        }
        return "";
    }

    private String recentText() {
        return responses.latest(3).stream().map(ResponseRow::content).collect(Collectors.joining("\n"));
    }
}

package dev.hmpagent.cycle;

import dev.hmpagent.commands.Idle;
import dev.hmpagent.text.Text;
import dev.hmpagent.context.LiveSettings;
import dev.hmpagent.stagnation.Diagnosis;
import dev.hmpagent.stagnation.SignSettings;
import dev.hmpagent.stagnation.StagnationSigns;
import dev.hmpagent.stagnation.Strategy;
import dev.hmpagent.stagnation.StrategyClass;
import dev.hmpagent.stagnation.StrategyPlanner;
import dev.hmpagent.stagnation.StrategyRating;
import dev.hmpagent.stagnation.TickObservation;
import dev.hmpagent.stagnation.Words;
import dev.hmpagent.store.ConceptRow;
import dev.hmpagent.store.ConceptsDao;
import dev.hmpagent.store.DiaryDao;
import dev.hmpagent.store.DiaryRow;
import dev.hmpagent.store.GoalsDao;
import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.RatingsDao;
import dev.hmpagent.store.ReflexDao;
import dev.hmpagent.store.ResponseRow;
import dev.hmpagent.store.ResponsesDao;
import dev.hmpagent.store.SettingsDao;
import dev.hmpagent.store.StagnationDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.WorkItem;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The anti-stagnation reflex, after each LLM tick that got a reply, on the tick thread, in its own short transaction
 * after the tick's: it rates the strategies fired before (the rating rule), reads the signs of stagnation from
 * {@code anti_stagnation_metrics}, diagnoses the source, fires strategies from the catalogue (cheap first, then by
 * reputation, several from different classes, a new round only after the last one was rated and failed) and
 * applies their effects where the next prompt or the file shows them: generation parameters and a shorter history
 * in {@code reflex_state}, text for contexts 1 and 3 in {@code reflex_items}, a question to the person in
 * {@code notes}, an idle in {@code config}, a task switch in {@code tasks}. What needs the outside world (the mesh,
 * feeds) is inactive in the catalogue, never faked.
 */
public final class StagnationReflex {
    static final double TEMPERATURE_STEP = 0.2;
    static final double TEMPERATURE_CAP = 1.5;
    static final double PENALTY_STEP = 0.2;
    static final double PENALTY_CAP = 1.0;
    /** How many ticks an item the reflex adds stays in the prompt (unless a novel reply ends it sooner). */
    static final int ITEM_TICKS = 3;
    /** Most strategies fired at once (from different classes). */
    static final int MAX_STRATEGIES = 2;
    static final String RATER = "reflex";
    private static final int FLASHBACK_CANDIDATES = 500;
    private static final List<String> FRAMES = List.of(
            "look at the problem as a complete outsider would, who has never seen it",
            "invert the problem: what would make it certainly fail, and how do you avoid that?",
            "explain the situation in three sentences to a child, then see what was missing",
            "assume your current approach is wrong: what is the most different approach that could still work?",
            "change the scale: what does this look like ten times bigger, or ten times smaller?",
            "argue the opposite of what you last concluded, as convincingly as you can");

    /**
     * @param signs            the signs of stagnation and their thresholds
     * @param enabled          fire strategies (false: only detect and record)
     * @param ratingTicks      LLM ticks within which novelty must rise for a +1
     * @param maxQuestions     questions to the person with no answer before the reflex stops asking and slows down
     * @param sleep            how long the sleep strategy idles, and the pause between thoughts once slowed down
     * @param taskSwitch       how long a task switch freezes the pinned task
     * @param configured       the configured generation parameters tuning returns to
     * @param configuredHistory the configured number of replies in context 1
     */
    public record Settings(SignSettings signs, boolean enabled, int ratingTicks, int maxQuestions, Duration sleep,
                    Duration taskSwitch, LiveSettings.Generation configured, int configuredHistory) {
        public Settings {
            Objects.requireNonNull(signs, "signs");
            Objects.requireNonNull(sleep, "sleep");
            Objects.requireNonNull(taskSwitch, "taskSwitch");
            Objects.requireNonNull(configured, "configured");
        }
    }

    /** Another LLM to think with for a while (the registry's next entry); {@link #NONE} while there is none. */
    public interface ModelSwitch {
        ModelSwitch NONE = new ModelSwitch() {
            @Override
            public boolean available() { return false; }

            @Override
            public String switchToNext() { throw new IllegalStateException("no other LLM is configured"); }

            @Override
            public Optional<String> restore() { return Optional.empty(); }
        };

        boolean available();

        /** Switches; returns a line saying to what. */
        String switchToNext();

        /** After a novel reply: back to the configured LLM; a line saying so when another one was in use. */
        Optional<String> restore();
    }

    /**
     * What the reflex did after one tick.
     *
     * @param stagnant  the signs said so
     * @param lines     what to tell the person (one line each), in order
     * @param question  the note id and text of a question put to the person, if one was asked
     * @param changed   a knob, an item, an idle or a task changed: the next tick must read its settings again
     */
    record After(boolean stagnant, List<String> lines, Optional<Question> question, boolean changed) {
        static final After NOTHING = new After(false, List.of(), Optional.empty(), false);
    }

    record Question(long noteId, String text) { }

    private final Store store;
    private final Settings settings;
    private final Clock clock;
    private final IntUnaryOperator random;
    private final Supplier<List<String>> commandTypes;
    private final ModelSwitch models;
    private final ReflexDao reflex;
    private final StagnationDao metrics;
    private final RatingsDao ratings;
    private final DiaryDao diary;
    private final ConceptsDao concepts;
    private final GoalsDao goals;
    private final NotesDao notes;
    private final ResponsesDao responses;
    private final SettingsDao runtime;

    /**
     * @param random       {@code bound -> a number in [0, bound)}: the creative frame and the random action
     * @param commandTypes the command types the LLM may use (random iteration picks one)
     */
    public StagnationReflex(Store store, Settings settings, Clock clock, IntUnaryOperator random,
                     Supplier<List<String>> commandTypes, ModelSwitch models) {
        this.store = Objects.requireNonNull(store, "store");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.random = Objects.requireNonNull(random, "random");
        this.commandTypes = Objects.requireNonNull(commandTypes, "commandTypes");
        this.models = Objects.requireNonNull(models, "models");
        this.reflex = new ReflexDao(store);
        this.metrics = new StagnationDao(store);
        this.ratings = new RatingsDao(store);
        this.diary = new DiaryDao(store);
        this.concepts = new ConceptsDao(store);
        this.goals = new GoalsDao(store);
        this.notes = new NotesDao(store);
        this.responses = new ResponsesDao(store);
        this.runtime = new SettingsDao(store);
    }

    /**
     * After tick {@code tickId}'s reply and its {@code anti_stagnation_metrics} row were written.
     *
     * @param novelty       the reply's novelty
     * @param personMessage the tick showed a new message from a person (their answer lifts a slow-down)
     */
    After afterReply(long tickId, double novelty, boolean personMessage) {
        return store.inTransaction(() -> step(tickId, novelty, personMessage));
    }

    private After step(long tickId, double novelty, boolean personMessage) {
        ReflexDao.State before = reflex.state();
        ReflexDao.State state = before;
        List<String> lines = new ArrayList<>();
        boolean changed = false;
        if (personMessage && (state.questions() > 0 || state.slowed())) {
            if (state.slowed()) lines.add("anti-stagnation reflex: the person answered; thinking at the usual pace again");
            state = state.withQuestions(0, false);
        }
        if (state.historyK() != null && state.historyUntil() <= tickId) state = state.withHistory(null, 0);
        changed |= reflex.dropItemsBefore(tickId + 1) > 0;
        if (state.frozenTaskId() != 0 && !clock.instant().isBefore(Instant.parse(state.returnAt()))) {
            state = returnToTask(tickId, state, lines);
        }
        rateFirings(tickId, lines);
        boolean novel = novelty >= settings.signs().noveltyThreshold();
        if (novel) {
            if (state.tuned()) {
                lines.add("anti-stagnation reflex: a novel reply; generation parameters back to the configured ones"
                        + " (temperature " + fmt(settings.configured().temperature()) + ")");
                state = state.withGeneration(null, null, null);
            }
            if (state.historyK() != null) state = state.withHistory(null, 0);
            changed |= reflex.clearItemsBefore(tickId) > 0;
            models.restore().ifPresent(line -> lines.add("anti-stagnation reflex: a novel reply; " + line));   // they did their work; a reminder added now stays
        }
        StagnationSigns.Signs signs = StagnationSigns.evaluate(observations(), settings.signs());
        if (!signs.stagnant()) {
            if (state.episode() != 0) state = state.withEpisode(0, 0);
            return finish(before, state, new After(false, lines, Optional.empty(), changed));
        }
        String described = String.join("; ", signs.describe());
        metrics.markStagnant(tickId, described, "");
        long episode = state.episode() != 0 ? state.episode() : tickId;
        int rounds = state.episode() != 0 ? state.rounds() : 0;
        if (!settings.enabled()) {
            lines.add("stagnation detected at tick " + tickId + " (" + described + "); the reflex is off (stagnation.reflex)");
            return finish(before, state.withEpisode(episode, rounds), new After(true, lines, Optional.empty(), changed));
        }
        List<ReflexDao.Firing> ofEpisode = reflex.ofEpisode(episode);
        if (ofEpisode.stream().anyMatch(f -> f.rating() == null)) {
            // the last round's strategies are still being judged: a new round only after they failed
            return finish(before, state.withEpisode(episode, rounds), new After(true, lines, Optional.empty(), changed));
        }
        if (state.questions() >= settings.maxQuestions() && settings.maxQuestions() > 0 && !state.slowed()) {
            state = state.withQuestions(state.questions(), true);
            lines.add("anti-stagnation reflex: " + state.questions() + " question" + (state.questions() == 1 ? "" : "s")
                    + " to you went unanswered; no more questions, and a pause of " + Text.duration(settings.sleep())
                    + " between thoughts until you write");
            changed = true;
        }
        List<StrategyClass> diagnosis = Diagnosis.diagnose(signs);
        Firing firing = new Firing(tickId, episode, rounds + 1, novelty, diagnosis.stream()
                .map(StrategyClass::configName).collect(Collectors.joining(", ")), state);
        Set<Long> tried = ofEpisode.stream().map(ReflexDao.Firing::strategyId).collect(Collectors.toSet());
        List<Strategy> plan = StrategyPlanner.plan(diagnosis, strategies(firing.state), tried, rounds,
                MAX_STRATEGIES);
        Optional<Question> question = Optional.empty();
        List<String> fired = new ArrayList<>();
        for (Strategy s : plan) {
            Optional<String> done = apply(s, firing);
            if (done.isEmpty()) continue;
            reflex.recordFiring(new ReflexDao.Firing(0, tickId, episode, rounds + 1, fired.size() + 1, s.id(), s.name(),
                    s.strategyClass().configName(), firing.diagnosis, done.get(), novelty, null, null, null));
            fired.add(s.name() + ": " + done.get());
            if (firing.question != null) question = Optional.of(firing.question);
        }
        state = firing.state;
        if (!fired.isEmpty()) {
            metrics.markStagnant(tickId, described, plan.stream().map(Strategy::name).collect(Collectors.joining(", ")));
            state = state.withEpisode(episode, rounds + 1);
            lines.add("anti-stagnation reflex (tick " + tickId + ", " + described + "; " + firing.diagnosis + "): "
                    + String.join("; ", fired));
            changed = true;
        } else {
            state = state.withEpisode(episode, rounds);
            lines.add("stagnation detected at tick " + tickId + " (" + described + "); no strategy can be fired now");
        }
        return finish(before, state, new After(true, lines, question, changed));
    }

    private After finish(ReflexDao.State before, ReflexDao.State after, After result) {
        if (after.equals(before)) return result;
        reflex.save(after);
        boolean knobs = !Objects.equals(before.temperature(), after.temperature())
                || !Objects.equals(before.presencePenalty(), after.presencePenalty())
                || !Objects.equals(before.frequencyPenalty(), after.frequencyPenalty())
                || !Objects.equals(before.historyK(), after.historyK()) || before.slowed() != after.slowed();
        return knobs && !result.changed() ? new After(result.stagnant(), result.lines(), result.question(), true) : result;
    }

    /** The window the signs are read from: metrics rows, oldest first, with growth between consecutive rows. */
    private List<TickObservation> observations() {
        SignSettings s = settings.signs();
        int n = Math.max(Math.max(s.lowNoveltyTicks(), s.noGrowthTicks()), Math.max(s.noStimulusTicks(), s.overheatTicks()))
                + 2;
        List<StagnationDao.Metric> rows = metrics.latest(n);
        List<TickObservation> out = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            StagnationDao.Metric m = rows.get(i);
            // the mark is taken as a tick begins: a change since the tick before is what that tick's commands built
            boolean growth = i > 0 && !m.graphMark().equals(rows.get(i - 1).graphMark());
            out.add(new TickObservation(m.tickId(), m.novelty(), m.identical(), s.repeatSign() ? m.repeatOfTick() : 0,
                    m.stimulus(), m.personMessage(), growth));
        }
        return out;
    }

    /** The rating rule: +1 when novelty rose above the threshold within the rating ticks after a firing, else -1. */
    private void rateFirings(long tickId, List<String> lines) {
        for (ReflexDao.Firing f : reflex.unrated()) {
            List<Double> after = reflex.noveltiesAfter(f.tickId(), settings.ratingTicks());
            OptionalInt rating = StrategyRating.rate(settings.signs().noveltyThreshold(), settings.ratingTicks(), after);
            if (rating.isEmpty()) continue;
            double best = after.stream().mapToDouble(Double::doubleValue).max().orElse(0);
            ratings.add(RATER, RatingsDao.Target.STAGNATION_STRATEGY, f.strategyId(), rating.getAsInt(),
                    String.format(Locale.ROOT, "%+d: novelty %.2f at tick %d, best %.2f in the %d LLM ticks after",
                            rating.getAsInt(), f.noveltyBefore() == null ? 0 : f.noveltyBefore(), f.tickId(), best,
                            after.size()));
            reflex.rate(f.id(), rating.getAsInt(), best, tickId);
            lines.add(String.format(Locale.ROOT, "anti-stagnation reflex: %s rated %+d (novelty %.2f → %.2f)",
                    f.strategy(), rating.getAsInt(), f.noveltyBefore() == null ? 0 : f.noveltyBefore(), best));
        }
    }

    /** The catalogue as the planner sees it: a strategy is available when active and its effect can work now. */
    private List<Strategy> strategies(ReflexDao.State state) {
        List<Strategy> out = new ArrayList<>();
        for (ReflexDao.CatalogueEntry e : reflex.catalogue()) {
            Optional<StrategyClass> c = StrategyClass.of(e.strategyClass());
            if (c.isEmpty()) continue;   // a strategy of the owner's own with no class: the reflex cannot place it
            out.add(new Strategy(e.id(), e.name(), c.get(), e.cost(), e.reputation(), e.rated(),
                    e.active() && applicable(e.effect(), state), e.effect()));
        }
        return out;
    }

    private boolean applicable(String effect, ReflexDao.State state) {
        return switch (effect) {
            case "reflex_tuning" -> settings.configured().temperature() < TEMPERATURE_CAP
                    && (currentTemperature(state) < TEMPERATURE_CAP || currentPresence(state) < PENALTY_CAP);
            case "flashback" -> !diary.search("", 1).isEmpty();
            case "interest_memory" -> !concepts.leastRecentlyTouched(1).isEmpty();
            case "meta_analysis", "goal_reformulation", "creative_frame" -> true;
            case "random_action" -> !commandTypes.get().isEmpty();
            case "change_context" -> settings.configuredHistory() > 1 && state.historyK() == null;
            case "task_switch" -> state.frozenTaskId() == 0 && pinnedTask().isPresent() && otherTask(0).isPresent();
            case "ask_person" -> state.questions() < settings.maxQuestions();
            case "switch_llm" -> models.available();
            case "sleep" -> true;
            default -> false;
        };
    }

    /** One firing being applied: its tick, the state as the strategies change it, the question asked (if any). */
    private static final class Firing {
        final long tickId;
        final long episode;
        final int round;
        final double novelty;
        final String diagnosis;
        ReflexDao.State state;
        Question question;

        Firing(long tickId, long episode, int round, double novelty, String diagnosis, ReflexDao.State state) {
            this.tickId = tickId;
            this.episode = episode;
            this.round = round;
            this.novelty = novelty;
            this.diagnosis = diagnosis;
            this.state = state;
        }
    }

    /** Applies one strategy's effect; returns what was done, or empty when it cannot work after all. */
    private Optional<String> apply(Strategy s, Firing f) {
        long until = f.tickId + ITEM_TICKS;
        switch (s.effect()) {
            case "reflex_tuning" -> {
                double t = raised(currentTemperature(f.state), TEMPERATURE_STEP, TEMPERATURE_CAP);
                double p = raised(currentPresence(f.state), PENALTY_STEP, PENALTY_CAP);
                double q = raised(currentFrequency(f.state), PENALTY_STEP, PENALTY_CAP);
                String done = "temperature " + fmt(currentTemperature(f.state)) + " → " + fmt(t) + ", presence penalty "
                        + fmt(currentPresence(f.state)) + " → " + fmt(p) + ", frequency penalty "
                        + fmt(currentFrequency(f.state)) + " → " + fmt(q) + " until a novel reply";
                f.state = f.state.withGeneration(t, p, q);
                return Optional.of(done);
            }
            case "flashback" -> {
                return flashback(f.tickId, until);
            }
            case "interest_memory" -> {
                return interestMemory(f.tickId, until);
            }
            case "meta_analysis" -> {
                Optional<RatingsDao.Rated> method = ratings.thinkingMethods().stream().filter(RatingsDao.Rated::active)
                        .max(java.util.Comparator.comparingDouble(RatingsDao.Rated::reputation)
                                .thenComparing(RatingsDao.Rated::id, java.util.Comparator.reverseOrder()));
                String text = "meta-analysis: if you are going in circles, what is the meta-problem, and which way out"
                        + " applies? Answer that first, in your thought, before anything else."
                        + method.map(m -> " A thinking method to use: \"" + m.name() + "\": " + m.description()).orElse("");
                reflex.addItem(f.tickId, s.name(), 1, text, until);
                return Optional.of("asked the meta-question" + method.map(m -> ", with the thinking method \""
                        + m.name() + "\"").orElse(""));
            }
            case "goal_reformulation" -> {
                String focus = focus();
                reflex.addItem(f.tickId, s.name(), 1, "goal reformulation: restate what you are trying to achieve in one"
                        + " simpler or sharper sentence, then act on that sentence (record it with task_update or"
                        + " goal_update if it changed). Now: " + focus, until);
                return Optional.of("asked to restate the goal (" + Text.oneLine(focus, 80) + ")");
            }
            case "creative_frame" -> {
                String frame = FRAMES.get(random.applyAsInt(FRAMES.size()));
                reflex.addItem(f.tickId, s.name(), 1, "creative intervention: " + frame + ".", until);
                return Optional.of("a change of frame: " + frame);
            }
            case "random_action" -> {
                List<String> types = commandTypes.get();
                String type = types.get(random.applyAsInt(types.size()));
                reflex.addItem(f.tickId, s.name(), 1, "random iteration: break the pattern with a command you have not"
                        + " been using: " + type + " (help {\"type\": \"" + type + "\"} shows its arguments).", until);
                return Optional.of("suggested the command " + type);
            }
            case "change_context" -> {
                f.state = f.state.withHistory(1, until);
                reflex.addItem(f.tickId, s.name(), 1, "change of context: your earlier replies are hidden for a few"
                        + " ticks (context 1 shows only the last one); start from the data in the other contexts, not"
                        + " from what you said before.", until);
                return Optional.of("context 1 shows one reply instead of " + settings.configuredHistory()
                        + " until tick " + until);
            }
            case "task_switch" -> {
                return taskSwitch(f, until);
            }
            case "ask_person" -> {
                String focus = focus();
                String text = "I seem to be going in circles. " + (focus.isEmpty() ? "" : focus + " ")
                        + "What should I look at differently, or is there something new you can tell me?";
                long id = notes.addFromLlm(text, RATER, f.tickId);
                f.question = new Question(id, text);
                f.state = f.state.withQuestions(f.state.questions() + 1, f.state.slowed());
                return Optional.of("asked you a question (note " + id + ", " + f.state.questions() + " of at most "
                        + settings.maxQuestions() + " without an answer)");
            }
            case "switch_llm" -> {
                return Optional.of(models.switchToNext());
            }
            case "sleep" -> {
                Instant until2 = clock.instant().plus(settings.sleep());
                Idle idle = new Idle(f.tickId, until2, notes.maxUnreadId(NoteFilter.ALL), 0, "", "", "");
                runtime.put(Idle.KEY, idle.toJson());
                reflex.addItem(f.tickId, s.name(), 1, "radical pause: you rested until " + until2 + " to come back"
                        + " with a fresh look; do not pick up the thread you were repeating.", f.tickId + ITEM_TICKS + 1);
                return Optional.of("resting for " + Text.duration(settings.sleep()) + " (a message from you wakes it)");
            }
            default -> {
                return Optional.empty();
            }
        }
    }

    /** A diary entry far in meaning from the recent replies, into context 3. */
    private Optional<String> flashback(long tickId, long until) {
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
    private Optional<String> interestMemory(long tickId, long until) {
        String recent = recentText().toLowerCase(Locale.ROOT);
        for (ConceptRow c : concepts.leastRecentlyTouched(20)) {
            if (recent.contains(c.name().toLowerCase(Locale.ROOT))) continue;
            reflex.addItem(tickId, "Interest memory", 3, "interest memory, a topic you have not touched for long: concept "
                    + c.id() + " \"" + c.name() + "\"" + (c.description().isEmpty() ? "" : ": " + Text.oneLine(c.description(), 500))
                    + (c.links().isEmpty() ? "" : "; links: " + String.join("; ", c.links())), until);
            return Optional.of("brought back the concept \"" + c.name() + "\" into context 3");
        }
        return Optional.empty();
    }

    private Optional<String> taskSwitch(Firing f, long until) {
        Optional<WorkItem> pinned = pinnedTask();
        if (pinned.isEmpty()) return Optional.empty();
        Optional<WorkItem> other = otherTask(pinned.get().id());
        if (other.isEmpty()) return Optional.empty();
        WorkItem a = pinned.get();
        WorkItem b = other.get();
        Instant back = clock.instant().plus(settings.taskSwitch());
        goals.update(WorkItem.Kind.TASK, a.id(), "blocked", null, null, null, null);
        goals.unpin(WorkItem.Kind.TASK, a.id());
        goals.pin(WorkItem.Kind.TASK, b.id(), f.tickId);
        f.state = f.state.withTaskSwitch(a.id(), a.status(), b.id(), back.toString());
        reflex.addItem(f.tickId, "Task switch", 1, "task switch: task " + a.id() + " \"" + a.title() + "\" is frozen"
                + " (blocked) until " + back + "; work on task " + b.id() + " \"" + b.title() + "\" now. You will be"
                + " brought back to task " + a.id() + ".", until);
        return Optional.of("froze task " + a.id() + " until " + back + " and pinned task " + b.id());
    }

    /** The time is up: the frozen task is pinned again with its old status, and a reminder says so. */
    private ReflexDao.State returnToTask(long tickId, ReflexDao.State state, List<String> lines) {
        long frozen = state.frozenTaskId();
        goals.update(WorkItem.Kind.TASK, frozen, state.frozenStatus() == null ? "open" : state.frozenStatus(), null,
                null, null, null);
        goals.pin(WorkItem.Kind.TASK, frozen, tickId);
        if (state.switchedTaskId() != 0) goals.unpin(WorkItem.Kind.TASK, state.switchedTaskId());
        String title = goals.get(WorkItem.Kind.TASK, frozen).map(WorkItem::title).orElse("?");
        reflex.addItem(tickId, "Task switch", 1, "task switch over: back to task " + frozen + " \"" + title
                + "\", which you froze to get out of a loop; look at it with what you did meanwhile.", tickId + ITEM_TICKS);
        lines.add("anti-stagnation reflex: back to task " + frozen + " after the task switch");
        return state.withTaskSwitch(0, null, 0, null);
    }

    private Optional<WorkItem> pinnedTask() {
        return goals.forContext(WorkItem.Kind.TASK, 20).stream()
                .filter(w -> w.pinned() && !WorkItem.Kind.FINISHED.contains(w.status())).findFirst();
    }

    private Optional<WorkItem> otherTask(long except) {
        return goals.forContext(WorkItem.Kind.TASK, 20).stream()
                .filter(w -> !w.pinned() && w.id() != except && !WorkItem.Kind.FINISHED.contains(w.status())
                        && !w.status().equals("blocked"))
                .findFirst();
    }

    /** What the agent is working on, in one sentence: the pinned task or goal, else the person's last message. */
    private String focus() {
        for (WorkItem.Kind kind : List.of(WorkItem.Kind.TASK, WorkItem.Kind.GOAL)) {
            Optional<WorkItem> w = goals.forContext(kind, 1).stream().findFirst();
            if (w.isPresent()) return "The " + kind.word() + " in front of me: \"" + Text.oneLine(w.get().title(), 200) + "\".";
        }
        return notes.list(false, "user", "", 1).stream().findFirst()
                .map(n -> "Your last message: \"" + Text.oneLine(n.text(), 200) + "\".").orElse("");
    }

    private String recentText() {
        return responses.latest(3).stream().map(ResponseRow::content).collect(Collectors.joining("\n"));
    }

    private double currentTemperature(ReflexDao.State s) {
        return s.temperature() == null ? settings.configured().temperature() : s.temperature();
    }

    private double currentPresence(ReflexDao.State s) {
        return s.presencePenalty() == null ? settings.configured().presencePenalty() : s.presencePenalty();
    }

    private double currentFrequency(ReflexDao.State s) {
        return s.frequencyPenalty() == null ? settings.configured().frequencyPenalty() : s.frequencyPenalty();
    }

    /** Whether the reflex slowed the agent down (the pause between thoughts it then imposes). */
    Duration slowDown() {
        return reflex.state().slowed() ? settings.sleep() : Duration.ZERO;
    }

    /** {@code value + step}, at most {@code cap}, rounded to hundredths (0.7 + 0.2 is 0.9, not 0.8999999999999999). */
    private static double raised(double value, double step, double cap) {
        return Math.min(cap, Math.round((value + step) * 100) / 100.0);
    }

    private static String fmt(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }
}

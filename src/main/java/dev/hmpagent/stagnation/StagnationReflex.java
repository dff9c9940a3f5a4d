package dev.hmpagent.stagnation;

import dev.hmpagent.store.ReflexDao;
import dev.hmpagent.store.StagnationDao;
import dev.hmpagent.store.Store;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.IntUnaryOperator;
import java.util.function.Supplier;
import java.util.stream.Collectors;

/**
 * The anti-stagnation reflex, after each LLM tick that got a reply, on the tick thread, in its own short transaction
 * after the tick's: it rates the strategies fired before ({@link FiringRater}), reads the signs of stagnation from
 * {@code anti_stagnation_metrics} ({@link SignWindow}), diagnoses the source, fires strategies from the catalogue
 * (cheap first, then by reputation, several from different classes, a new round only after the last one was rated and
 * failed) and applies their {@link Effects}. The mesh request asks the peers [a2a] allows ({@link Mesh}) and is
 * unavailable while there is none; what needs the rest of the outside world (feeds, sensors) is inactive in the
 * catalogue, never faked. Progress is measured by the world, not by wording: while a recent tick came after news from
 * the world ({@link SignWindow#progressed}), low novelty may tune the temperature and ask the meta-question, never
 * fire a strong strategy ({@link Effect#strong()}) nor slow the agent down.
 */
public final class StagnationReflex {
    /** How many ticks an item the reflex adds stays in the prompt (unless a novel reply ends it sooner). */
    static final int ITEM_TICKS = 3;
    /** Most strategies fired at once (from different classes). */
    static final int MAX_STRATEGIES = 2;
    /** Who the reflex's ratings and questions are from. */
    static final String RATER = "reflex";

    /**
     * What the reflex did after one tick.
     *
     * @param stagnant the signs said so
     * @param lines    what to tell the person (one line each), in order
     * @param asked    the question put to the person, null when none was asked
     * @param changed  a knob, an item, an idle or a task changed: the next tick must read its settings again
     * @param queued   commands were queued for the tick (a mesh request's {@code peer_message}s): run them now
     */
    public record After(boolean stagnant, List<String> lines, Question asked, boolean changed, boolean queued) {
        public After {
            lines = List.copyOf(lines);
        }

        /** The note id and text of a question put to the person, if one was asked. */
        public Optional<Question> question() {
            return Optional.ofNullable(asked);
        }
    }

    /** A question put to the person: its note and its text. */
    public record Question(long noteId, String text) { }

    private final Store store;
    private final ReflexSettings settings;
    private final ReflexDao reflex;
    private final StagnationDao metrics;
    private final FiringRater rater;
    private final Tuning tuning;
    private final Effects effects;
    private final ModelSwitch models;

    /**
     * @param random       {@code bound -> a number in [0, bound)}: the creative frame and the random action
     * @param commandTypes the command types the LLM may use (random iteration picks one)
     * @param idling       how the sleep strategy idles the LLM
     */
    public StagnationReflex(Store store, ReflexSettings settings, Clock clock, IntUnaryOperator random,
                            Supplier<List<String>> commandTypes, ModelSwitch models, Idling idling) {
        this(store, settings, clock, random, commandTypes, models, idling, Mesh.NONE);
    }

    /** As above; {@code mesh}: the peers the mesh request may ask. */
    public StagnationReflex(Store store, ReflexSettings settings, Clock clock, IntUnaryOperator random,
                            Supplier<List<String>> commandTypes, ModelSwitch models, Idling idling, Mesh mesh) {
        this.store = Objects.requireNonNull(store, "store");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.models = Objects.requireNonNull(models, "models");
        this.reflex = store.tables().reflex();
        this.metrics = store.tables().stagnation();
        this.rater = new FiringRater(store, settings.signs().noveltyThreshold(), settings.ratingTicks());
        this.tuning = new Tuning(settings.configured());
        this.effects = new Effects(store, settings, Objects.requireNonNull(clock, "clock"), models, idling, tuning,
                new Reminders(store, random, commandTypes), mesh);
    }

    /**
     * After tick {@code tickId}'s reply and its {@code anti_stagnation_metrics} row were written.
     *
     * @param novelty       the reply's novelty
     * @param personMessage the tick showed a new message from a person (their answer lifts a slow-down)
     */
    public After afterReply(long tickId, double novelty, boolean personMessage) {
        return store.inTransaction(() -> step(tickId, novelty, personMessage));
    }

    /** Whether the reflex slowed the agent down (the pause between thoughts it then imposes). */
    public Duration slowDown() {
        return reflex.state().slowed() ? settings.sleep() : Duration.ZERO;
    }

    private After step(long tickId, double novelty, boolean personMessage) {
        ReflexDao.State before = reflex.state();
        Step step = new Step(tickId, novelty, before);
        endWhatIsOver(step, personMessage);
        rater.rate(tickId, step.lines);
        if (novelty >= settings.signs().noveltyThreshold()) endAfterNovelReply(step);
        List<StagnationDao.Metric> rows = SignWindow.rows(metrics, settings.signs());
        StagnationSigns.Signs signs = StagnationSigns.evaluate(SignWindow.observations(rows, settings.signs()),
                settings.signs());
        step.progressed = SignWindow.progressed(rows, settings.signs());
        if (!signs.stagnant()) {
            if (step.state.episode() != 0) step.state = step.state.withEpisode(0, 0);
            return finish(before, step, false);
        }
        return stagnant(before, step, signs);
    }

    /** A person's answer lifts a slow-down; a shorter history, items and a task switch end when their time is up. */
    private void endWhatIsOver(Step step, boolean personMessage) {
        ReflexDao.State state = step.state;
        if (personMessage && (state.questions() > 0 || state.slowed())) {
            if (state.slowed()) {
                step.lines.add("anti-stagnation reflex: the person answered; thinking at the usual pace again");
            }
            state = state.withQuestions(0, false);
        }
        if (state.historyK() != null && state.historyUntil() <= step.tickId) state = state.withHistory(null, 0);
        step.state = state;
        step.changed |= reflex.dropItemsBefore(step.tickId + 1) > 0;
        effects.tasks().returnWhenDue(step);
    }

    /** A novel reply: the knobs back to the configured ones, the items ended, the configured LLM again. */
    private void endAfterNovelReply(Step step) {
        tuning.restore(step);
        if (step.state.historyK() != null) step.state = step.state.withHistory(null, 0);
        step.changed |= reflex.clearItemsBefore(step.tickId) > 0;
        // they did their work; a reminder added now stays
        models.restore().ifPresent(line -> step.lines.add("anti-stagnation reflex: a novel reply; " + line));
    }

    private After stagnant(ReflexDao.State before, Step step, StagnationSigns.Signs signs) {
        long tickId = step.tickId;
        String described = String.join("; ", signs.describe());
        metrics.markStagnant(tickId, described, "");
        long episode = step.state.episode() != 0 ? step.state.episode() : tickId;
        int rounds = step.state.episode() != 0 ? step.state.rounds() : 0;
        if (!settings.enabled()) {
            step.lines.add("stagnation detected at tick " + tickId + " (" + described
                    + "); the reflex is off (stagnation.reflex)");
            step.state = step.state.withEpisode(episode, rounds);
            return finish(before, step, true);
        }
        List<ReflexDao.Firing> ofEpisode = reflex.ofEpisode(episode);
        if (ofEpisode.stream().anyMatch(f -> f.rating() == null)) {
            // the last round's strategies are still being judged: a new round only after they failed
            step.state = step.state.withEpisode(episode, rounds);
            return finish(before, step, true);
        }
        if (!step.progressed) slowDownWhenUnanswered(step);
        Set<Long> tried = ofEpisode.stream().map(ReflexDao.Firing::strategyId).collect(Collectors.toSet());
        fire(step, signs, described, new Episode(episode, rounds), tried);
        return finish(before, step, true);
    }

    /** After {@code maxQuestions} unanswered questions: no more, and a pause between thoughts until the person writes. */
    private void slowDownWhenUnanswered(Step step) {
        ReflexDao.State state = step.state;
        if (state.questions() < settings.maxQuestions() || settings.maxQuestions() <= 0 || state.slowed()) return;
        step.state = state.withQuestions(state.questions(), true);
        step.lines.add("anti-stagnation reflex: " + state.questions() + " question" + (state.questions() == 1 ? "" : "s")
                + " to you went unanswered; no more questions, and a pause of " + settings.sleepText()
                + " between thoughts until you write");
        step.changed = true;
    }

    /** The stagnation episode in force: the tick it was first detected at, and the rounds fired in it so far. */
    private record Episode(long first, int rounds) { }

    /** Diagnoses, plans and fires a new round of strategies. */
    private void fire(Step step, StagnationSigns.Signs signs, String described, Episode episode, Set<Long> tried) {
        List<StrategyClass> diagnosis = Diagnosis.diagnose(signs);
        String diagnosed = diagnosis.stream().map(StrategyClass::configName).collect(Collectors.joining(", "));
        List<Strategy> plan = StrategyPlanner.plan(diagnosis, catalogue(step), tried, episode.rounds(), MAX_STRATEGIES);
        int round = episode.rounds() + 1;
        List<String> fired = new ArrayList<>();
        for (Strategy s : plan) {
            Optional<String> done = effects.apply(s, step);
            if (done.isEmpty()) continue;
            reflex.recordFiring(new ReflexDao.Firing(0, step.tickId, episode.first(), round, fired.size() + 1, s.id(),
                    s.name(), s.strategyClass().configName(), diagnosed, done.get(), step.novelty, null, null, null));
            fired.add(s.name() + ": " + done.get());
        }
        if (fired.isEmpty()) {
            step.state = step.state.withEpisode(episode.first(), episode.rounds());
            step.lines.add("stagnation detected at tick " + step.tickId + " (" + described
                    + "); no strategy can be fired now");
            return;
        }
        metrics.markStagnant(step.tickId, described, plan.stream().map(Strategy::name).collect(Collectors.joining(", ")));
        step.state = step.state.withEpisode(episode.first(), round);
        step.lines.add("anti-stagnation reflex (tick " + step.tickId + ", " + described + "; " + diagnosed
                + (step.progressed ? "; the world moved within " + SignWindow.lookBack(settings.signs())
                + " ticks, so only the gentle ways" : "") + "): " + String.join("; ", fired));
        step.changed = true;
    }

    /**
     * The catalogue as the planner may use it now: on a run with recent progress in the world, only the strategies
     * whose effect is not {@link Effect#strong()} (issue 23: wording alone never rests, switches or stops working).
     */
    private List<Strategy> catalogue(Step step) {
        List<Strategy> all = effects.catalogue(step.state);
        if (!step.progressed) return all;
        return all.stream().map(s -> s.effect().strong() ? s.unavailable() : s).toList();
    }

    /** Saves a changed state; a changed knob or slow-down makes the next tick read its settings again. */
    private After finish(ReflexDao.State before, Step step, boolean stagnant) {
        ReflexDao.State after = step.state;
        if (!after.equals(before)) {
            reflex.save(after);
            step.changed |= !Objects.equals(before.temperature(), after.temperature())
                    || !Objects.equals(before.presencePenalty(), after.presencePenalty())
                    || !Objects.equals(before.frequencyPenalty(), after.frequencyPenalty())
                    || !Objects.equals(before.historyK(), after.historyK()) || before.slowed() != after.slowed();
        }
        return new After(stagnant, step.lines, step.question, step.changed, step.queued);
    }
}

package dev.hmpagent.stagnation;

import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ReflexDao;
import dev.hmpagent.store.Store;
import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The catalogue as the planner sees it, and each {@link Effect} carried out where the next prompt or the file shows
 * it: generation parameters and a shorter history in {@code reflex_state}, text for contexts 1 and 3 in
 * {@code reflex_items}, a question in {@code notes}, a question to peers as {@code peer_message} commands
 * ({@link Mesh}), an idle through {@link Idling}, a task switch in {@code tasks}.
 */
final class Effects {
    /** The most peers one mesh request asks. */
    static final int MESH_PEERS = 3;
    private final ReflexSettings settings;
    private final Clock clock;
    private final ModelSwitch models;
    private final Idling idling;
    private final ReflexDao reflex;
    private final NotesDao notes;
    private final Tuning tuning;
    private final Reminders reminders;
    private final TaskSwitch tasks;
    private final Mesh mesh;

    Effects(Store store, ReflexSettings settings, Clock clock, ModelSwitch models, Idling idling, Tuning tuning,
            Reminders reminders, Mesh mesh) {
        this.mesh = Objects.requireNonNull(mesh, "mesh");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.models = Objects.requireNonNull(models, "models");
        this.idling = Objects.requireNonNull(idling, "idling");
        this.tuning = Objects.requireNonNull(tuning, "tuning");
        this.reminders = Objects.requireNonNull(reminders, "reminders");
        this.reflex = store.tables().reflex();
        this.notes = store.tables().notes();
        this.tasks = new TaskSwitch(store, clock, settings.taskSwitch());
    }

    TaskSwitch tasks() {
        return tasks;
    }

    /** The catalogue as the planner sees it: a strategy is available when active and its effect can work now. */
    List<Strategy> catalogue(ReflexDao.State state) {
        List<Strategy> out = new ArrayList<>();
        for (ReflexDao.CatalogueEntry e : reflex.catalogue()) {
            Optional<StrategyClass> c = StrategyClass.of(e.strategyClass());
            if (c.isEmpty()) continue;   // a strategy of the owner's own with no class: the reflex cannot place it
            Effect effect = Effect.of(e.effect());
            out.add(new Strategy(e.id(), e.name(), c.get(), e.cost(), e.reputation(), e.rated(),
                    e.active() && applicable(effect, state), effect));
        }
        return out;
    }

    private boolean applicable(Effect effect, ReflexDao.State state) {
        return switch (effect) {
            case REFLEX_TUNING -> tuning.applicable(state);
            case FLASHBACK -> reminders.anyDiaryEntry();
            case INTEREST_MEMORY -> reminders.anyConcept();
            case META_ANALYSIS, GOAL_REFORMULATION, CREATIVE_FRAME, SLEEP -> true;
            case RANDOM_ACTION -> reminders.anyCommandType();
            case CHANGE_CONTEXT -> settings.configuredHistory() > 1 && state.historyK() == null;
            case TASK_SWITCH -> tasks.applicable(state);
            case ASK_PERSON -> state.questions() < settings.maxQuestions();
            case SWITCH_LLM -> models.available();
            case MESH_REQUEST -> !mesh.askable().isEmpty();
            case NONE -> false;
        };
    }

    /** Carries out one strategy's effect; returns what was done, or empty when it cannot work after all. */
    Optional<String> apply(Strategy s, Step step) {
        long tick = step.tickId;
        long until = tick + StagnationReflex.ITEM_TICKS;
        return switch (s.effect()) {
            case REFLEX_TUNING -> Optional.of(tuning.raise(step));
            case FLASHBACK -> reminders.flashback(tick, until);
            case INTEREST_MEMORY -> reminders.interestMemory(tick, until);
            case META_ANALYSIS -> Optional.of(reminders.metaAnalysis(s.name(), tick, until));
            case GOAL_REFORMULATION -> Optional.of(reminders.goalReformulation(s.name(), tick, until));
            case CREATIVE_FRAME -> Optional.of(reminders.creativeFrame(s.name(), tick, until));
            case RANDOM_ACTION -> Optional.of(reminders.randomAction(s.name(), tick, until));
            case CHANGE_CONTEXT -> Optional.of(changeContext(s.name(), step, until));
            case TASK_SWITCH -> tasks.switchAway(step, until);
            case ASK_PERSON -> Optional.of(askPerson(step));
            case SWITCH_LLM -> Optional.of(models.switchToNext());
            case MESH_REQUEST -> askMesh(step);
            case SLEEP -> Optional.of(sleep(s, tick));
            case NONE -> Optional.empty();
        };
    }

    private String changeContext(String strategy, Step step, long until) {
        step.state = step.state.withHistory(1, until);
        reflex.addItem(step.tickId, strategy, 1, "change of context: your earlier replies are hidden for a few"
                + " ticks (context 1 shows only the last one); start from the data in the other contexts, not"
                + " from what you said before.", until);
        return "context 1 shows one reply instead of " + settings.configuredHistory() + " until tick " + until;
    }

    private String askPerson(Step step) {
        String focus = reminders.focus();
        String text = "I seem to be going in circles. " + (focus.isEmpty() ? "" : focus + " ")
                + "What should I look at differently, or is there something new you can tell me?";
        long id = notes.addFromLlm(text, StagnationReflex.RATER, step.tickId);
        step.question = new StagnationReflex.Question(id, text);
        step.state = step.state.withQuestions(step.state.questions() + 1, step.state.slowed());
        return "asked you a question (note " + id + ", " + step.state.questions() + " of at most "
                + settings.maxQuestions() + " without an answer)";
    }

    /**
     * "What would you explore now?" to at most {@link #MESH_PEERS} of the peers [a2a] allows, with the task or goal in
     * front of the agent; sent after the reflex, off the tick. Empty when no peer may be asked any more.
     */
    private Optional<String> askMesh(Step step) {
        List<String> peers = mesh.askable();
        if (peers.isEmpty()) return Optional.empty();
        List<String> asked = List.copyOf(peers.subList(0, Math.min(MESH_PEERS, peers.size())));
        String focus = reminders.workFocus();   // the task or goal; a person's words stay here
        String text = "I seem to be going in circles. " + (focus.isEmpty() ? "" : focus + " ")
                + "What would you explore now? One or two concrete ideas are enough.";
        mesh.ask(step.tickId, asked, text);
        step.queued = true;
        return Optional.of("asked " + String.join(", ", asked) + " what they would explore now (peer_message; their"
                + " answers arrive as results)");
    }

    private String sleep(Strategy s, long tickId) {
        Instant until = clock.instant().plus(settings.sleep());
        idling.restUntil(tickId, until, s.name() + " for " + settings.sleepText() + " (" + s.strategyClass().why() + ")");
        reflex.addItem(tickId, s.name(), 1, "radical pause: you rested until " + until + " to come back"
                + " with a fresh look; do not pick up the thread you were repeating.",
                tickId + StagnationReflex.ITEM_TICKS + 1);
        return "resting for " + settings.sleepText() + ", until " + until + " (a message from you ends it)";
    }
}

package dev.hmpagent.context;

import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.ReflexDao;
import dev.hmpagent.store.SettingsDao;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * The context settings in force for one tick: agent.toml's (the start-up {@link ContextSettings}), changed by
 * what the LLM stored in the {@code config} table ({@code settings_set}, {@code notes_mode}), each LLM value
 * moved into the {@link SettingsBounds}; a stored value that cannot be read falls back to agent.toml's and
 * is reported. A key a person fixed with a command-line flag is never changed by the LLM. Read it once per
 * tick ({@link #snapshot()}): what the LLM sets during a tick applies from the next.
 *
 * <p>The same snapshot carries what the anti-stagnation reflex turned ({@code reflex_state}, {@code reflex_items}):
 * the generation parameters of the main call, a shorter history for a change of context, and the text it adds to
 * contexts 1 and 3. Nothing is fixed at start.
 */
public final class LiveSettings {
    /** The config keys whose command-line flags fix the auto filter. */
    private static final Set<String> FILTER_FLAGS = Set.of(ContextKeys.NOTES_FILTER, "context.notes_min_priority",
            "context.notes_tags");

    /**
     * The settings for one tick.
     *
     * @param setByLlmAtTick the keys whose LLM value is in force (config keys, e.g. {@code cycle.history_k}) and
     *                       the tick the LLM set each in
     * @param problems       stored LLM values not used as stored (clamped, unreadable), one line each
     */
    public record Snapshot(ContextSettings settings, Map<String, Long> setByLlmAtTick, List<String> problems,
                           Generation generation, List<ReflexDao.Item> reflexItems) {
        public Snapshot {
            Objects.requireNonNull(settings, "settings");
            setByLlmAtTick = Map.copyOf(setByLlmAtTick);
            problems = List.copyOf(problems);
            Objects.requireNonNull(generation, "generation");
            reflexItems = List.copyOf(reflexItems);
        }

        /** agent.toml's settings, nothing set by the LLM or the reflex (llm.* at its built-in defaults). */
        public static Snapshot of(ContextSettings settings) {
            return new Snapshot(settings, Map.of(), List.of(), Generation.BUILT_IN, List.of());
        }
    }

    /**
     * The sampling parameters of the main call for one tick.
     *
     * @param tunedByReflex the reflex changed them from the configured values (they return after a novel reply)
     */
    public record Generation(double temperature, double presencePenalty, double frequencyPenalty,
                             boolean tunedByReflex) {
        /** llm.temperature, llm.presence_penalty and llm.frequency_penalty at their built-in defaults. */
        public static final Generation BUILT_IN = new Generation(0.7, 0, 0, false);
    }

    private final ContextSettings defaults;
    private final SettingsBounds bounds;
    private final SettingsDao settings;
    private final Set<String> fixedByFlag;
    private final Generation configured;
    /** Null: no reflex (the generation parameters are the configured ones every tick). */
    private final ReflexDao reflex;

    public LiveSettings(ContextSettings defaults, SettingsBounds bounds, SettingsDao settings) {
        this(defaults, bounds, settings, Set.of());
    }

    /** @param fixedByFlag config keys given on the command line ({@code cycle.history_k}, ...): the LLM cannot change them */
    public LiveSettings(ContextSettings defaults, SettingsBounds bounds, SettingsDao settings, Set<String> fixedByFlag) {
        this(defaults, bounds, settings, fixedByFlag, Generation.BUILT_IN, null);
    }

    /**
     * @param configured the generation parameters agent.toml (or a flag) gives
     * @param reflex     where the anti-stagnation reflex keeps what it turned
     */
    public LiveSettings(ContextSettings defaults, SettingsBounds bounds, SettingsDao settings, Set<String> fixedByFlag,
                        Generation configured, ReflexDao reflex) {
        this.defaults = Objects.requireNonNull(defaults, "defaults");
        this.bounds = Objects.requireNonNull(bounds, "bounds");
        this.settings = Objects.requireNonNull(settings, "settings");
        this.fixedByFlag = Set.copyOf(fixedByFlag);
        this.configured = Objects.requireNonNull(configured, "configured");
        this.reflex = reflex;
    }

    public ContextSettings defaults() { return defaults; }

    public Snapshot snapshot() {
        Map<String, Long> setAt = new LinkedHashMap<>();
        List<String> problems = new ArrayList<>();
        int historyK = historyK(setAt, problems);
        boolean manual = manualNotes(setAt, problems);
        NoteFilter filter = autoFilter(setAt, problems);
        Generation generation = configured;
        List<ReflexDao.Item> items = List.of();
        if (reflex != null) {
            ReflexDao.State r = reflex.state();
            if (r.tuned()) {
                generation = new Generation(r.temperature() == null ? configured.temperature() : r.temperature(),
                        r.presencePenalty() == null ? configured.presencePenalty() : r.presencePenalty(),
                        r.frequencyPenalty() == null ? configured.frequencyPenalty() : r.frequencyPenalty(), true);
            }
            if (r.historyK() != null) historyK = Math.min(historyK, r.historyK());   // a change of context hides replies
            items = reflex.items(0);
        }
        ContextSettings s = new ContextSettings(defaults.agentName(), historyK, defaults.promptBudgetTokens(), manual,
                defaults.notesLimit(), filter, defaults.autonomous());
        return new Snapshot(s, setAt, problems, generation, items);
    }

    /** History K: the LLM's value moved into the bounds, else agent.toml's. */
    private int historyK(Map<String, Long> setAt, List<String> problems) {
        int historyK = defaults.historyK();
        Optional<String> k = stored(ContextKeys.HISTORY_K, Set.of(ContextKeys.HISTORY_K));
        if (k.isEmpty()) return historyK;
        String text = k.get().strip();
        if (!text.matches("-?\\d{1,9}")) {
            problems.add("history_k \"" + text + "\" is not a whole number: using agent.toml's " + historyK);
            return historyK;
        }
        int asked = Integer.parseInt(text);
        historyK = bounds.clampHistoryK(asked);
        if (historyK != asked) {
            problems.add("history_k " + asked + " is outside " + bounds.historyKMin() + " to "
                    + bounds.historyKMax() + ": using " + historyK);
        }
        setAt.put(ContextKeys.HISTORY_K, tick(ContextKeys.HISTORY_K));
        return historyK;
    }

    /** Whether notes come in manual mode: the LLM's choice, else agent.toml's. */
    private boolean manualNotes(Map<String, Long> setAt, List<String> problems) {
        boolean manual = defaults.manualNotes();
        Optional<String> mode = stored(ContextKeys.NOTES_MODE, Set.of(ContextKeys.NOTES_MODE));
        if (mode.isEmpty()) return manual;
        String m = mode.get().strip();
        if (m.equals("manual") || m.equals("auto")) {
            setAt.put(ContextKeys.NOTES_MODE, tick(ContextKeys.NOTES_MODE));
            return m.equals("manual");
        }
        problems.add("notes_mode \"" + m + "\" is neither manual nor auto: using agent.toml's "
                + (manual ? "manual" : "auto"));
        return manual;
    }

    /** The auto mode's filter: the LLM's, else agent.toml's. */
    private NoteFilter autoFilter(Map<String, Long> setAt, List<String> problems) {
        Optional<String> f = stored(ContextKeys.NOTES_FILTER, FILTER_FLAGS);
        if (f.isEmpty()) return defaults.autoFilter();
        try {
            NoteFilter filter = NoteFilter.fromJson(f.get());
            setAt.put(ContextKeys.NOTES_FILTER, tick(ContextKeys.NOTES_FILTER));
            return filter;
        } catch (IllegalArgumentException e) {
            problems.add("notes filter: " + e.getMessage() + ": using agent.toml's");
            return defaults.autoFilter();
        }
    }

    /** The LLM's stored value of {@code key}, unless a flag fixed it. */
    private Optional<String> stored(String key, Set<String> flags) {
        if (flags.stream().anyMatch(fixedByFlag::contains)) return Optional.empty();
        return settings.get(key);
    }

    private long tick(String key) {
        return settings.tickOf(key).orElse(0L);
    }
}

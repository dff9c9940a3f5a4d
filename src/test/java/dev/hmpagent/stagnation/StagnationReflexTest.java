package dev.hmpagent.stagnation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.commands.Idle;
import dev.hmpagent.context.ContextSettings;
import dev.hmpagent.context.LiveSettings;
import dev.hmpagent.context.SettingsBounds;
import dev.hmpagent.cycle.ReflexIdle;
import dev.hmpagent.safety.Guides;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.SafetyMonitor;
import dev.hmpagent.safety.SafetyState;
import dev.hmpagent.safety.SafetyStatus;
import dev.hmpagent.store.ConceptsDao;
import dev.hmpagent.store.GoalsDao;
import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ReflexDao;
import dev.hmpagent.store.ResponsesDao;
import dev.hmpagent.store.SettingsDao;
import dev.hmpagent.store.StagnationDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.WorkItem;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.SqlFile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each strategy's effect, where the next prompt or the file shows it. The window of ticks is written into
 * anti_stagnation_metrics as the cycle would; one strategy at a time is left active (at cost 1, so the first round
 * may take it).
 */
class StagnationReflexTest {
    static final LiveSettings.Generation CONFIGURED = new LiveSettings.Generation(0.7, 0, 0, false);
    /** Low novelty over 2 ticks, no growth and no stimulus over 2, overheated at 3: every class can be diagnosed. */
    static final SignSettings SIGNS = new SignSettings(0.3, 2, true, 2, 2, 3);

    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-24T10:00:00Z");
    Store store;
    StagnationDao metrics;
    ReflexDao reflex;
    ResponsesDao responses;
    long tick;

    /** What the alert command was given, and the lines for the person, once a stop or rest committed. */
    final List<String> alerts = new java.util.ArrayList<>();
    final List<String> notices = new java.util.ArrayList<>();
    SafetyMonitor monitor;

    @BeforeEach
    void open() {
        store = Store.open(dir.resolve("agent.db"), clock);
        monitor = new SafetyMonitor(store, SafetyMonitor.Limits.DEFAULTS, Guides.byName("safety"), alerts::add,
                notices::add);
        metrics = new StagnationDao(store);
        reflex = new ReflexDao(store);
        responses = new ResponsesDao(store);
    }

    @AfterEach
    void close() {
        store.close();
    }

    StagnationReflex reflex(int maxQuestions) {
        return new StagnationReflex(store, new ReflexSettings(SIGNS, true, 2, maxQuestions, Duration.ofMinutes(10),
                Duration.ofHours(1), new ReflexSettings.Generation(0.7, 0, 0), 5), clock, bound -> 0,
                () -> List.of("concept_add", "diary_entry"), ModelSwitch.NONE, new ReflexIdle(monitor));
    }

    /** Only {@code name} may fire, at cost 1. */
    void only(String name) {
        exec("UPDATE stagnation_strategies SET active = CASE name WHEN '" + name + "' THEN 1 ELSE 0 END, cost = 1");
    }

    /** One LLM tick with a reply of this novelty, as the tick writer records it; then the reflex. */
    StagnationReflex.After tick(StagnationReflex r, double novelty, boolean person) {
        return tick(r, novelty, person, false);
    }

    /** As {@link #tick(StagnationReflex, double, boolean)}; {@code progress}: the reply came after news from the world. */
    StagnationReflex.After tick(StagnationReflex r, double novelty, boolean person, boolean progress) {
        tick++;
        store.inTransaction(() -> {
            responses.add(tick, "reply " + tick + " about the nightly backup", "", novelty, 10, 10, false, false, false, "m");
            metrics.record(new StagnationDao.Metric(tick, 0, novelty, "local", novelty < 0.3 ? "same" : "new", 0,
                    false, 0, person, person, "0/0", false, "", false, "", progress));
        });
        return r.afterReply(tick, novelty, person);
    }

    LiveSettings.Snapshot snapshot() {
        ContextSettings settings = new ContextSettings("agent", 5, 6000, false, 20, NoteFilter.ALL, false);
        return new LiveSettings(settings, new SettingsBounds(0, 50), new SettingsDao(store), Set.of(), CONFIGURED, reflex)
                .snapshot();
    }

    List<String> rows(String sql) {
        return new SqlFile(dir.resolve("agent.db")).rows(sql);
    }

    void exec(String sql) {
        new SqlFile(dir.resolve("agent.db")).exec(sql);
    }

    @Test
    void reflex_tuning_raises_temperature_and_penalties_caps_at_one_and_a_half_and_returns_after_a_novel_reply() {
        only("LLM reflex tuning");
        StagnationReflex r = reflex(2);
        tick(r, 0.9, true);
        tick(r, 0.1, false);
        StagnationReflex.After fired = tick(r, 0.1, false);

        assertThat(fired.stagnant()).isTrue();
        assertThat(fired.changed()).isTrue();
        assertThat(snapshot().generation()).isEqualTo(new LiveSettings.Generation(0.9, 0.2, 0.2, true));
        for (int i = 0; i < 8; i++) tick(r, 0.1, false);   // round after round, each rated -1 and tried again
        LiveSettings.Generation capped = snapshot().generation();
        assertThat(capped.temperature()).isEqualTo(1.5);
        assertThat(capped.presencePenalty()).isEqualTo(1.0);
        assertThat(rows("SELECT count(*) FROM ratings WHERE agent_id = 'reflex' AND rating = -1")).isNotEqualTo(List.of("0"));

        StagnationReflex.After novel = tick(r, 0.8, true);   // and a person wrote: the window starts again
        assertThat(snapshot().generation()).isEqualTo(CONFIGURED);
        assertThat(novel.lines()).anyMatch(l -> l.contains("back to the configured ones"));
    }

    @Test
    void a_new_round_waits_until_the_last_one_was_rated() {
        only("Meta-analysis");
        StagnationReflex r = reflex(2);
        tick(r, 0.9, true);
        tick(r, 0.1, false);
        tick(r, 0.1, false);   // fires
        tick(r, 0.1, false);   // still judged: rating_ticks 2, one tick after
        assertThat(reflex.latest(10)).hasSize(1);
        tick(r, 0.1, false);   // rated -1; a new round
        assertThat(reflex.latest(10)).hasSize(2);
        assertThat(reflex.latest(10).get(1).rating()).isEqualTo(-1);
        assertThat(reflex.latest(10).get(0).round()).isEqualTo(2);
    }

    @Test
    void meta_analysis_injects_the_question_and_the_best_rated_thinking_method() {
        exec("INSERT INTO ratings(agent_id, target_type, target_id, rating) SELECT 'self', 'thinking_method', id, 5"
                + " FROM thinking_methods WHERE name = 'Question for an opponent'");
        only("Meta-analysis");
        StagnationReflex r = reflex(2);
        tick(r, 0.9, true);
        tick(r, 0.1, false);
        tick(r, 0.1, false);

        assertThat(snapshot().reflexItems()).singleElement().satisfies(i -> {
            assertThat(i.context()).isEqualTo(1);
            assertThat(i.text()).contains("what is the meta-problem").contains("Question for an opponent");
        });
    }

    @Test
    void change_of_context_shows_one_reply_for_a_few_ticks() {
        only("Change of context");
        StagnationReflex r = reflex(2);
        tick(r, 0.9, true);
        tick(r, 0.1, false);
        tick(r, 0.1, false);
        assertThat(snapshot().settings().historyK()).isEqualTo(1);
        assertThat(snapshot().reflexItems()).extracting(ReflexDao.Item::text)
                .anyMatch(t -> t.startsWith("change of context"));
        tick(r, 0.8, true);   // a novel reply (to a person: the window starts again): the replies come back
        assertThat(snapshot().settings().historyK()).isEqualTo(5);
        assertThat(snapshot().reflexItems()).isEmpty();
    }

    @Test
    void interest_memory_brings_back_the_concept_untouched_longest() {
        ConceptsDao concepts = new ConceptsDao(store);
        concepts.upsert("sourdough", "a starter needs feeding", "self");
        clock.advance(Duration.ofDays(1));
        concepts.upsert("firewall", "rules reload at 02:10", "self");
        only("Interest memory");
        StagnationReflex r = reflex(2);
        tick(r, 0.9, true);
        tick(r, 0.1, false);
        tick(r, 0.1, false);

        assertThat(snapshot().reflexItems()).singleElement().satisfies(i -> {
            assertThat(i.context()).isEqualTo(3);
            assertThat(i.text()).contains("\"sourdough\"").contains("a starter needs feeding");
        });
    }

    @Test
    void goal_reformulation_and_a_creative_frame_and_a_random_command_are_put_to_the_llm() {
        new GoalsDao(store).add(WorkItem.Kind.TASK, 0, "fix the nightly backup", "", 1, "self");
        exec("UPDATE stagnation_strategies SET active = CASE WHEN name IN ('Goal reformulation', 'Random iteration')"
                + " THEN 1 ELSE 0 END, cost = 1");
        StagnationReflex r = reflex(2);
        tick(r, 0.9, true);
        tick(r, 0.1, false);
        tick(r, 0.1, false);

        assertThat(snapshot().reflexItems()).extracting(ReflexDao.Item::text)
                .anyMatch(t -> t.startsWith("goal reformulation") && t.contains("fix the nightly backup"))
                .anyMatch(t -> t.startsWith("random iteration") && t.contains("concept_add"));
        assertThat(reflex.latest(5)).extracting(ReflexDao.Firing::position).containsExactlyInAnyOrder(1, 2);
    }

    @Test
    void a_task_switch_freezes_the_pinned_task_and_returns_to_it_with_a_reminder() {
        GoalsDao goals = new GoalsDao(store);
        long stuck = goals.add(WorkItem.Kind.TASK, 0, "fix the nightly backup", "", 5, "self");
        long other = goals.add(WorkItem.Kind.TASK, 0, "write the monitoring alert", "", 1, "self");
        goals.update(WorkItem.Kind.TASK, stuck, "in_progress", null, null, null, null);
        goals.pin(WorkItem.Kind.TASK, stuck, 0);
        only("Task switch");
        StagnationReflex r = reflex(2);
        tick(r, 0.9, true);
        tick(r, 0.9, false);
        tick(r, 0.9, false);   // no growth, no stimulus: a monotonous context

        assertThat(goals.get(WorkItem.Kind.TASK, stuck).orElseThrow()).satisfies(w -> {
            assertThat(w.status()).isEqualTo("blocked");
            assertThat(w.pinned()).isFalse();
        });
        assertThat(goals.get(WorkItem.Kind.TASK, other).orElseThrow().pinned()).isTrue();

        clock.advance(Duration.ofHours(1));
        StagnationReflex.After back = tick(r, 0.9, true);
        assertThat(goals.get(WorkItem.Kind.TASK, stuck).orElseThrow()).satisfies(w -> {
            assertThat(w.status()).isEqualTo("in_progress");
            assertThat(w.pinned()).isTrue();
        });
        assertThat(goals.get(WorkItem.Kind.TASK, other).orElseThrow().pinned()).isFalse();
        assertThat(snapshot().reflexItems()).extracting(ReflexDao.Item::text)
                .anyMatch(t -> t.startsWith("task switch over: back to task " + stuck));
        assertThat(back.lines()).anyMatch(l -> l.contains("back to task " + stuck));
    }

    @Test
    void questions_to_the_person_stop_after_the_limit_and_the_agent_slows_down_until_they_write() {
        only("Dialogue with the user");
        StagnationReflex r = reflex(1);
        tick(r, 0.9, true);
        tick(r, 0.9, false);
        StagnationReflex.After asked = tick(r, 0.9, false);

        assertThat(asked.question()).isPresent();
        assertThat(rows("SELECT source || ' ' || read FROM notes")).containsExactly("llm 1");
        assertThat(rows("SELECT text FROM notes").get(0)).contains("going in circles").endsWith("?");
        StagnationReflex.After next = tick(r, 0.9, false);   // rated; a new round, but no more questions
        assertThat(next.question()).isEmpty();
        assertThat(next.lines()).anyMatch(l -> l.contains("no more questions"));
        assertThat(r.slowDown()).isEqualTo(Duration.ofMinutes(10));
        assertThat(tick(r, 0.9, false).question()).isEmpty();
        assertThat(rows("SELECT count(*) FROM notes")).containsExactly("1");

        tick(r, 0.9, true);   // the person wrote
        assertThat(r.slowDown()).isZero();
    }

    @Test
    void sleep_rests_the_agent_until_the_configured_time_audited_and_alerted() {
        only("Radical pause");
        StagnationReflex r = reflex(2);
        tick(r, 0.9, true);
        tick(r, 0.1, false);
        StagnationReflex.After after = tick(r, 0.1, false);   // overheated at 3 ticks
        monitor.flush();   // as the cycle does after every tick

        java.time.Instant until = clock.instant().plus(Duration.ofMinutes(10));
        SafetyStatus state = new SafetyControl(store).current();
        assertThat(state.state()).isEqualTo(SafetyState.RESTING);
        assertThat(state.until()).contains(until);
        assertThat(rows("SELECT state || ' ' || until FROM safety_state")).containsExactly("RESTING " + until);
        assertThat(rows("SELECT event || ' ' || from_state || ' ' || to_state || ' ' || detail FROM safety_audit"))
                .singleElement().asString().startsWith("rest ACTIVE RESTING anti-stagnation reflex, after tick 3:")
                .contains("Radical pause for 10 min").endsWith("; until " + until);
        assertThat(alerts).singleElement().asString().startsWith("RESTING: ").endsWith("until " + until);
        assertThat(notices).singleElement().asString().contains("it ends by itself at " + until);
        assertThat(after.lines()).anyMatch(l -> l.contains("until " + until));
        assertThat(Idle.read(new SettingsDao(store))).isEmpty();   // not the LLM's own idle: the LLM cannot end it
    }

    @Test
    void a_run_with_recent_progress_in_the_world_gets_only_the_gentle_ways_and_never_the_radical_pause() {
        exec("UPDATE stagnation_strategies SET cost = 1");   // every strategy affordable in the first round
        StagnationReflex r = reflex(2);
        tick(r, 0.9, true);
        exec("UPDATE reflex_state SET questions = 2");   // unanswered questions: a slow-down is due at the next round
        tick(r, 0.1, false, true);   // the reply came after a command's new result
        StagnationReflex.After after = tick(r, 0.1, false);   // overheated at 3 ticks, the progress 1 tick back

        assertThat(after.stagnant()).isTrue();
        assertThat(r.slowDown()).as("work that moves is not slowed down").isZero();
        assertThat(reflex.latest(5)).isNotEmpty().extracting(ReflexDao.Firing::strategy)
                .allMatch(s -> s.equals("LLM reflex tuning") || s.equals("Meta-analysis"));
        assertThat(Idle.read(new SettingsDao(store))).isEmpty();
        assertThat(after.lines()).anyMatch(l -> l.contains("the world moved within 2 ticks, so only the gentle ways"));

        tick(r, 0.1, false);
        tick(r, 0.1, false);   // no progress in the last 2 ticks: the strong ways again
        assertThat(reflex.latest(10)).extracting(ReflexDao.Firing::strategy).contains("Radical pause");
    }

    @Test
    void what_needs_the_outside_world_is_inactive_and_the_mesh_request_never_fires_without_a_peer() {
        assertThat(rows("SELECT name FROM stagnation_strategies WHERE active = 0 ORDER BY id"))
                .containsExactly("Check the outside world", "Information feeding");
        assertThat(rows("SELECT effect FROM stagnation_strategies WHERE name = 'Mesh request' AND active = 1"))
                .containsExactly("mesh_request");
        exec("UPDATE stagnation_strategies SET active = 0 WHERE class <> 'external_stimulation'");
        exec("UPDATE stagnation_strategies SET cost = 1");
        StagnationReflex r = reflex(0);   // and no questions to the person either
        tick(r, 0.9, true);
        tick(r, 0.9, false);
        StagnationReflex.After after = tick(r, 0.9, false);

        assertThat(after.stagnant()).isTrue();
        assertThat(reflex.latest(5)).isEmpty();
        assertThat(after.lines()).anyMatch(l -> l.contains("no strategy can be fired now"));
    }
}

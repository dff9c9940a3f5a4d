package dev.hmpagent.context;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.SettingsDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LiveSettingsTest {
    static final ContextSettings TOML = new ContextSettings("tester", 5, 6000, false, 20,
            new NoteFilter(0, List.of("ops")), false);
    @TempDir Path dir;
    Store store;
    SettingsDao dao;
    LiveSettings live;

    @BeforeEach
    void open() {
        store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-21T10:00:00Z"));
        dao = new SettingsDao(store);
        live = new LiveSettings(TOML, new SettingsBounds(2, 10), dao);
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void with_nothing_stored_the_snapshot_is_agent_tomls() {
        LiveSettings.Snapshot s = live.snapshot();
        assertThat(s.settings()).isEqualTo(TOML);
        assertThat(s.setByLlmAtTick()).isEmpty();
        assertThat(s.problems()).isEmpty();
    }

    @Test
    void llm_values_within_the_bounds_apply_at_the_next_snapshot_with_the_tick_they_were_set_in() {
        dao.putAtTick(ContextKeys.HISTORY_K, "8", 12);
        dao.putAtTick(ContextKeys.NOTES_MODE, "manual", 13);
        dao.putAtTick(ContextKeys.NOTES_FILTER, "{\"min_priority\": 1, \"sources\": [\"cli\"]}", 13);

        LiveSettings.Snapshot s = live.snapshot();

        assertThat(s.settings().historyK()).isEqualTo(8);
        assertThat(s.settings().manualNotes()).isTrue();
        assertThat(s.settings().autoFilter()).isEqualTo(new NoteFilter(1, List.of(), List.of("cli"), ""));
        assertThat(s.settings().promptBudgetTokens()).as("what the LLM cannot set stays").isEqualTo(6000);
        assertThat(s.setByLlmAtTick()).isEqualTo(Map.of(ContextKeys.HISTORY_K, 12L, ContextKeys.NOTES_MODE, 13L,
                ContextKeys.NOTES_FILTER, 13L));
        assertThat(s.problems()).isEmpty();

        dao.putAtTick(ContextKeys.HISTORY_K, "3", 14);
        assertThat(live.snapshot().settings().historyK()).as("read per tick").isEqualTo(3);
    }

    @Test
    void a_stored_value_outside_the_bounds_is_clamped_and_an_unreadable_one_falls_back_with_a_line_saying_so() {
        dao.putAtTick(ContextKeys.HISTORY_K, "50", 3);
        dao.putAtTick(ContextKeys.NOTES_MODE, "sometimes", 3);
        dao.putAtTick(ContextKeys.NOTES_FILTER, "{\"sources\": [\"email\"]}", 3);

        LiveSettings.Snapshot s = live.snapshot();

        assertThat(s.settings().historyK()).isEqualTo(10);
        assertThat(s.settings().manualNotes()).isFalse();
        assertThat(s.settings().autoFilter()).isEqualTo(TOML.autoFilter());
        assertThat(s.problems()).containsExactly("history_k 50 is outside 2 to 10: using 10",
                "notes_mode \"sometimes\" is neither manual nor auto: using agent.toml's auto",
                "notes filter: filter.sources: unknown source \"email\"; sources are cli, peer, system, user: using agent.toml's");
        dao.putAtTick(ContextKeys.HISTORY_K, "x", 4);
        assertThat(live.snapshot().settings().historyK()).isEqualTo(5);
        assertThat(live.snapshot().setByLlmAtTick()).doesNotContainKey(ContextKeys.HISTORY_K);
    }

    @Test
    void a_key_fixed_by_a_command_line_flag_is_never_changed_by_the_llm() {
        dao.putAtTick(ContextKeys.HISTORY_K, "8", 12);
        dao.putAtTick(ContextKeys.NOTES_MODE, "manual", 12);
        LiveSettings flagged = new LiveSettings(TOML, new SettingsBounds(2, 10), dao, Set.of("cycle.history_k"));
        assertThat(flagged.snapshot().settings().historyK()).isEqualTo(5);
        assertThat(flagged.snapshot().settings().manualNotes()).isTrue();
    }
}

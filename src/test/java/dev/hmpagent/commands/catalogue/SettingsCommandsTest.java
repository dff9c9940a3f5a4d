package dev.hmpagent.commands.catalogue;

import static dev.hmpagent.commands.catalogue.CommandFixture.context;
import dev.hmpagent.commands.CommandRun;
import dev.hmpagent.context.ContextKeys;
import dev.hmpagent.context.ReplyWindow;
import dev.hmpagent.context.SettingsBounds;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.context.AssembledPrompt;
import dev.hmpagent.store.ResponsesDao;
import dev.hmpagent.store.SettingsDao;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SettingsCommandsTest {
    static final SettingsBounds BOUNDS = new SettingsBounds(1, 6);
    @TempDir Path dir;
    CommandFixture f;
    SettingsDao settings;

    @BeforeEach
    void open() {
        f = new CommandFixture(dir, new CommandOptions(100, BOUNDS));
        settings = new SettingsDao(f.store);
        ResponsesDao responses = new ResponsesDao(f.store);
        for (int tick = 1; tick <= 8; tick++) {
            responses.add(tick, "reply of tick " + tick, null, null, 1, 1, false, false, false, "m");
        }
    }

    @AfterEach
    void close() {
        f.close();
    }

    @Test
    void history_k_within_the_bounds_applies_from_the_next_tick_and_says_who_set_it() {
        // 8 replies; each prompt here is a run's first, which shows the last K (ReplyWindow)
        assertThat(context(f.livePrompt(9, BOUNDS).messages().get(1).content(), 1)).as("agent.toml's 3")
                .contains("reply of tick 6").doesNotContain("reply of tick 5");

        CommandRun set = f.one(9, "settings_set", "{\"key\": \"history_k\", \"value\": 5}");

        assertThat(set.result()).isEqualTo("history_k is 5 from the next tick: context 1 shows your last 5 to 14 replies");
        assertThat(settings.get(ContextKeys.HISTORY_K)).contains("5");
        assertThat(settings.tickOf(ContextKeys.HISTORY_K)).contains(9L);
        AssembledPrompt next = f.livePrompt(10, BOUNDS);
        String user = next.messages().get(1).content();
        assertThat(context(user, 1)).contains("reply of tick 4").doesNotContain("reply of tick 3");
        assertThat(context(user, 5)).contains("history 5 replies (set by you at tick 9)");
        assertThat(f.registry.find("settings_set").orElseThrow().informs()).isFalse();
    }

    @Test
    void a_value_outside_the_bounds_is_refused_with_the_range_and_nothing_changes() {
        CommandRun tooMany = f.one(9, "settings_set", "{\"key\": \"cycle.history_k\", \"value\": \"50\"}");
        assertThat(tooMany.status()).isEqualTo("error");
        assertThat(tooMany.result()).isEqualTo("settings_set: history_k 50 is outside what agent.toml allows; choose from 1 to 6");
        assertThat(settings.get(ContextKeys.HISTORY_K)).isEmpty();
        assertThat(f.one(10, "settings_set", "{\"key\": \"history_k\", \"value\": \"many\"}").result())
                .contains("args.value must be a whole number for history_k");
    }

    @Test
    void a_stored_value_the_bounds_no_longer_allow_is_clamped_and_the_llm_is_told() {
        settings.putAtTick(ContextKeys.HISTORY_K, "9", 4);   // allowed when agent.toml said 1 to 10
        String five = context(f.livePrompt(9, BOUNDS).messages().get(1).content(), 5);
        assertThat(five).contains("history 6 replies (set by you at tick 4)")
                .contains("settings you stored that do not apply as stored: history_k 9 is outside 1 to 6: using 6");
    }

    @Test
    void only_the_listed_keys_can_be_written() {
        CommandRun refused = f.one(9, "settings_set", "{\"key\": \"safety.budget\", \"value\": 1000000}");
        assertThat(refused.status()).isEqualTo("error");
        assertThat(refused.result()).isEqualTo("settings_set: \"safety.budget\" is not a setting you may change; you may set "
                + "history_k, notes_mode, notes_filter");
        assertThat(settings.all()).doesNotContainKey("safety.budget");
    }

    @Test
    void notes_mode_and_filter_through_settings_set_are_the_same_as_notes_mode() {
        f.run(9, """
                [{"type": "settings_set", "args": {"key": "notes_mode", "value": "manual"}},
                 {"type": "settings_set", "args": {"key": "notes_filter", "value": {"min_priority": 2}}}]""");
        assertThat(settings.get(ContextKeys.NOTES_MODE)).contains("manual");
        assertThat(settings.get(ContextKeys.NOTES_FILTER)).contains("{\"min_priority\":2}");
        f.one(10, "settings_set", "{\"key\": \"notes_mode\", \"value\": {\"mode\": \"auto\", \"filter\": {\"tags\": \"ops\"}}}");
        assertThat(context(f.livePrompt(11, BOUNDS).messages().get(1).content(), 5))
                .contains("notes mode auto (filter: tags ops) (set by you at tick 10)");
    }
}

package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.context.SettingsBounds;
import dev.hmpagent.commands.Idle;
import dev.hmpagent.commands.catalogue.IdleCommands;
import dev.hmpagent.context.ContextSettings;
import dev.hmpagent.context.LiveSettings;
import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.SettingsDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The wake rule alone: what wakes the LLM, and what keeps it asleep, against a real file and a fake clock. */
class WakeRuleTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-27T10:00:00Z");
    final RecordingSink sink = new RecordingSink();
    final List<Long> tasks = new ArrayList<>();
    Duration slowDown = Duration.ZERO;
    Store store;
    NotesDao notes;
    SettingsDao settings;

    @BeforeEach
    void open() {
        store = Store.open(dir.resolve("agent.db"), clock);
        notes = new NotesDao(store);
        settings = new SettingsDao(store);
    }

    @AfterEach
    void close() {
        store.close();
    }

    WakeRule rule(boolean autonomous) {
        ContextSettings defaults = new ContextSettings("agent", 3, 8000, true, 20, NoteFilter.ALL, autonomous);
        LlmBreakers breakers = new LlmBreakers() {
            @Override public boolean beforeLlmCall() { return true; }
            @Override public void afterLlmCall(long tokens, boolean countsAsTick) { }
            @Override public void newTask(long noteId) { tasks.add(noteId); }
        };
        return new WakeRule(clock, clock.monotonic(), new LiveSettings(defaults, new SettingsBounds(0, 50), settings), notes,
                new ProcessLogDao(store), settings, () -> slowDown, Duration.ofHours(1), sink, breakers);
    }

    @Test
    void nothing_new_wakes_nothing_and_a_note_wakes_the_llm() {
        WakeRule rule = rule(false);
        assertThat(rule.reason(true)).isNull();
        notes.add("hello", "user", 0, null);
        assertThat(rule.reason(true)).isEqualTo("new message");
    }

    @Test
    void a_note_a_written_reply_was_shown_wakes_nothing_again_until_a_halt_makes_it_count_again() {
        WakeRule rule = rule(false);
        long id = notes.add("hello", "user", 0, null);   // still unread: the reply that saw it was cut short
        rule.thought(id);
        assertThat(rule.reason(true)).isNull();
        rule.afterHalt();
        assertThat(rule.reason(true)).isEqualTo("new message");
    }

    @Test
    void autonomous_mode_wakes_only_a_frame_that_may_think_unprompted() {
        WakeRule rule = rule(true);
        assertThat(rule.reason(false)).isNull();
        assertThat(rule.reason(true)).isEqualTo("autonomous");
        assertThat(WakeRule.stimulus("autonomous")).isFalse();
        assertThat(WakeRule.stimulus("new message")).isTrue();
    }

    @Test
    void after_a_refusal_only_a_newer_note_asks_again() {
        WakeRule rule = rule(false);
        notes.add("first", "user", 0, null);
        rule.rejected();
        assertThat(rule.waitingOutRejection()).isTrue();
        assertThat(rule.reason(true)).as("the same request would be refused again").isNull();
        notes.add("second", "user", 0, null);
        assertThat(rule.reason(true)).isEqualTo("new message");
        assertThat(rule.waitingOutRejection()).isFalse();
    }

    @Test
    void the_llms_pause_holds_back_a_cli_note_but_not_a_persons_message() {
        settings.put(IdleCommands.PAUSE_KEY, "60");
        WakeRule rule = rule(false);
        rule.thought(0);
        long cli = notes.add("from a script", "cli", 0, null);
        assertThat(rule.reason(true)).as("paused for 60 s").isNull();
        clock.advance(Duration.ofSeconds(61));
        assertThat(rule.reason(true)).isEqualTo("new message");
        rule.thought(cli);
        notes.add("are you there?", "user", 0, null);
        assertThat(rule.reason(true)).as("a person does not wait for the pause").isEqualTo("new message");
    }

    @Test
    void the_reflexs_slow_down_is_read_with_the_settings_after_commands_ran() {
        WakeRule rule = rule(false);
        rule.reason(true);
        slowDown = Duration.ofMinutes(5);
        rule.thought(0);
        notes.add("from a script", "cli", 0, null);
        assertThat(rule.reason(true)).as("the settings were read before the reflex slowed down").isEqualTo("new message");
        rule.settingsChanged();
        assertThat(rule.reason(true)).as("read again: a pause of 5 min").isNull();
    }

    @Test
    void a_message_from_a_person_starts_a_task_once() {
        WakeRule rule = rule(false);
        long id = notes.add("do this", "user", 0, null);
        assertThat(rule.takeInput()).isTrue();
        assertThat(rule.takeInput()).as("the same message is no new task").isFalse();
        notes.add("a process reported", "process", 0, null);
        assertThat(rule.takeInput()).isFalse();
        assertThat(tasks).containsExactly(id);
    }

    @Test
    void the_llms_pause_is_measured_on_the_monotonic_clock_whatever_the_wall_clock_does() {
        settings.put(IdleCommands.PAUSE_KEY, "60");
        WakeRule rule = rule(false);
        rule.thought(0);
        notes.add("from a script", "cli", 0, null);
        clock.stepWall(Duration.ofHours(1));
        assertThat(rule.reason(true)).as("a wall clock stepped forward does not cut the pause short").isNull();
        clock.stepWall(Duration.ofHours(-2));
        clock.advance(Duration.ofSeconds(61));
        assertThat(rule.reason(true)).as("a wall clock stepped back does not stretch it by the step")
                .isEqualTo("new message");
    }

    @Test
    void the_llms_idle_ends_after_its_seconds_even_when_the_wall_clock_steps_back() {
        settings.put(Idle.KEY, new Idle(1, clock.instant().plusSeconds(30), 0, 0, "", "", "").toJson());
        WakeRule rule = rule(false);
        assertThat(rule.reason(true)).as("idle for 30 s").isNull();
        clock.stepWall(Duration.ofHours(-1));
        clock.advance(Duration.ofSeconds(29));
        assertThat(rule.reason(true)).isNull();
        clock.advance(Duration.ofSeconds(1));
        assertThat(rule.reason(true)).isEqualTo("idle ended: the time you set passed");
        assertThat(Idle.read(settings)).isEmpty();
    }

    @Test
    void the_llms_idle_is_not_cut_short_by_a_wall_clock_stepped_forward() {
        settings.put(Idle.KEY, new Idle(1, clock.instant().plusSeconds(30), 0, 0, "", "", "").toJson());
        WakeRule rule = rule(false);
        assertThat(rule.reason(true)).isNull();
        clock.stepWall(Duration.ofHours(1));
        assertThat(rule.reason(true)).isNull();
        clock.advance(Duration.ofSeconds(30));
        assertThat(rule.reason(true)).isEqualTo("idle ended: the time you set passed");
    }
}

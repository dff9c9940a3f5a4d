package dev.hmpagent.cycle;

import dev.hmpagent.safety.SafetyGate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.AgentSection;
import dev.hmpagent.config.ConfigLoader;
import dev.hmpagent.config.ConfigSources;
import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.SafetyRules;
import dev.hmpagent.safety.SafetyStatus;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * After an unlock the agent does not walk straight back into the loop that locked it: the lockout names the command
 * and its error, and the first prompt after the unlock says what was locked, why, and the person's reason, once.
 */
class UnlockTellsTheLlmTest {
    static final String DELETE_99 = "\n# Commands:\n```json\n{\"cmd_id\": \"d\", \"type\": \"memory_delete\", "
            + "\"args\": {\"id\": 99}}\n```\n# End commands\n";
    static final String REASON = "entry 99 was never there; write a new one instead";

    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-27T09:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();
    Store store;
    NotesDao notes;
    Cycle cycle;

    @BeforeEach
    void open() {
        Path db = dir.resolve("agent.db");
        store = Store.open(db, clock);
        notes = new NotesDao(store);
        AgentConfig d = ConfigLoader.load(ConfigSources.envOnly(Map.of("AGENT_STAGNATION_METHOD", "local"))).config();
        AgentConfig config = new AgentConfig(new AgentSection(db, "tester"), d.llm(), d.cycle(), d.context(), d.run(),
                d.policy(), d.files(), d.shell(), d.cleanup(), d.safety(), d.stagnation());
        cycle = TestWiring.cycle(config, store, llm, sink, clock);
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void the_lockout_names_the_command_and_its_error_and_the_first_prompt_after_the_unlock_says_why_once() {
        notes.add("tidy the notebook", "user", 0, null);
        for (int i = 1; i <= 5; i++) {
            llm.reply("(attempt " + i + ") deleting it" + DELETE_99);
            assertThat(cycle.tick().worked()).isTrue();
            clock.advance(Duration.ofSeconds(1));
        }
        SafetyStatus locked = new SafetyControl(store).current();
        assertThat(locked.label()).startsWith("SAFETY_LOCKOUT");
        assertThat(SafetyGate.describe(locked)).as("the line a person sees, and agent status")
                .contains("the command: memory_delete 99;").contains("no memory entry with id 99");

        new SafetyControl(store.connectAgain()).unlock(REASON, new Requester(4242, "ann", "box"));
        llm.reply("I see: I will write a new entry.").reply("Done.");
        assertThat(cycle.tick().worked()).as("the unlock's note wakes the LLM").isTrue();
        String first = llm.userPrompt(5);
        assertThat(first).contains("unlocked you").contains(REASON).contains("ann")
                .contains("SAFETY_LOCKOUT").contains("memory_delete").contains("no memory entry with id 99");

        notes.add("carry on", "user", 0, null);
        assertThat(cycle.tick().worked()).isTrue();
        assertThat(llm.userPrompt(6)).contains("carry on").doesNotContain(REASON).doesNotContain("unlocked you");
    }

    @Test
    void a_word_for_word_identical_failing_reply_alerts_at_three_and_locks_at_five_like_its_worded_twin() {
        notes.add("tidy the notebook", "user", 0, null);
        for (int i = 1; i <= 8; i++) llm.reply("deleting it" + DELETE_99);
        for (int i = 0; i < 8 && cycle.tick().worked(); i++) clock.advance(Duration.ofSeconds(1));

        // each failure is a new result, so the same reply is not dropped as a repeat: its command is attempted again
        assertThat(llm.requests).as("four failures, the fifth attempt refused").hasSize(5);
        assertThat(llm.userPrompt(3)).as("the alert after the third failure").contains(SafetyRules.REPEAT_ALERT);
        assertThat(new SafetyControl(store).current().label()).startsWith("SAFETY_LOCKOUT");
    }
}

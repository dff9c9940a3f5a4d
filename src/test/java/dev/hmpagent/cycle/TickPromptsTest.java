package dev.hmpagent.cycle;

import dev.hmpagent.runtime.TestWiring;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.RetryableLlmException;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.PromptPart;
import dev.hmpagent.store.PromptsDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
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

/** Every tick that asks the LLM keeps the exact prompt it sent, in the tick's own transaction. */
class TickPromptsTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    Store store;
    NotesDao notes;
    PromptsDao prompts;

    @BeforeEach
    void open() {
        store = Store.open(dir.resolve("agent.db"), clock);
        notes = new NotesDao(store);
        prompts = new PromptsDao(store);
    }

    @AfterEach
    void close() {
        store.close();
    }

    Cycle cycle() {
        return TestWiring.cycle(AgentConfig.defaults(), store, llm, new RecordingSink(), clock);
    }

    /** The messages rebuilt from the stored parts, as "role: content" pairs. */
    List<String> rebuilt(long tickId) {
        List<String> messages = new ArrayList<>();
        int current = -1;
        for (PromptPart p : prompts.load(tickId)) {
            if (p.message() != current) {
                messages.add(p.role() + ": ");
                current = p.message();
            }
            messages.set(messages.size() - 1, messages.get(messages.size() - 1) + p.text());
        }
        return messages;
    }

    static List<String> sent(LlmRequest request) {
        return request.messages().stream().map(m -> m.role().word() + ": " + m.content()).toList();
    }

    /** One number from the file, through a connection of its own. */
    long count(String sql, Object... params) {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + store.path());
             java.sql.PreparedStatement ps = c.prepareStatement(sql)) {
            for (int i = 0; i < params.length; i++) ps.setObject(i + 1, params[i]);
            try (java.sql.ResultSet rs = ps.executeQuery()) {
                return rs.next() ? rs.getLong(1) : 0;
            }
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }

    @Test
    void a_thought_keeps_exactly_the_messages_the_llm_was_sent() {
        notes.add("hello, what is 2 + 2?\n  (answer briefly)  ", "user", 0, null);
        llm.reply("It is 4.");

        assertThat(cycle().tick().outcome()).isEqualTo("thought");

        assertThat(rebuilt(1)).isEqualTo(sent(llm.requests.get(0)));
        assertThat(prompts.load(1)).extracting(PromptPart::context).containsExactly(0, 6, 3, 1, 2, 4, 5);
    }

    @Test
    void a_failed_llm_call_keeps_the_prompt_it_was_sent_too() {
        notes.add("are you there?", "user", 0, null);
        llm.fail(new RetryableLlmException("connect", "LLM endpoint http://fake/v1 is not reachable", null, null));

        assertThat(cycle().tick().outcome()).isEqualTo("llm_error");

        assertThat(rebuilt(1)).isEqualTo(sent(llm.requests.get(0)));
    }

    @Test
    void context_0_is_stored_once_however_many_ticks_show_it() {
        Cycle cycle = cycle();
        for (int i = 1; i <= 3; i++) {
            notes.add("message " + i, "user", 0, null);
            llm.reply("Reply " + i + ".");
            assertThat(cycle.tick().tickId()).isEqualTo(i);
            clock.advance(Duration.ofSeconds(30));
        }
        String system = llm.systemPrompt(0);
        assertThat(llm.systemPrompt(2)).isEqualTo(system);

        assertThat(count("SELECT count(*) FROM tick_prompts WHERE context = 0")).isEqualTo(3);
        assertThat(count("SELECT count(*) FROM prompt_sections WHERE text = ?", system)).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM prompt_sections")).as("parts shown unchanged are stored once")
                .isLessThan(3 * 7);
        for (int i = 1; i <= 3; i++) assertThat(rebuilt(i)).isEqualTo(sent(llm.requests.get(i - 1)));
    }

    @Test
    void a_thought_whose_transaction_fails_leaves_no_prompt_behind() {
        notes.add("hi", "user", 0, null);
        llm.reply("Hello.");
        failAgentLogInserts();

        assertThat(cycle().tick().outcome()).isEqualTo("error");

        assertThat(llm.requests).hasSize(1);
        assertThat(count("SELECT count(*) FROM tick_prompts")).isZero();
        assertThat(count("SELECT count(*) FROM prompt_sections")).isZero();
        assertThat(count("SELECT count(*) FROM llm_recent_responses")).isZero();
    }

    @Test
    void a_failed_call_whose_transaction_fails_leaves_no_prompt_behind() {
        notes.add("hi", "user", 0, null);
        llm.fail(new RetryableLlmException("connect", "LLM endpoint http://fake/v1 is not reachable", null, null));
        failAgentLogInserts();

        cycle().tick();

        assertThat(llm.requests).hasSize(1);
        assertThat(count("SELECT count(*) FROM tick_prompts")).isZero();
        assertThat(count("SELECT count(*) FROM prompt_sections")).isZero();
        assertThat(count("SELECT count(*) FROM process_log")).isZero();
    }

    /** The agent_log row is the last write of a tick: failing it fails the whole transaction after the prompt. */
    private void failAgentLogInserts() {
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:sqlite:" + store.path())) {
            c.createStatement().execute("CREATE TRIGGER no_ticks BEFORE INSERT ON agent_log "
                    + "BEGIN SELECT RAISE(ABORT, 'no ticks today'); END");
        } catch (java.sql.SQLException e) {
            throw new AssertionError(e);
        }
    }
}

package dev.hmpagent.cycle;

import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.runtime.LlmChain;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.ConfigLoader;
import dev.hmpagent.config.ConfigSources;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.DiaryDao;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ReflexDao;
import dev.hmpagent.store.ResponseRow;
import dev.hmpagent.store.ResponsesDao;
import dev.hmpagent.store.StagnationDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import dev.hmpagent.testing.SqlFile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Step 5 and the anti-stagnation reflex through the real cycle, with a scripted model and a fake clock. */
class AntiStagnationTest {
    static final String A = "The backup failed at 02:14 because the firewall reload resets long uploads; the fix is an"
            + " ESTABLISHED rule, and I will write the ticket for the network team today.";
    static final String B = "Restores were never tested: a scratch disk on the build server can hold a full restore,"
            + " and checksums will show whether every volume survived the upload.";

    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-24T10:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();
    Store store;
    NotesDao notes;
    ResponsesDao responses;
    StagnationDao metrics;
    ReflexDao reflex;

    @BeforeEach
    void open() {
        store = Store.open(dir.resolve("agent.db"), clock);
        notes = new NotesDao(store);
        responses = new ResponsesDao(store);
        metrics = new StagnationDao(store);
        reflex = new ReflexDao(store);
    }

    @AfterEach
    void close() {
        store.close();
    }

    static AgentConfig config(String... keyValues) {
        Map<String, String> env = new HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            env.put("AGENT_" + keyValues[i].toUpperCase(java.util.Locale.ROOT).replace('.', '_'), keyValues[i + 1]);
        }
        return ConfigLoader.load(ConfigSources.envOnly(env)).config();
    }

    Cycle cycle(AgentConfig config) {
        return TestWiring.cycle(config, store, llm, sink, clock);
    }

    static String commands(String json) {
        return "\n# Commands:\n```json\n" + json + "\n```\n# End commands\n";
    }

    List<String> rows(String sql) {
        return new SqlFile(dir.resolve("agent.db")).rows(sql);
    }

    void exec(String sql) {
        new SqlFile(dir.resolve("agent.db")).exec(sql);
    }

    @Test
    void an_identical_reply_with_nothing_new_since_is_not_stored_again_its_commands_do_not_run_again_and_a_reflex_row_says_why() {
        // the message ends the turn (issue 33), so memory_add's success wakes nothing after it
        String reply = A + commands("[{\"cmd_id\": \"c-1\", \"type\": \"memory_add\", \"args\": {\"content\": \"ticket\"}},"
                + " {\"cmd_id\": \"c-2\", \"type\": \"send_message\", \"args\": {\"text\": \"Noted the ticket.\"}}]");
        llm.reply(reply).reply(reply);
        Cycle cycle = cycle(config("cycle.autonomous", "true"));
        notes.add("why does the backup fail?", "user", 0, null);
        cycle.tick();
        clock.advance(Duration.ofSeconds(30));
        cycle.tick();   // autonomous: the turn ended, so nothing new arrived

        List<ResponseRow> rows = responses.latest(10);
        assertThat(rows).hasSize(2);
        assertThat(rows.get(1).stagnation()).isTrue();
        assertThat(rows.get(1).content()).contains("repeated the reply of tick 1 word for word")
                .contains("its commands did not run again");
        assertThat(rows("SELECT content FROM llm_memory")).as("memory_add ran once, not twice").containsExactly("ticket");
        assertThat(new ProcessLogDao(store).byTick(2)).isEmpty();
        assertThat(metrics.latest(5)).extracting(StagnationDao.Metric::identical).containsExactly(false, true);
        assertThat(metrics.latest(5).get(1).reflexFired()).isTrue();
        assertThat(llm.comparisons).as("identical is judged locally, never by a call").isEmpty();
    }

    @Test
    void a_near_identical_reply_scores_about_zero_in_hybrid_without_any_llm_call() {
        llm.reply(A).reply(A.replace("today", "tomorrow"));
        Cycle cycle = cycle(config());
        notes.add("one", "user", 0, null);
        cycle.tick();
        notes.add("two", "user", 0, null);
        cycle.tick();

        assertThat(llm.comparisons).isEmpty();
        assertThat(responses.latest(2).get(1).noveltyScore()).isLessThan(0.15);
        assertThat(rows("SELECT comparison_method FROM llm_recent_responses ORDER BY id"))
                .containsExactly("none", "hybrid:local");
    }

    @Test
    void the_llm_method_asks_a_mini_request_without_the_full_context_and_stores_its_ideas_and_tokens() {
        llm.judge = r -> "Sure! ```json\n{\"new_thoughts\": \"yes\", \"novelty\": 0.7, \"new_ideas\": [\"test restores\"],"
                + " \"refined_ideas\": [\"the ticket\"], \"discarded_ideas\": []}\n``` Hope that helps.";
        llm.reply(A).reply(B);
        // a hosted API: the short form (on a server of one's own the question follows the main request instead)
        Cycle cycle = cycle(config("stagnation.method", "llm", "llm.base_url", "https://api.example.com/v1"));
        notes.add("one", "user", 0, null);
        cycle.tick();
        notes.add("two", "user", 0, null);
        cycle.tick();

        assertThat(llm.comparisons).hasSize(1);
        assertThat(llm.comparisons.get(0).messages()).hasSize(2);
        assertThat(llm.comparisons.get(0).messages().get(1).content()).contains(A).contains(B).doesNotContain("Context 4");
        assertThat(llm.comparisons.get(0).temperature()).isZero();
        ResponseRow second = responses.latest(2).get(1);
        assertThat(second.noveltyScore()).isEqualTo(0.7);
        assertThat(second.reflection()).contains("new ideas: test restores").contains("refined ideas: the ticket");
        assertThat(rows("SELECT new_ideas || refined_ideas || comparison_verdict FROM llm_recent_responses WHERE tick_id = 2"))
                .containsExactly("[\"test restores\"][\"the ticket\"]new");
        dev.hmpagent.store.TickRecord tick2 = new AgentLogDao(store).latest(1).get(0);
        long comparisonTokens = tick2.comparisonTokens();
        assertThat(comparisonTokens).isPositive();
        assertThat(rows("SELECT comparison_tokens FROM anti_stagnation_metrics WHERE tick_id = 2"))
                .containsExactly(Long.toString(comparisonTokens));
        assertThat(cycle.status().tokensUsed()).as("/status counts it too").isEqualTo(new AgentLogDao(store).totalTokens());
        assertThat(rows("SELECT task_tokens FROM safety_counters")).as("the task's budget counts the comparison too")
                .containsExactly(Long.toString(tick2.promptTokens() + tick2.completionTokens() + comparisonTokens));
    }

    @Test
    void garbage_from_the_comparison_is_unknown_and_the_tick_goes_on() {
        llm.judge = r -> "I think they are quite similar really {{{";
        llm.reply(A).reply(B + commands("{\"cmd_id\": \"c-1\", \"type\": \"diary_entry\", \"args\": {\"text\": \"x\"}}"));
        Cycle cycle = cycle(config("stagnation.method", "llm"));
        notes.add("one", "user", 0, null);
        cycle.tick();
        notes.add("two", "user", 0, null);
        TickResult r = cycle.tick();

        assertThat(r.outcome()).isEqualTo("thought");
        assertThat(rows("SELECT comparison_verdict FROM llm_recent_responses WHERE tick_id = 2")).containsExactly("unknown");
        assertThat(rows("SELECT count(*) FROM diary_entries")).containsExactly("1");
    }

    @Test
    void a_healthy_chat_of_ten_distinct_questions_fires_no_reflex_at_all() {
        String[] topics = {"backups", "firewalls", "restores", "monitoring", "retention", "volumes", "checksums",
            "tickets", "schedules", "costs"};
        Cycle cycle = cycle(config());
        for (int i = 0; i < topics.length; i++) {
            llm.reply("About " + topics[i] + ": here is a distinct answer number " + i + " with its own facts about "
                    + topics[i] + " that no other answer shares.");
            notes.add("tell me about " + topics[i], "user", 0, null);
            clock.advance(Duration.ofSeconds(30));
            assertThat(cycle.tick().worked()).isTrue();
        }
        assertThat(llm.requests).hasSize(10);
        assertThat(metrics.latest(20)).hasSize(10).noneMatch(StagnationDao.Metric::stagnant);
        assertThat(reflex.latest(10)).isEmpty();
        assertThat(sink.of(AgentEvent.Info.class)).extracting(AgentEvent.Info::text)
                .noneMatch(t -> t.contains("stagnation"));
    }

    @Test
    void a_new_message_from_a_person_resets_the_window() {
        llm.reply(A).reply(A.replace("today", "soon")).reply(A.replace("today", "now"));
        Cycle cycle = cycle(config("cycle.autonomous", "true", "stagnation.reflex", "false"));
        notes.add("why does the backup fail?", "user", 0, null);
        cycle.tick();
        clock.advance(Duration.ofSeconds(30));
        cycle.tick();   // autonomous: near-identical
        notes.add("are you sure?", "user", 0, null);
        clock.advance(Duration.ofSeconds(30));
        cycle.tick();   // near-identical again, but a person just wrote

        assertThat(metrics.latest(3)).extracting(StagnationDao.Metric::stagnant).containsExactly(false, false, false);
        assertThat(metrics.latest(3)).extracting(StagnationDao.Metric::personMessage).containsExactly(true, false, true);
    }

    @Test
    void thinking_in_circles_fires_the_reflex_and_the_novel_reply_after_it_rates_the_strategy_up() {
        llm.reply(A).reply(A).reply(B);
        Cycle cycle = cycle(config("cycle.autonomous", "true"));
        notes.add("why does the backup fail?", "user", 0, null);
        cycle.tick();
        clock.advance(Duration.ofSeconds(30));
        cycle.tick();   // word for word: stagnant at once

        assertThat(metrics.latest(2).get(1).stagnant()).isTrue();
        List<ReflexDao.Firing> fired = reflex.latest(5);
        assertThat(fired).isNotEmpty();
        assertThat(fired.get(0).noveltyBefore()).isZero();
        assertThat(sink.of(AgentEvent.Info.class)).extracting(AgentEvent.Info::text)
                .anyMatch(t -> t.startsWith("anti-stagnation reflex (tick 2"));

        clock.advance(Duration.ofSeconds(30));
        cycle.tick();   // a new thought
        ReflexDao.Firing rated = reflex.latest(5).get(fired.size() - 1);
        assertThat(rated.rating()).isEqualTo(1);
        assertThat(rows("SELECT rating || ' ' || agent_id FROM ratings")).contains("1 reflex");
    }

    @Test
    void strategies_fire_cheapest_first_then_by_reputation() {
        // every cost-1 internal strategy is available (a diary entry, a concept); the best-rated one goes first
        new DiaryDao(store).add("an old note about gardening", null, 0, "self");
        new dev.hmpagent.store.ConceptsDao(store).upsert("tomatoes", "grow in summer", "self");
        exec("INSERT INTO ratings(agent_id, target_type, target_id, rating) SELECT 'self', 'stagnation_strategy', id, 1"
                + " FROM stagnation_strategies WHERE name = 'Meta-analysis'");
        exec("INSERT INTO ratings(agent_id, target_type, target_id, rating) SELECT 'self', 'stagnation_strategy', id, -1"
                + " FROM stagnation_strategies WHERE name = 'Flashback'");
        llm.reply(A).reply(A);
        Cycle cycle = cycle(config("cycle.autonomous", "true"));
        notes.add("why?", "user", 0, null);
        cycle.tick();
        clock.advance(Duration.ofSeconds(30));
        cycle.tick();

        assertThat(reflex.latest(5)).extracting(ReflexDao.Firing::strategy).containsExactly("Meta-analysis");
    }

    @Test
    void a_flashback_really_changes_context_3() {
        DiaryDao diary = new DiaryDao(store);
        diary.add("The firewall reload at 02:10 resets uploads of the backup.", null, 0, "self");
        diary.add("Grandmother's recipe: slow-cooked plum jam with cinnamon, stirred for an hour.", null, 0, "self");
        exec("UPDATE stagnation_strategies SET active = 0 WHERE name <> 'Flashback'");
        llm.reply(A).reply(A).reply(B);
        Cycle cycle = cycle(config("cycle.autonomous", "true"));
        notes.add("why?", "user", 0, null);
        cycle.tick();
        clock.advance(Duration.ofSeconds(30));
        cycle.tick();
        clock.advance(Duration.ofSeconds(30));
        cycle.tick();

        assertThat(llm.userPrompt(1)).doesNotContain("plum jam");
        assertThat(llm.userPrompt(2)).contains("flashback, a diary entry far from your recent thoughts")
                .contains("plum jam").doesNotContain("resets uploads of the backup");
    }

    @Test
    void reflex_tuning_raises_the_temperature_to_at_most_one_and_a_half_and_a_novel_reply_brings_it_back()
            throws Exception {
        // meta-analysis rated down, so the cheapest best-rated way out is the tuning
        exec("INSERT INTO ratings(agent_id, target_type, target_id, rating) SELECT 'self', 'stagnation_strategy', id, -1"
                + " FROM stagnation_strategies WHERE name = 'Meta-analysis'");
        try (dev.hmpagent.testing.FakeOpenAiServer server = new dev.hmpagent.testing.FakeOpenAiServer()) {
            server.streamed(A, 100, 30).streamed(A, 100, 30).streamed(B, 100, 30).streamed(A + " Then more.", 100, 30);
            AgentConfig config = config("llm.base_url", server.baseUrl(), "llm.temperature", "1.4",
                    "cycle.autonomous", "true");
            Cycle cycle = TestWiring.cycle(config, store, LlmChain.client(config.llm()), sink, clock);
            notes.add("why does the backup fail?", "user", 0, null);
            for (int i = 0; i < 4; i++) {
                clock.advance(Duration.ofSeconds(30));
                assertThat(cycle.tick().worked()).as("tick " + (i + 1)).isTrue();
            }
            List<com.fasterxml.jackson.databind.JsonNode> bodies = new java.util.ArrayList<>();
            for (int i = 0; i < 4; i++) bodies.add(server.take().body());
            assertThat(bodies).extracting(b -> b.path("temperature").asDouble()).containsExactly(1.4, 1.4, 1.5, 1.4);
            assertThat(bodies.get(2).path("presence_penalty").asDouble()).isEqualTo(0.2);
            assertThat(bodies.get(2).path("frequency_penalty").asDouble()).isEqualTo(0.2);
            assertThat(bodies.get(3).has("presence_penalty")).as("back to the configured 0: not sent").isFalse();
        }
        assertThat(reflex.latest(5)).extracting(ReflexDao.Firing::strategy).containsExactly("LLM reflex tuning");
    }

    @Test
    void switch_llm_lets_the_next_registry_entry_think_until_a_novel_reply_and_its_key_never_leaves_its_host()
            throws Exception {
        exec("UPDATE stagnation_strategies SET active = CASE name WHEN 'Switch LLM' THEN 1 ELSE 0 END, cost = 1");
        try (dev.hmpagent.testing.FakeOpenAiServer a = new dev.hmpagent.testing.FakeOpenAiServer();
             dev.hmpagent.testing.FakeOpenAiServer b = new dev.hmpagent.testing.FakeOpenAiServer()) {
            a.streamed(A, 100, 30).streamed(A, 100, 30).streamed(A + " And a last thought.", 100, 30);
            b.streamed(B, 100, 30);
            new dev.hmpagent.store.LlmRegistryDao(store).register("spare", "spare model", "", "openai", b.baseUrl(),
                    "model-b", 1, "HMP_TEST_KEY_B");
            AgentConfig config = config("llm.base_url", a.baseUrl(), "llm.api_key", "key-a", "cycle.autonomous", "true",
                    "stagnation.method", "local");
            Wiring.Tools tools = Wiring.tools(config, dev.hmpagent.commands.Approver.NOBODY, List.of(),
                    Map.of("HMP_TEST_KEY_B", "key-b"), clock, () -> llm);
            Cycle cycle = Wiring.cycle(config, store, LlmChain.client(config.llm()), sink, clock, TestWiring.time(clock), tools);
            notes.add("why does the backup fail?", "user", 0, null);
            for (int i = 0; i < 4; i++) {
                clock.advance(Duration.ofSeconds(30));
                assertThat(cycle.tick().worked()).as("tick " + (i + 1)).isTrue();
            }
            assertThat(a.requestCount()).isEqualTo(3);
            assertThat(b.requestCount()).isEqualTo(1);
            dev.hmpagent.testing.FakeOpenAiServer.Received atB = b.take();
            assertThat(atB.body().path("model").asText()).isEqualTo("model-b");
            assertThat(atB.request().getHeaders().get("Authorization")).isEqualTo("Bearer key-b");
            for (int i = 0; i < 3; i++) {
                assertThat(a.take().request().getHeaders().get("Authorization")).isEqualTo("Bearer key-a");
            }
            tools.processes().stopAll("test over");
        }
        assertThat(sink.of(AgentEvent.Info.class)).extracting(AgentEvent.Info::text)
                .anyMatch(t -> t.contains("Switch LLM: thinking with model-b"))
                .anyMatch(t -> t.contains("back to the configured LLM"));
    }

    @Test
    void the_chant_limits_come_from_the_stagnation_section() {
        String loop = "I will check the log once more. ";
        String reply = "Thinking. " + loop.repeat(5);
        llm.streamed(reply, 7).streamed(reply, 7);
        Cycle cycle = cycle(config("stagnation.chant_repeats", "4"));
        notes.add("one", "user", 0, null);
        cycle.tick();
        assertThat(new AgentLogDao(store).latest(1).get(0).outcome()).isEqualTo("thought");
        assertThat(rows("SELECT count(*) FROM process_log WHERE name = 'chanting'")).containsExactly("1");

        Cycle lenient = cycle(config());   // 10 repeats: five are a legitimate list
        notes.add("two", "user", 0, null);
        lenient.tick();
        assertThat(rows("SELECT count(*) FROM process_log WHERE name = 'chanting'")).containsExactly("1");
    }
}

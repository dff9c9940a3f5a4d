package dev.hmpagent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.commands.Approver;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.CommandsMode;
import dev.hmpagent.config.ContextSection;
import dev.hmpagent.config.LlmSection;
import dev.hmpagent.config.PromptForm;
import dev.hmpagent.config.Provider;
import dev.hmpagent.context.StandingInstructions;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.TokenEstimator;
import dev.hmpagent.llm.ToolSpec;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.FakeOllamaServer;
import dev.hmpagent.testing.FakeOpenAiServer;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import mockwebserver3.MockResponse;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Context 0's command list for a small model (context.prompt_form): the compact form's size against the full one in
 * both modes, every command it leaves out reachable through help, and auto choosing it from what a fake llama.cpp or
 * Ollama server says of the model's context window (the full list when the window is large or not said).
 */
class PromptFormTest {
    private static final Pattern SIGNATURE = Pattern.compile("(?m)^- ([a-z_]+)\\(");
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-29T15:00:00Z");
    final RecordingSink sink = new RecordingSink();

    private static AgentConfig config(PromptForm form, Provider provider, String baseUrl, CommandsMode commands) {
        return config(form, provider, baseUrl, commands, AgentConfig.defaults().context().promptBudgetTokens());
    }

    private static AgentConfig config(PromptForm form, CommandsMode commands, int budget) {
        return config(form, Provider.OPENAI, "http://127.0.0.1:9/v1", commands, budget);
    }

    private static AgentConfig config(PromptForm form, Provider provider, String baseUrl, CommandsMode commands,
                                      int budget) {
        AgentConfig d = AgentConfig.defaults();
        LlmSection llm = d.llm().forRoute(provider, baseUrl, "gemma", "", Map.of(), commands);
        ContextSection c = d.context();
        return new AgentConfig(d.agent(), llm, d.cycle(), new ContextSection(budget, c.notesMode(),
                c.notesLimit(), c.notesMinPriority(), c.notesTags(), form), d.run(), d.policy(), d.files(), d.shell(),
                d.cleanup(), d.safety(), d.stagnation(), d.sandbox(), d.mcp());
    }

    private static AgentConfig config(PromptForm form, CommandsMode commands) {
        return config(form, Provider.OPENAI, "http://127.0.0.1:9/v1", commands);
    }

    /** The first request of a real cycle asked by a person, context 0 chosen with {@code window}. */
    private LlmRequest firstRequest(AgentConfig config, Supplier<OptionalInt> window) {
        try (Store store = Store.open(dir.resolve("agent-" + System.nanoTime() + ".db"), clock)) {
            FakeLlmClient llm = new FakeLlmClient().reply("ok");
            store.tables().notes().add("What is 2 + 2?", "user", 0, "");
            Wiring.cycle(config, store, llm, sink, clock, TestWiring.time(clock),
                    TestWiring.tools(config, Approver.NOBODY, clock), StandingInstructions.read(dir), window).tick();
            return llm.requests.get(0);
        }
    }

    private static int tokens(String text) {
        return TokenEstimator.estimate(text);
    }

    private static int toolTokens(LlmRequest r) {
        StringBuilder all = new StringBuilder(r.offer().system().content());
        for (ToolSpec t : r.offer().tools()) all.append(t.name()).append(t.description()).append(t.schema());
        return tokens(all.toString());
    }

    @Test
    void the_compact_block_prompt_is_less_than_half_the_full_one_and_keeps_the_core_signatures() {
        String full = firstRequest(config(PromptForm.FULL, CommandsMode.BLOCK), OptionalInt::empty).messages().get(0).content();
        String compact = firstRequest(config(PromptForm.COMPACT, CommandsMode.BLOCK), OptionalInt::empty).messages().get(0)
                .content();

        // measured 2026-11-29: full 1,885 tokens, compact 982 (TokenEstimator, ~4 characters a token); the role, the
        // reply format and the data fences (about 700) are the same in both
        assertThat(tokens(compact)).isLessThan(tokens(full) * 11 / 20);
        assertThat(compact).contains("- send_message(text: string)", "- file_write(path: string, content: string)",
                "- memory_add(", "- shell(command: string", "- help(type?: string)", "# Commands:",
                "More commands, by family (", "notes", "goals and tasks", "concepts and links")
                .doesNotContain("- goal_add(", "- diary_delete(");
        assertThat(full).contains("- goal_add(", "- diary_delete(").doesNotContain("More commands, by family (");
    }

    @Test
    void the_compact_tools_prompt_offers_the_core_tools_and_use_only() {
        LlmRequest full = firstRequest(config(PromptForm.FULL, CommandsMode.TOOLS), OptionalInt::empty);
        LlmRequest compact = firstRequest(config(PromptForm.COMPACT, CommandsMode.TOOLS), OptionalInt::empty);

        // measured 2026-11-29: full 2,534 tokens (context 0 460, 42 tools 2,074), compact 1,208 (582, 12 tools)
        assertThat(toolTokens(compact)).isLessThan(toolTokens(full) / 2);
        assertThat(compact.offer().tools()).extracting(ToolSpec::name).contains("send_message", "file_write",
                "memory_add", "help", "use").doesNotContain("goal_add", "diary_delete").hasSizeLessThan(13);
        assertThat(compact.offer().system().content()).contains("More commands, by family (", "goals and tasks");
    }

    @Test
    void every_command_the_compact_prompt_leaves_out_is_shown_whole_by_help_for_the_family_it_names() {
        String full = firstRequest(config(PromptForm.FULL, CommandsMode.BLOCK), OptionalInt::empty).messages().get(0).content();
        AgentConfig config = config(PromptForm.COMPACT, CommandsMode.BLOCK, 200_000);
        String compact = firstRequest(config, OptionalInt::empty).messages().get(0).content();
        Matcher named = Pattern.compile("More commands, by family \\(([^)]*(?:\\([^)]*\\)[^)]*)*)\\):").matcher(compact);
        assertThat(named.find()).as(compact).isTrue();
        List<String> families = List.of(named.group(1).split("; "));
        StringBuilder block = new StringBuilder("[{\"cmd_id\": \"c-0\", \"type\": \"help\", \"args\": {}}");
        for (int i = 0; i < families.size(); i++) {
            block.append(", {\"cmd_id\": \"c-").append(i + 1).append("\", \"type\": \"help\", \"args\": {\"type\": \"")
                    .append(families.get(i)).append("\"}}");
        }
        try (Store store = Store.open(dir.resolve("help.db"), clock)) {
            FakeLlmClient llm = new FakeLlmClient().reply("# Commands:\n" + block + "]\n# End commands").reply("done");
            store.tables().notes().add("which commands are there?", "user", 0, "");
            var cycle = TestWiring.cycle(config, store, llm, sink, clock);
            cycle.tick();
            cycle.tick();
            String results = llm.userPrompt(1);
            assertThat(results).as("every help result shown whole").doesNotContain("more chars)")
                    .contains("command families: general (3), diary (7)");
            Matcher m = SIGNATURE.matcher(full);
            int leftOut = 0;
            while (m.find()) {
                if (compact.contains("- " + m.group(1) + "(")) continue;
                leftOut++;
                assertThat(results).as("help lists " + m.group(1)).contains("- " + m.group(1) + " — ");
            }
            assertThat(leftOut).isGreaterThan(25);
            assertThat(results).contains("- concept_add — ", "- peer_message — ");
        }
    }

    @Test
    void auto_is_compact_when_a_llama_cpp_server_says_a_small_context_and_full_when_it_says_nothing() throws Exception {
        try (FakeOpenAiServer server = new FakeOpenAiServer()) {
            AgentConfig config = config(PromptForm.AUTO, Provider.OPENAI, server.baseUrl(), CommandsMode.BLOCK);
            Supplier<OptionalInt> window = () -> LlmChain.REAL.contextWindow(config.llm());

            String unknown = firstRequest(config, window).messages().get(0).content();
            server.props = "{\"default_generation_settings\": {\"n_ctx\": 4096}, \"total_slots\": 1}";
            String small = firstRequest(config, window).messages().get(0).content();
            server.props = "{\"default_generation_settings\": {\"n_ctx\": 16384}, \"total_slots\": 1}";
            String large = firstRequest(config, window).messages().get(0).content();

            assertThat(unknown).as("404: not said").contains("- goal_add(").doesNotContain("More commands, by family (");
            assertThat(small).contains("More commands, by family (").doesNotContain("- goal_add(");
            assertThat(large).contains("- goal_add(").doesNotContain("More commands, by family (");
            assertThat(sink.events).filteredOn(e -> e instanceof AgentEvent.Info i && i.detail())
                    .extracting(e -> ((AgentEvent.Info) e).text())
                    .containsOnlyOnce("the model's context window is 4,096 tokens (its server says): context 0 lists"
                            + " the core commands, help the rest (context.prompt_form = \"full\" lists them all)");
        }
    }

    @Test
    void auto_is_compact_when_ollama_says_a_small_context_length_and_full_forces_the_full_list() throws Exception {
        try (FakeOllamaServer server = new FakeOllamaServer()) {
            AgentConfig auto = config(PromptForm.AUTO, Provider.OLLAMA, server.baseUrl(), CommandsMode.BLOCK);
            AgentConfig full = config(PromptForm.FULL, Provider.OLLAMA, server.baseUrl(), CommandsMode.BLOCK);
            server.enqueue(new MockResponse.Builder().setHeader("Content-Type", "application/json").body(
                    "{\"model_info\": {\"general.architecture\": \"gemma3\", \"gemma3.context_length\": 2048}}").build());

            String small = firstRequest(auto, () -> LlmChain.REAL.contextWindow(auto.llm())).messages().get(0).content();
            String forced = firstRequest(full, () -> OptionalInt.of(2048)).messages().get(0).content();

            assertThat(small).contains("More commands, by family (").doesNotContain("- goal_add(");
            assertThat(forced).contains("- goal_add(").doesNotContain("More commands, by family (");
        }
    }
}

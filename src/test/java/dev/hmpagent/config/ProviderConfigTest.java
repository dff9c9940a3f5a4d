package dev.hmpagent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** llm.provider and what follows it (base URL, key variable), llm.registry, llm.prices, llm.failover_after. */
class ProviderConfigTest {
    @TempDir
    Path dir;

    private Path file(String text) throws IOException {
        Path p = dir.resolve("agent.toml");
        Files.writeString(p, text);
        return p;
    }

    @Test
    void the_default_provider_is_openai_at_a_local_ollama() {
        LoadedConfig loaded = TestSources.none().load();

        assertThat(loaded.config().llm().provider()).isEqualTo(Provider.OPENAI);
        assertThat(loaded.config().llm().baseUrl()).isEqualTo("http://localhost:11434/v1");
        assertThat(loaded.config().llm().keyVariable()).isEqualTo("OPENAI_API_KEY");
    }

    @Test
    void anthropic_defaults_to_its_api_and_reads_only_its_own_key_variable() {
        LoadedConfig loaded = TestSources.none().flag("llm.provider", "anthropic", "--provider")
                .env("OPENAI_API_KEY", "sk-openai-key-0000000001").env("OPENAI_BASE_URL", "https://api.openai.com/v1")
                .env("OLLAMA_HOST", "gpu-box").env("ANTHROPIC_API_KEY", "sk-ant-key-00000000002").load();

        LlmSection llm = loaded.config().llm();
        assertThat(llm.provider()).isEqualTo(Provider.ANTHROPIC);
        assertThat(llm.baseUrl()).isEqualTo("https://api.anthropic.com");
        assertThat(llm.apiKey()).isEqualTo("sk-ant-key-00000000002");
        assertThat(loaded.origins().get("llm.api_key")).isEqualTo(Origin.env("ANTHROPIC_API_KEY"));
        assertThat(loaded.origins().get("llm.provider")).isEqualTo(Origin.flag("--provider"));
    }

    @Test
    void anthropic_without_its_key_sends_none_rather_than_another_providers() {
        LlmSection llm = TestSources.none().env("AGENT_LLM_PROVIDER", "anthropic")
                .env("OPENAI_API_KEY", "sk-openai-key-0000000001").load().config().llm();

        assertThat(llm.apiKey()).isEmpty();
    }

    @Test
    void ollama_defaults_to_its_root_and_follows_ollama_host_without_v1() {
        assertThat(TestSources.none().env("AGENT_LLM_PROVIDER", "ollama").load().config().llm().baseUrl())
                .isEqualTo("http://localhost:11434");
        LoadedConfig loaded = TestSources.none().env("AGENT_LLM_PROVIDER", "ollama").env("OLLAMA_HOST", "gpu-box").load();
        assertThat(loaded.config().llm().baseUrl()).isEqualTo("http://gpu-box:11434");
        assertThat(loaded.origins().get("llm.base_url")).isEqualTo(Origin.env("OLLAMA_HOST"));
    }

    @Test
    void the_providers_base_url_variable_beats_the_file_and_loses_to_the_flag() throws IOException {
        Path project = file("[llm]\nprovider = \"anthropic\"\nbase_url = \"https://file.example\"\n");

        assertThat(TestSources.none().project(project).env("ANTHROPIC_BASE_URL", "https://proxy.example").load()
                .config().llm().baseUrl()).isEqualTo("https://proxy.example");
        assertThat(TestSources.none().project(project).env("ANTHROPIC_BASE_URL", "https://proxy.example")
                .flag("llm.base_url", "https://flag.example", "--base-url").load().config().llm().baseUrl())
                .isEqualTo("https://flag.example");
    }

    @Test
    void api_key_env_names_the_variable_the_key_is_read_from() {
        LoadedConfig loaded = TestSources.none().env("AGENT_LLM_API_KEY_ENV", "OPENROUTER_API_KEY")
                .env("OPENAI_API_KEY", "sk-openai-key-0000000001").env("OPENROUTER_API_KEY", "sk-or-key-000000000003")
                .load();

        assertThat(loaded.config().llm().apiKey()).isEqualTo("sk-or-key-000000000003");
        assertThat(loaded.config().llm().keyVariable()).isEqualTo("OPENROUTER_API_KEY");
        assertThat(loaded.describe()).anyMatch(l -> l.startsWith("llm.api_key ") && l.contains("env OPENROUTER_API_KEY")
                && !l.contains("sk-or-key"));
    }

    @Test
    void agent_config_shows_the_base_url_in_force_for_the_provider() {
        List<String> lines = TestSources.none().flag("llm.provider", "anthropic", "--provider").load().describe();

        assertThat(lines).anyMatch(l -> l.matches("llm\\.base_url += https://api\\.anthropic\\.com +\\(default\\)"));
        assertThat(lines).anyMatch(l -> l.matches("llm\\.provider += anthropic +\\(flag --provider\\)"));
    }

    @Test
    void registry_entries_get_the_providers_url_and_key_variable_only_when_they_name_no_url() throws IOException {
        Path project = file("""
                [[llm.registry]]
                id = "claude"
                provider = "anthropic"
                model = "claude-haiku-4-5"

                [[llm.registry]]
                id = "router"
                base_url = "https://openrouter.ai/api/v1"
                model = "meta-llama/llama-3.3-70b-instruct"

                [[llm.registry]]
                id = "router-keyed"
                base_url = "https://openrouter.ai/api/v1"
                model = "qwen/qwen3"
                api_key_env = "OPENROUTER_API_KEY"
                priority = 1
                """);

        List<RegistryEntry> registry = TestSources.none().project(project).load().config().llm().registry();

        assertThat(registry).containsExactly(
                new RegistryEntry("claude", Provider.ANTHROPIC, "https://api.anthropic.com", "claude-haiku-4-5",
                        "ANTHROPIC_API_KEY", 1, Map.of(), ""),
                new RegistryEntry("router", Provider.OPENAI, "https://openrouter.ai/api/v1",
                        "meta-llama/llama-3.3-70b-instruct", "", 2, Map.of(), ""),
                new RegistryEntry("router-keyed", Provider.OPENAI, "https://openrouter.ai/api/v1", "qwen/qwen3",
                        "OPENROUTER_API_KEY", 1, Map.of(), ""));
    }

    @Test
    void a_registry_entry_without_a_model_names_the_entry_and_the_field() throws IOException {
        Path project = file("[[llm.registry]]\nid = \"a\"\nmodel = \"m\"\n[[llm.registry]]\nid = \"b\"\n");

        assertThatThrownBy(() -> TestSources.none().project(project).load())
                .hasMessageStartingWith("llm.registry = ").hasMessageContaining("has entry 2 without model");
    }

    @Test
    void registry_ids_must_be_unique_and_not_main_and_options_need_provider_ollama() throws IOException {
        assertThatThrownBy(() -> TestSources.none().project(file(
                "[llm]\nregistry = [{ id = \"x\", model = \"a\" }, { id = \"x\", model = \"b\" }]\n")).load())
                .hasMessageContaining("llm.registry entry 2").hasMessageContaining("repeats the id \"x\"");
        assertThatThrownBy(() -> TestSources.none().project(file(
                "[llm]\nregistry = [{ id = \"main\", model = \"a\" }]\n")).load())
                .hasMessageContaining("has id \"main\"");
        assertThatThrownBy(() -> TestSources.none().project(file(
                "[llm]\nregistry = [{ id = \"x\", model = \"a\", options = { num_ctx = 4096 } }]\n")).load())
                .hasMessageContaining("only provider ollama sends");
        assertThatThrownBy(() -> TestSources.none().project(file(
                "[llm]\nregistry = [{ id = \"x\", model = \"a\", key = \"sk-123\" }]\n")).load())
                .hasMessageContaining("has entry 1 with the unknown field key");
    }

    @Test
    void options_are_one_table_value_and_only_for_provider_ollama() throws IOException {
        LlmSection llm = TestSources.none().project(file(
                "[llm]\nprovider = \"ollama\"\n[llm.options]\nnum_ctx = 8192\nmirostat_tau = 4.5\nstop = \"</s>\"\n"))
                .load().config().llm();
        assertThat(llm.options()).isEqualTo(Map.of("num_ctx", 8192L, "mirostat_tau", 4.5, "stop", "</s>"));

        assertThatThrownBy(() -> TestSources.none().env("AGENT_LLM_OPTIONS", "{ num_ctx = 8192 }").load())
                .hasMessageContaining("llm.options (from env AGENT_LLM_OPTIONS) is sent only by provider ollama");
    }

    @Test
    void failover_after_is_failures_in_a_row_or_seconds() {
        assertThat(TestSources.none().load().config().llm().failoverAfter()).isEqualTo(FailoverAfter.failures(3));
        assertThat(TestSources.none().env("AGENT_LLM_FAILOVER_AFTER", "90s").load().config().llm().failoverAfter()
                .timeLimit()).contains(Duration.ofSeconds(90));
        assertThatThrownBy(() -> TestSources.none().env("AGENT_LLM_FAILOVER_AFTER", "5m").load())
                .hasMessageContaining("llm.failover_after = 5m").hasMessageContaining("90s");
        assertThatThrownBy(() -> TestSources.none().env("AGENT_LLM_FAILOVER_AFTER", "0").load())
                .hasMessageContaining("is out of range");
    }

    @Test
    void prices_default_the_cached_price_to_the_input_price_and_show_in_agent_config() throws IOException {
        LoadedConfig loaded = TestSources.none().project(file("""
                [llm]
                prices = [{ model = "gpt-4o-mini", input = 0.15, cached_input = 0.075, output = 0.6 },
                          { model = "llama3.2", input = 0, output = 0 }]
                """)).load();

        assertThat(loaded.config().llm().price("gpt-4o-mini")).contains(new ModelPrice("gpt-4o-mini", 0.15, 0.075, 0.6));
        assertThat(loaded.config().llm().price("llama3.2")).contains(new ModelPrice("llama3.2", 0, 0, 0));
        assertThat(loaded.config().llm().price("claude")).isEmpty();
        assertThat(loaded.describe()).anyMatch(l -> l.startsWith("llm.prices ")
                && l.contains("{model = \"gpt-4o-mini\", input = 0.15, cached_input = 0.075, output = 0.6}"));
    }

    @Test
    void a_registry_url_with_credentials_is_masked_in_agent_config() throws IOException {
        List<String> lines = TestSources.none().project(file(
                "[llm]\nregistry = [{ id = \"x\", base_url = \"https://bob:hunter2@llm.example/v1\", model = \"m\" }]\n"))
                .load().describe();

        assertThat(String.join("\n", lines)).contains("https://****@llm.example/v1").doesNotContain("hunter2");
    }
}

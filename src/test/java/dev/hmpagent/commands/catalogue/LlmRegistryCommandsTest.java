package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandRun;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.LlmRegistryDao;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

class LlmRegistryCommandsTest extends RegistryCommandsFixture {
    static final String KEY = "sk-proj-THISISASECRETKEY1234567890";

    void registerTwo() {
        LlmRegistryDao llms = new LlmRegistryDao(store);
        llms.register("gpt", "GPT", "the big one", "openai", "https://api.openai.com/v1", "gpt-4o", 2, "OPENAI_API_KEY");
        llms.register("local", "Llama", "on this machine", "ollama", "http://localhost:11434", "llama3", 1, null);
    }

    @Test
    void llm_list_shows_provider_url_model_and_priority_and_marks_the_main_one() {
        registerTwo();
        CommandRun before = run("llm_list", "{}");
        CommandRun select = run("llm_select", "{\"id\": \"gpt\"}");
        CommandRun after = run("llm_list", "{}");

        assertThat(before.result()).isEqualTo("LLMs (id: provider, base_url, model, priority):\n"
                + "- local \"Llama\": ollama, http://localhost:11434, llama3, priority 1\n"
                + "- gpt \"GPT\": openai, https://api.openai.com/v1, gpt-4o, priority 2");
        assertThat(select.result()).isEqualTo("main LLM is gpt (gpt-4o) from your next thought; if it fails, the others"
                + " take over by priority");
        assertThat(after.result()).endsWith("gpt-4o, priority 2 (main)");
        assertThat(value("SELECT value FROM config WHERE key = ?", LlmRegistryDao.MAIN_LLM_KEY)).isEqualTo("gpt");
        assertThat(registry.find("llm_list").orElseThrow().informs()).isTrue();
        assertThat(registry.find("llm_select").orElseThrow().informs()).isFalse();
    }

    @Test
    void llm_list_never_shows_a_key_whatever_the_row_holds() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("agent.db"));
             Statement st = c.createStatement()) {
            // a row written by other HMP tooling, with a key inline and credentials in the URL
            st.execute("INSERT INTO llm_registry(id, name, config_json) VALUES ('hmp', 'hmp', '{\"provider\": \"openai\", "
                    + "\"base_url\": \"https://user:" + KEY + "@api.example.com/v1?api_key=" + KEY + "\", "
                    + "\"model\": \"m\", \"api_key\": \"" + KEY + "\", \"key\": \"" + KEY + "\", \"priority\": 3}')");
            st.execute("INSERT INTO llm_registry(id, name, config_json) VALUES ('broken', 'b', 'not json " + KEY + "')");
        }
        registerTwo();

        CommandRun list = run("llm_list", "{}");

        assertThat(list.status()).isEqualTo("ok");
        assertThat(list.result()).doesNotContain(KEY).doesNotContain("THISISASECRET").doesNotContain("OPENAI_API_KEY")
                .contains("- hmp: openai, https://****@api.example.com/v1?api_key=****, m, priority 3")
                .contains("- broken \"b\": ?, ?, ?, priority -");
        assertThat(rows("SELECT result FROM process_log")).allSatisfy(r -> assertThat(r.get(0).toString()).doesNotContain(KEY));
        assertThat(value("SELECT config_json FROM llm_registry WHERE id = 'gpt'").toString())
                .as("the agent's own entries name the variable, never a key")
                .contains("\"api_key_env\":\"OPENAI_API_KEY\"");
    }

    @Test
    void llm_select_refuses_an_llm_that_is_not_registered_and_changes_nothing() {
        registerTwo();
        List<CommandRun> runs = run(1, """
                [{"type": "llm_select", "args": {"id": "gpt-5-turbo"}},
                 {"type": "llm_select", "args": {"name": "Llama"}}]""");
        assertThat(runs.get(0).status()).isEqualTo("error");
        assertThat(runs.get(0).result()).isEqualTo("llm_select: no LLM \"gpt-5-turbo\" is registered; known ids: local, gpt");
        assertThat(runs.get(1).result()).startsWith("main LLM is local (llama3) from your next thought");
        assertThat(value("SELECT value FROM config WHERE key = ?", LlmRegistryDao.MAIN_LLM_KEY)).isEqualTo("local");
        assertThat(run("llm_select", "{}").result()).contains("args.id (or args.name) is required");
    }
}

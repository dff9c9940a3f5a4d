package dev.hmpagent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.ConfigLoader;
import dev.hmpagent.config.ConfigSources;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.SqlFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a real start writes before the first tick: the LLM rows name a key's variable, never the key. */
class AgentRuntimeStartTest {
    private static final String KEY = "sk-test-0123456789abcdefSECRET";

    @TempDir
    Path dir;

    @Test
    void the_main_llm_row_holds_the_name_of_the_providers_key_variable_never_the_key() throws Exception {
        Path db = dir.resolve("agent.db");
        Map<String, String> env = Map.of("OPENAI_API_KEY", KEY);

        start(db, env);

        assertMainRowNames("OPENAI_API_KEY", db);
    }

    @Test
    void the_main_llm_row_holds_the_name_llm_api_key_env_gives_never_the_key() throws Exception {
        Path db = dir.resolve("agent.db");
        Map<String, String> env = Map.of("AGENT_LLM_API_KEY_ENV", "MY_LLM_KEY", "MY_LLM_KEY", KEY);

        start(db, env);

        assertMainRowNames("MY_LLM_KEY", db);
    }

    /** Starts the runtime on {@code db} with {@code env} as the process's environment, and closes it. */
    private static void start(Path db, Map<String, String> env) {
        Map<String, String> all = new HashMap<>(env);
        all.put("AGENT_AGENT_DB", db.toString());
        all.put("AGENT_SANDBOX_MODE", "off");
        AgentConfig config = ConfigLoader.load(ConfigSources.envOnly(all)).config();
        assertThat(config.llm().apiKey()).as("the configuration read the key from the environment").isEqualTo(KEY);
        Launch launch = new Launch(all, () -> { throw new AssertionError("no terminal"); }, Clock.systemUTC(), false,
                section -> new FakeLlmClient());
        try (AgentRuntime runtime = AgentRuntime.start(config, launch, EventSink.DISCARD)) {
            assertThat(runtime.llm().model()).isNotBlank();
        }
    }

    private static void assertMainRowNames(String variable, Path db) throws Exception {
        SqlFile file = new SqlFile(db);
        assertThat(file.rows("SELECT json_extract(config_json, '$.api_key_env') FROM llm_registry WHERE id = 'main'"))
                .containsExactly(variable);
        assertThat(file.rows("SELECT id || ' ' || coalesce(name, '') || ' ' || coalesce(description, '') || ' '"
                + " || coalesce(config_json, '') FROM llm_registry")).isNotEmpty().noneMatch(row -> row.contains(KEY));
        for (String name : new String[] {"agent.db", "agent.db-wal"}) {
            Path f = db.resolveSibling(name);
            if (Files.exists(f)) {
                assertThat(new String(Files.readAllBytes(f), StandardCharsets.ISO_8859_1)).as(name).doesNotContain(KEY);
            }
        }
    }
}

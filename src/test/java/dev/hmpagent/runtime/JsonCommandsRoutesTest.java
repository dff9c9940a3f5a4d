package dev.hmpagent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.ConfigLoader;
import dev.hmpagent.config.ConfigSources;
import dev.hmpagent.config.LlmSection;
import dev.hmpagent.llm.CommandsByTools;
import dev.hmpagent.store.LlmRegistryDao;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An LLM switched to with /model (a registry entry, or a model by name) asks for commands in the form configured for it. */
class JsonCommandsRoutesTest {
    private static LlmSection llm(String... keyValues) {
        Map<String, String> env = new java.util.HashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) env.put(keyValues[i], keyValues[i + 1]);
        AgentConfig config = ConfigLoader.load(ConfigSources.envOnly(env)).config();
        return config.llm();
    }

    @Test
    void a_registry_entry_in_json_form_keeps_it_and_a_model_by_name_takes_the_main_llm_s_form() {
        LlmSection main = llm("AGENT_LLM_COMMANDS", "json", "AGENT_LLM_REGISTRY",
                "[{ id = \"box\", base_url = \"http://127.0.0.1:9/v1\", model = \"qwen\", commands = \"json\" },"
                        + " { id = \"plain\", base_url = \"http://127.0.0.1:9/v1\", model = \"qwen\" }]");

        CommandsByTools box = (CommandsByTools) RegistryRoutes.client(new LlmRegistryDao.Route("box", "openai",
                "http://127.0.0.1:9/v1", "qwen", ""), name -> null, main);
        CommandsByTools plain = (CommandsByTools) RegistryRoutes.client(new LlmRegistryDao.Route("plain", "openai",
                "http://127.0.0.1:9/v1", "qwen", ""), name -> null, main);
        CommandsByTools byName = (CommandsByTools) RegistryRoutes.byName(main, "other-model");

        assertThat(box.form()).isEqualTo(CommandsByTools.Form.JSON);
        assertThat(plain.form()).isEqualTo(CommandsByTools.Form.BLOCK);
        assertThat(byName.form()).isEqualTo(CommandsByTools.Form.JSON);
        assertThat(LlmChain.anyJson(main)).isTrue();
        assertThat(LlmChain.anyJson(llm())).isFalse();
    }
}

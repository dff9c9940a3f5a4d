package dev.hmpagent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import org.junit.jupiter.api.Test;

/** A key on the command line is visible to every process of the user: refused, and never repeated. */
class CommandLineKeysTest {
    static final String KEY = "sk-live-abcdef1234567890";

    static ConfigException refused(TestSources sources) {
        ConfigException e = catchThrowableOfType(sources::load, ConfigException.class);
        assertThat(e).as("refused").isNotNull();
        assertThat(e.getMessage()).contains(CommandLineKeys.ADVICE).doesNotContain(KEY).doesNotContain("\n");
        return e;
    }

    @Test
    void an_api_key_given_with_set_is_refused_naming_the_flag_not_the_key() {
        ConfigException e = refused(TestSources.none().flag("llm.api_key", KEY, "--set llm.api_key"));
        assertThat(e.getMessage()).startsWith("--set llm.api_key gives a key on the command line");
    }

    @Test
    void a_key_field_inside_a_table_given_with_set_is_refused_before_it_is_parsed() {
        refused(TestSources.none().flag("llm.registry",
                "[{ id = \"b\", model = \"m\", api_key = \"" + KEY + "\" }]", "--set llm.registry"));
        refused(TestSources.none().flag("llm.options", "{ \"token\": \"" + KEY + "\" }", "--set llm.options"));
    }

    @Test
    void a_key_like_name_that_is_not_a_config_key_is_refused_as_a_key_not_as_an_unknown_key() {
        ConfigException e = refused(TestSources.none().flag("llm.backup.api_key", KEY, "--set llm.backup.api_key"));
        assertThat(e.getMessage()).doesNotContain("unknown key");
    }

    @Test
    void a_base_url_with_credentials_is_refused_from_a_flag_or_set() {
        refused(TestSources.none().flag("llm.base_url", "https://ann:" + KEY + "@api.example.com/v1", "--base-url"));
        refused(TestSources.none().flag("llm.base_url", "https://api.example.com/v1?key=" + KEY,
                "--set llm.base_url"));
        refused(TestSources.none().flag("llm.registry", "[{ id = \"b\", model = \"m\", base_url = \"https://u:"
                + KEY + "@h.example/v1\" }]", "--set llm.registry"));
    }

    @Test
    void the_same_key_in_the_environment_is_taken() {
        assertThat(TestSources.none().env("OPENAI_API_KEY", KEY).load().config().llm().apiKey()).isEqualTo(KEY);
        assertThat(TestSources.none().env("AGENT_LLM_API_KEY", KEY).load().config().llm().apiKey()).isEqualTo(KEY);
    }

    @Test
    void every_other_key_and_ordinary_values_pass() {
        for (ConfigKey key : ConfigKey.values()) {
            if (key == ConfigKey.LLM_API_KEY) continue;
            CommandLineKeys.refuseKeys(key.fullName(), "--set " + key.fullName(), key.defaultValue());
        }
        TestSources.none().flag("llm.base_url", "https://api.example.com/v1", "--base-url")
                .flag("llm.api_key_env", "MY_KEY", "--set llm.api_key_env")
                .flag("stagnation.max_tokens", "300", "--set stagnation.max_tokens").load();
        assertThatThrownBy(() -> CommandLineKeys.refuseKeys("llm.api_key", "--set llm.api_key", ""))
                .as("even an empty one: the flag is the mistake").isInstanceOf(ConfigException.class);
    }
}

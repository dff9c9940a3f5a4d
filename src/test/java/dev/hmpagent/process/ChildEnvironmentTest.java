package dev.hmpagent.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ChildEnvironmentTest {
    static final String KEY = "plainlettersonlykeyvalue";

    @Test
    void only_the_basics_pass_never_a_variable_whose_name_looks_like_a_secret() {
        Map<String, String> base = Map.ofEntries(
                Map.entry("OPENAI_API_KEY", "sk-1"),
                Map.entry("MY_TOKEN", "t"),
                Map.entry("github_token", "t"),
                Map.entry("DB_PASSWORD", "p"),
                Map.entry("ZZCRED", KEY),
                Map.entry("JAVA_HOME", "/opt/jdk"),
                Map.entry("PATH", "/usr/bin:/bin"),
                Map.entry("HOME", "/home/agent"),
                Map.entry("LANG", "C.UTF-8"),
                Map.entry("LC_ALL", "C.UTF-8"),
                Map.entry("TERM", "xterm"));

        assertThat(ChildEnvironment.basics(base).variables())
                .containsOnlyKeys("PATH", "HOME", "LANG", "LC_ALL", "TERM");
    }

    @Test
    void a_variable_named_in_shell_env_passes_unless_it_names_or_holds_a_key_which_is_said_in_one_line() {
        Map<String, String> base = Map.of("PATH", "/bin", "GOPATH", "/go", "ZZCRED", KEY, "COPY", KEY,
                "AUTH_HEADER", "Bearer " + KEY, "GITHUB_TOKEN", "ghp_person_wants_this_one");

        ChildEnvironment env = ChildEnvironment.of(base, List.of("GOPATH", "ZZCRED", "COPY", "AUTH_HEADER",
                "GITHUB_TOKEN", "NOT_SET"), Set.of("ZZCRED"), List.of(KEY));

        assertThat(env.variables()).containsOnlyKeys("PATH", "GOPATH", "GITHUB_TOKEN");
        assertThat(env.refused()).containsExactly("AUTH_HEADER", "COPY", "ZZCRED");
        assertThat(env.refusedLine()).isEqualTo("shell.env names AUTH_HEADER, COPY, ZZCRED, which hold a configured"
                + " key: not passed to any child process (remove it from shell.env)");
    }

    @Test
    void a_basic_variable_holding_a_key_is_not_passed_either() {
        ChildEnvironment env = ChildEnvironment.of(Map.of("PATH", "/bin", "TERM", KEY), List.of(), Set.of(),
                List.of(KEY));

        assertThat(env.variables()).containsOnlyKeys("PATH");
        assertThat(env.refusedLine()).isEmpty();
    }
}

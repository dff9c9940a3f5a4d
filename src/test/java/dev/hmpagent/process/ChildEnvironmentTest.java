package dev.hmpagent.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Map;
import org.junit.jupiter.api.Test;

class ChildEnvironmentTest {

    @Test
    void dropsEveryVariableWhoseNameLooksLikeASecretInAnyCase() {
        Map<String, String> base = Map.ofEntries(
                Map.entry("OPENAI_API_KEY", "sk-1"),
                Map.entry("ANTHROPIC_API_KEY", "sk-2"),
                Map.entry("AGENT_LLM_API_KEY", "sk-3"),
                Map.entry("MY_TOKEN", "t"),
                Map.entry("github_token", "t"),
                Map.entry("DB_PASSWORD", "p"),
                Map.entry("MYSQL_PASSWD", "p"),
                Map.entry("aws_secret_access_key", "s"),
                Map.entry("GOOGLE_APPLICATION_CREDENTIALS", "/x.json"),
                Map.entry("SshKeyFile", "k"),
                Map.entry("PATH", "/usr/bin:/bin"),
                Map.entry("HOME", "/home/agent"),
                Map.entry("LANG", "C.UTF-8"),
                Map.entry("TERM", "xterm"));

        assertThat(ChildEnvironment.scrub(base)).containsOnlyKeys("PATH", "HOME", "LANG", "TERM");
    }
}

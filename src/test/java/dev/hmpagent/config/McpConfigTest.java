package dev.hmpagent.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class McpConfigTest {
    @TempDir
    Path dir;

    private TestSources file(String toml) throws IOException {
        return TestSources.none().project(Files.writeString(dir.resolve("agent.toml"), toml));
    }

    private String failure(String toml) throws IOException {
        TestSources sources = file(toml);
        ConfigException e = catchThrowableOfType(ConfigException.class, sources::load);
        assertThat(e).as("expected a ConfigException").isNotNull();
        assertThat(e.getMessage()).as("one line").doesNotContain("\n");
        return e.getMessage();
    }

    @Test
    void noServerAndNoRuleByDefault() {
        assertThat(AgentConfig.defaults().mcp()).isEqualTo(McpSection.none());
    }

    @Test
    void threeLinesAddAStdioServerAndTheRulesNameServersOrTools() throws IOException {
        McpSection mcp = file("""
                [mcp]
                allow = ["files"]
                deny = ["files.write_file"]

                [[mcp.servers]]
                name = "files"
                command = "npx"
                args = ["-y", "@modelcontextprotocol/server-filesystem", "/tmp"]
                env = { GITHUB_TOKEN = "MY_TOKEN" }

                [[mcp.servers]]
                name = "remote"
                url = "https://mcp.example.com/mcp"
                headers = { Authorization = "REMOTE_AUTH" }
                timeout_s = 5
                """).load().config().mcp();

        assertThat(mcp.servers()).containsExactly(
                new McpServerEntry("files", "npx", List.of("-y", "@modelcontextprotocol/server-filesystem", "/tmp"),
                        Map.of("GITHUB_TOKEN", "MY_TOKEN"), "", Map.of(), McpServerEntry.DEFAULT_TIMEOUT, true, false,
                        List.of(), List.of()),
                new McpServerEntry("remote", "", List.of(), Map.of(), "https://mcp.example.com/mcp",
                        Map.of("Authorization", "REMOTE_AUTH"), Duration.ofSeconds(5), true, false, List.of(), List.of()));
        assertThat(mcp.servers().get(0).stdio()).isTrue();
        assertThat(mcp.servers().get(1).stdio()).isFalse();
        assertThat(mcp.allow()).containsExactly("files");
        assertThat(mcp.deny()).containsExactly("files.write_file");
        assertThat(mcp.ask()).isEmpty();
    }

    @Test
    void aStdioServerIsSandboxedWithoutNetworkUnlessItsEntrySaysOtherwise() throws IOException {
        McpServerEntry e = file("""
                [[mcp.servers]]
                name = "files"
                command = "node"
                network = true
                read_only = ["/opt/servers"]
                read_write = ["/srv/work"]
                [[mcp.servers]]
                name = "free"
                command = "node"
                sandbox = false
                """).load().config().mcp().servers().get(0);

        assertThat(e.sandbox()).isTrue();
        assertThat(e.network()).isTrue();
        assertThat(e.readOnly()).containsExactly(Path.of("/opt/servers"));
        assertThat(e.readWrite()).containsExactly(Path.of("/srv/work"));
        assertThat(failure("""
                [[mcp.servers]]
                name = "remote"
                url = "https://mcp.example.com/mcp"
                network = true
                """)).contains("has a sandbox profile", "only a server the agent starts");
    }

    @Test
    void anEnvValueThatIsNotAVariableNameIsRefusedWithoutShowingIt() throws IOException {
        String message = failure("""
                [[mcp.servers]]
                name = "gh"
                command = "gh-mcp"
                env = { GITHUB_TOKEN = "ghp_secret value" }
                """);

        assertThat(message).contains("mcp.servers entry 1", "env.GITHUB_TOKEN", "never its value")
                .doesNotContain("ghp_secret");
    }

    @Test
    void aServerNeedsCommandOrUrlButNotBoth() throws IOException {
        assertThat(failure("""
                [[mcp.servers]]
                name = "x"
                """)).contains("needs either command", "not neither");
        assertThat(failure("""
                [[mcp.servers]]
                name = "x"
                command = "a"
                url = "http://localhost:1/mcp"
                """)).contains("not both");
    }

    @Test
    void aNameWithADotOrTwiceIsRefused() throws IOException {
        assertThat(failure("""
                [[mcp.servers]]
                name = "a.b"
                command = "a"
                """)).contains("no dot");
        assertThat(failure("""
                [[mcp.servers]]
                name = "a"
                command = "a"
                [[mcp.servers]]
                name = "a"
                command = "b"
                """)).contains("entry 2", "repeats the name \"a\"");
    }

    @Test
    void headersOnAStdioServerAndRulesNamingNoServerAreRefused() throws IOException {
        assertThat(failure("""
                [[mcp.servers]]
                name = "a"
                command = "a"
                headers = { X = "Y" }
                """)).contains("headers, which only a url server");
        assertThat(failure("""
                [mcp]
                allow = ["b.tool"]
                [[mcp.servers]]
                name = "a"
                command = "a"
                """)).contains("mcp.allow", "\"b.tool\"", "one of a");
    }

    @Test
    void anUnknownFieldIsOneLine() throws IOException {
        assertThat(failure("""
                [[mcp.servers]]
                name = "a"
                comand = "a"
                """)).contains("mcp.servers", "comand");
    }

    @Test
    void aRefusedUrlNeverShowsItsUserAndPasswordNorTalksOfChatCompletions() throws IOException {
        String line = failure("""
                [[mcp.servers]]
                name = "remote"
                url = "https://bob:s3cretpw@mcp.example.org/mcp?profile=ops"
                """);

        assertThat(line).doesNotContain("s3cretpw").doesNotContain("bob:").contains("https://****@mcp.example.org")
                .contains("?query").doesNotContain("chat/completions");
    }

    @Test
    void aRegistryEntrysBaseUrlInAnErrorLineIsMaskedToo() throws IOException {
        String line = failure("""
                [[llm.registry]]
                id = "x"
                model = "m"
                base_url = "http://alice:hunter2@llm.example.org/v1"
                bogus = 1
                """);

        assertThat(line).doesNotContain("hunter2").doesNotContain("alice").contains("http://****@llm.example");
    }
}

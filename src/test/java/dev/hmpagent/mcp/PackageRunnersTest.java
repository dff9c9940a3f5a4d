package dev.hmpagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.config.McpServerEntry;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** The package runners a server's command may be, what each needs, and the fix said in agent.toml's words. */
class PackageRunnersTest {
    private static McpServerEntry entry(String command, boolean network, Map<String, String> env, String... args) {
        return new McpServerEntry("fs", command, List.of(args), env, "", Map.of(), Duration.ofSeconds(60), true,
                network, List.of(), List.of());
    }

    private static Optional<String> runner(String command, String... args) {
        return PackageRunners.of(entry(command, false, Map.of(), args)).map(PackageRunners::runner);
    }

    @Test
    void each_runner_is_known_by_its_command_and_first_word_and_other_commands_are_not_runners() {
        assertThat(runner("npx", "-y", "pkg")).contains("npx");
        assertThat(runner("/usr/local/bin/npx", "pkg")).contains("npx");
        assertThat(runner("uvx", "mcp-server-git")).contains("uvx");
        assertThat(runner("bunx", "pkg")).contains("bunx");
        assertThat(runner("pipx", "run", "pkg")).contains("pipx run");
        assertThat(runner("pnpm", "dlx", "pkg")).contains("pnpm dlx");
        assertThat(runner("yarn", "dlx", "pkg")).contains("yarn dlx");
        assertThat(runner("pipx", "install", "pkg")).isEmpty();
        assertThat(runner("node", "server.js")).isEmpty();
        assertThat(PackageRunners.of(new McpServerEntry("web", "", List.of(), Map.of(), "http://h/mcp", Map.of(),
                Duration.ofSeconds(60)))).isEmpty();
    }

    @Test
    void the_package_is_the_first_word_that_is_not_an_option_or_the_one_an_option_names() {
        McpServerEntry npx = entry("npx", false, Map.of(), "-y", "@modelcontextprotocol/server-filesystem", "/srv");
        assertThat(PackageRunners.of(npx).orElseThrow().packageOf(npx)).isEqualTo("@modelcontextprotocol/"
                + "server-filesystem");
        McpServerEntry uvx = entry("uvx", false, Map.of(), "--from", "mcp-git==1.0", "mcp-server-git");
        assertThat(PackageRunners.of(uvx).orElseThrow().packageOf(uvx)).isEqualTo("mcp-git==1.0");
        McpServerEntry pipx = entry("pipx", false, Map.of(), "run", "mcp-server-time");
        assertThat(PackageRunners.of(pipx).orElseThrow().packageOf(pipx)).isEqualTo("mcp-server-time");
    }

    @Test
    void in_a_sandbox_without_the_network_the_fix_is_either_key_in_the_config_s_own_words() {
        McpServerEntry npx = entry("npx", false, Map.of(), "-y", "@modelcontextprotocol/server-filesystem", "/srv");

        assertThat(PackageRunners.of(npx).orElseThrow().advice(npx, true)).isEqualTo("npx fetches"
                + " @modelcontextprotocol/server-filesystem from the npm registry when it starts, so it needs the"
                + " network and a writable cache (~/.npm), and this server's sandbox has no network (network = false),"
                + " so npx is run offline (npm_config_offline) and fails at once: set network = true on [[mcp.servers]]"
                + " fs (the package is then fetched into the sandbox's own HOME at each start), or install it once"
                + " (npm install --prefix DIR @modelcontextprotocol/server-filesystem), set command ="
                + " \"DIR/node_modules/.bin/<its program>\" and add DIR to read_only (as absolute paths); network can"
                + " then stay off");
        assertThat(PackageRunners.of(npx).orElseThrow().advice(npx, false)).isEqualTo("npx fetches"
                + " @modelcontextprotocol/server-filesystem from the npm registry when it starts, so it needs the"
                + " network and a writable cache (~/.npm)");
        McpServerEntry uvx = entry("uvx", true, Map.of(), "mcp-server-git");
        assertThat(PackageRunners.of(uvx).orElseThrow().advice(uvx, true)).startsWith("uvx fetches mcp-server-git"
                + " from PyPI when it starts, so it needs the network and a writable cache (~/.cache/uv); in its"
                + " sandbox HOME is its own /tmp").contains("uv tool install mcp-server-git");
    }

    @Test
    void only_a_confined_runner_without_the_network_is_told_to_work_offline_and_the_entry_s_own_env_wins() {
        assertThat(PackageRunners.offline(entry("npx", false, Map.of(), "pkg"), true))
                .isEqualTo(Map.of("npm_config_offline", "true"));
        assertThat(PackageRunners.offline(entry("uvx", false, Map.of(), "pkg"), true))
                .isEqualTo(Map.of("UV_OFFLINE", "1"));
        assertThat(PackageRunners.offline(entry("npx", true, Map.of(), "pkg"), true)).isEmpty();
        assertThat(PackageRunners.offline(entry("npx", false, Map.of(), "pkg"), false)).isEmpty();
        assertThat(PackageRunners.offline(entry("node", false, Map.of(), "pkg"), true)).isEmpty();
        assertThat(PackageRunners.offline(entry("npx", false, Map.of("npm_config_offline", "MY_VAR"), "pkg"), true))
                .isEmpty();
    }
}

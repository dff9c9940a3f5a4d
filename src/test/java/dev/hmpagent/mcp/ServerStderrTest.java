package dev.hmpagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The stderr line a failed start quotes is the one that says why, not the last (issue 34). */
class ServerStderrTest {
    /** What node 20 writes when a server's files are outside its sandbox profile, as it wrote it. */
    private static final List<String> NODE = List.of("node:internal/modules/cjs/loader:1210", "  throw err;", "  ^",
            "", "Error: Cannot find module '/opt/mcp/node_modules/@modelcontextprotocol/server-filesystem/dist/index.js'",
            "    at Module._resolveFilename (node:internal/modules/cjs/loader:1207:15)",
            "    at node:internal/main/run_main_module:28:49 {", "  code: 'MODULE_NOT_FOUND',", "  requireStack: []",
            "}", "", "Node.js v20.20.2");
    /** What npx writes when the registry cannot be reached (no network in its sandbox). */
    private static final List<String> NPM = List.of("npm error code EAI_AGAIN", "npm error syscall getaddrinfo",
            "npm error errno EAI_AGAIN", "npm error request to https://registry.npmjs.org/@modelcontextprotocol%2f"
                    + "server-filesystem failed, reason: getaddrinfo EAI_AGAIN registry.npmjs.org",
            "npm error A complete log of this run can be found in: /tmp/.npm/_logs/2026-11-29T12_25_34_106Z-debug-0.log");

    @Test
    void node_s_missing_module_is_quoted_not_its_version_line_or_its_stack() {
        assertThat(ServerStderr.meaningful(NODE)).isEqualTo("Error: Cannot find module '/opt/mcp/node_modules/"
                + "@modelcontextprotocol/server-filesystem/dist/index.js'");
    }

    @Test
    void npm_s_network_error_is_its_request_line_not_its_bare_fields_nor_where_its_log_went() {
        assertThat(ServerStderr.meaningful(NPM)).startsWith("npm error request to https://registry.npmjs.org/")
                .endsWith("getaddrinfo EAI_AGAIN registry.npmjs.org");
        assertThat(ServerStderr.meaningful(List.of("npm ERR! code E404", "npm ERR! 404 Not Found - GET"
                + " https://registry.npmjs.org/nope", "npm ERR! A complete log of this run can be found in: x")))
                .isEqualTo("npm ERR! 404 Not Found - GET https://registry.npmjs.org/nope");
    }

    @Test
    void python_s_missing_module_a_missing_command_and_a_refused_permission_are_each_the_line_quoted() {
        assertThat(ServerStderr.meaningful(List.of("Traceback (most recent call last):", "  File \"<string>\", line"
                + " 1, in <module>", "ModuleNotFoundError: No module named 'mcp'", "")))
                .isEqualTo("ModuleNotFoundError: No module named 'mcp'");
        assertThat(ServerStderr.meaningful(List.of("starting", "sh: 1: mcp-server: not found", "bye")))
                .isEqualTo("sh: 1: mcp-server: not found");
        assertThat(ServerStderr.meaningful(List.of("listening", "Error: EACCES: permission denied, mkdir '/data'",
                "Node.js v20.20.2"))).isEqualTo("Error: EACCES: permission denied, mkdir '/data'");
    }

    @Test
    void without_a_cause_the_last_error_then_the_last_line_that_is_not_noise_and_nothing_for_nothing() {
        assertThat(ServerStderr.meaningful(List.of("fatal: bad config", "warming up", "ValueError: port must be a"
                + " number", "shutting down"))).isEqualTo("ValueError: port must be a number");
        assertThat(ServerStderr.meaningful(List.of("Secure MCP Filesystem Server running on stdio", "    at x (y:1)")))
                .isEqualTo("Secure MCP Filesystem Server running on stdio");
        assertThat(ServerStderr.meaningful(List.of("Node.js v20.20.2"))).isEqualTo("Node.js v20.20.2");
        assertThat(ServerStderr.meaningful(List.of())).isEmpty();
    }

    @Test
    void only_the_last_lines_are_kept_and_a_restart_forgets_them() {
        ServerStderr stderr = new ServerStderr();
        stderr.add("Error: Cannot find module 'gone'");
        for (int i = 0; i < ServerStderr.KEPT; i++) stderr.add("line " + i);
        stderr.ended();
        stderr.awaitEnd();
        assertThat(stderr.meaningful()).isEqualTo("line " + (ServerStderr.KEPT - 1));
        stderr.clear();
        stderr.add("Error: Cannot find module 'here'");
        assertThat(stderr.meaningful()).isEqualTo("Error: Cannot find module 'here'");
    }
}

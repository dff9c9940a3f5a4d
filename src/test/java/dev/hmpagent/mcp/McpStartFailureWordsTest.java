package dev.hmpagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.config.McpServerEntry;
import io.modelcontextprotocol.spec.McpError;
import io.modelcontextprotocol.spec.McpSchema;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** A failed start or call said in a person's words, not the SDK's or Reactor's. */
class McpStartFailureWordsTest {
    private static final McpServerEntry STDIO = new McpServerEntry("files", "mcp-files", List.of(), Map.of(), "",
            Map.of(), Duration.ofSeconds(60));
    private static final McpServerEntry URL = new McpServerEntry("web", "", List.of(), Map.of(),
            "http://127.0.0.1:9/mcp", Map.of(), Duration.ofSeconds(60));
    /** What Reactor's timeout says, wrapped as the SDK's blocking call rethrows it. */
    private static final RuntimeException REACTOR_TIMEOUT = new IllegalStateException("wrapped",
            new TimeoutException("Did not observe any item or terminal signal within 60000ms in"
                    + " 'source(MonoDeferContextual)' (and no fallback has been configured)"));

    @Test
    void a_handshake_that_never_completes_says_so_and_asks_whether_it_is_an_mcp_server() {
        RuntimeException sdk = new RuntimeException("Client failed to initialize by explicit API call",
                REACTOR_TIMEOUT);

        assertThat(McpWords.startFailed(STDIO, sdk))
                .isEqualTo("it did not complete MCP's initialize handshake (no answer in time): is it an MCP server,"
                        + " writing nothing but JSON-RPC on its stdout?")
                .doesNotContain("explicit API call").doesNotContain("MonoDeferContextual");
    }

    @Test
    void a_package_runner_that_exited_is_said_with_its_meaningful_stderr_line_and_the_fix_not_the_stdout_question() {
        McpServerEntry npx = new McpServerEntry("fs", "npx", List.of("-y", "@modelcontextprotocol/server-filesystem",
                "/srv"), Map.of(), "", Map.of(), Duration.ofSeconds(60), true, false, List.of(), List.of());
        String said = ServerStderr.meaningful(List.of("npm error code ENOTCACHED", "npm error request to"
                + " https://registry.npmjs.org/x failed: cache mode is 'only-if-cached' but no cached response is"
                + " available.", "npm error A complete log of this run can be found in: /tmp/.npm/_logs/x.log"));

        String line = McpWords.startFailure(npx, true, new RuntimeException("closed"), "exited", "", said);

        assertThat(line).startsWith("it exited before completing MCP's initialize handshake (it said on stderr: \"npm"
                + " error request to https://registry.npmjs.org/x failed: cache mode is 'only-if-cached' but no cached"
                + " response is available.\"); npx fetches @modelcontextprotocol/server-filesystem from the npm"
                + " registry when it starts").contains("set network = true on [[mcp.servers]] fs")
                .doesNotContain("is it an MCP server");
        assertThat(McpWords.startFailure(npx, true, new RuntimeException("Client failed to initialize by explicit API"
                + " call", REACTOR_TIMEOUT), "", "", "")).startsWith("it did not complete MCP's initialize handshake"
                + " (no answer in time); npx fetches").doesNotContain("is it an MCP server");
    }

    @Test
    void a_handshake_written_to_a_server_already_gone_is_said_as_its_exit_however_the_race_went() {
        RuntimeException brokenPipe = new RuntimeException("Client failed to initialize by explicit API call",
                new java.io.UncheckedIOException(new java.io.IOException("Broken pipe")));

        assertThat(McpWords.startFailure(STDIO, true, brokenPipe, "", "", "Error: Cannot find module 'x'"))
                .as("the write failed before its exit was seen: the same words as when the exit came first")
                .isEqualTo(McpWords.startFailure(STDIO, true, new RuntimeException("closed"), "exited", "",
                        "Error: Cannot find module 'x'"))
                .startsWith("it exited before completing MCP's initialize handshake (it said on stderr:");
    }

    @Test
    void a_server_that_exited_during_its_start_is_said_with_the_stderr_line_that_says_why() {
        String said = ServerStderr.meaningful(List.of("node:internal/modules/cjs/loader:1210", "  throw err;",
                "Error: Cannot find module '/opt/mcp/dist/index.js'", "    at Module._load (node:internal/x:1:1)",
                "Node.js v20.20.2"));

        assertThat(McpWords.startFailure(STDIO, true, new RuntimeException("closed"), "exited", "", said))
                .isEqualTo("it exited before completing MCP's initialize handshake (it said on stderr: \"Error: Cannot"
                        + " find module '/opt/mcp/dist/index.js'\")");
        assertThat(McpWords.startFailure(STDIO, true, new RuntimeException("closed"), "exited", "", ""))
                .isEqualTo("it exited before completing MCP's initialize handshake");
    }

    @Test
    void a_url_server_gets_advice_about_its_address_not_about_stdout() {
        RuntimeException sdk = new RuntimeException("Client failed to initialize by explicit API call",
                new java.io.IOException("Connection refused"));

        assertThat(McpWords.startFailed(URL, sdk))
                .isEqualTo("it did not complete MCP's initialize handshake (Connection refused): is"
                        + " http://127.0.0.1:9/mcp the address of an MCP endpoint (streamable HTTP), and is the server"
                        + " up?")
                .doesNotContain("stdout");
    }

    @Test
    void the_deepest_cause_the_sdk_kept_is_named_and_other_failures_keep_their_own_words() {
        RuntimeException closed = new RuntimeException("Client failed to initialize by explicit API call",
                new java.io.IOException("Connection refused"));
        assertThat(McpWords.startFailed(STDIO, closed)).contains("handshake (Connection refused)");
        assertThat(McpWords.startFailed(URL, new IllegalStateException("HTTP 401 Unauthorized")))
                .isEqualTo("HTTP 401 Unauthorized");
    }

    @Test
    void a_call_that_timed_out_names_the_server_the_wait_and_timeout_s_never_reactor() {
        CommandOutcome outcome = McpWords.callFailed(STDIO, "read", REACTOR_TIMEOUT);

        assertThat(outcome.code()).isEqualTo("ETIMEDOUT");
        assertThat(outcome.result()).isEqualTo("mcp server files did not answer mcp.files.read within 60 s"
                + " (timeout_s); the call was given up: the server may be busy or hung, or the call may need a larger"
                + " timeout_s").doesNotContain("Exception").doesNotContain("Mono");
    }

    @Test
    void a_reset_a_json_rpc_error_and_a_refused_message_are_each_said_as_such() {
        assertThat(McpWords.callFailed(URL, "fetch", new RuntimeException(new java.io.IOException(
                new java.net.SocketException("Connection reset")))).result())
                .isEqualTo("the connection to mcp server web (http://127.0.0.1:9/mcp) was reset during mcp.web.fetch;"
                        + " the call did not complete");
        CommandOutcome error = McpWords.callFailed(STDIO, "read", new McpError(
                new McpSchema.JSONRPCResponse.JSONRPCError(-32602, "Unknown tool: read")));
        assertThat(error.result()).isEqualTo("mcp.files.read failed: the server answered with an error: Unknown tool:"
                + " read (JSON-RPC error -32602)");
        CommandOutcome refused = McpWords.callFailed(STDIO, "read", new McpError(
                new McpSchema.JSONRPCResponse.JSONRPCError(StdioTransport.REFUSED,
                        "a message of 50 MB from MCP server files was refused (limit 16 MB)")));
        assertThat(refused.code()).isEqualTo("EFBIG");
        assertThat(refused.result()).startsWith("mcp.files.read failed: a message of 50 MB from MCP server files was"
                + " refused (limit 16 MB); ask for less");
    }
}

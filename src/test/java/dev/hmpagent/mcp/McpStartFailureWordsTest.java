package dev.hmpagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeoutException;
import org.junit.jupiter.api.Test;

/** A failed start said in a person's words, not the SDK's or Reactor's. */
class McpStartFailureWordsTest {
    @Test
    void a_handshake_that_never_completes_says_so_and_asks_whether_it_is_an_mcp_server() {
        RuntimeException sdk = new RuntimeException("Client failed to initialize by explicit API call",
                new IllegalStateException("wrapped", new TimeoutException("Did not observe any item or terminal signal"
                        + " within 5000ms in 'source(MonoDeferContextual)' (and no fallback has been configured)")));

        assertThat(McpConnection.why(sdk))
                .isEqualTo("it did not complete MCP's initialize handshake (no answer in time): is it an MCP server,"
                        + " writing nothing but JSON-RPC on its stdout?")
                .doesNotContain("explicit API call").doesNotContain("MonoDeferContextual");
    }

    @Test
    void the_deepest_cause_the_sdk_kept_is_named_and_other_failures_keep_their_own_words() {
        RuntimeException closed = new RuntimeException("Client failed to initialize by explicit API call",
                new java.io.IOException("Connection refused"));
        assertThat(McpConnection.why(closed)).contains("handshake (Connection refused)");
        assertThat(McpConnection.why(new IllegalStateException("HTTP 401 Unauthorized")))
                .isEqualTo("HTTP 401 Unauthorized");
    }
}

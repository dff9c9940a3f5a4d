package dev.hmpagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** {@code agent --version} must not pay for the MCP SDK: not one of its classes (nor of this room) is loaded. */
class McpStartupCostTest {
    @Test
    void agent_version_loads_no_class_of_the_mcp_sdk() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process p = new ProcessBuilder(List.of(java, "-verbose:class", "-cp", System.getProperty("java.class.path"),
                "dev.hmpagent.cli.Main", "--version")).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();

        assertThat(out).contains("hmp-agent ").contains("dev.hmpagent.cli.Main")
                .doesNotContain("io.modelcontextprotocol").doesNotContain("dev.hmpagent.mcp.");
    }
}

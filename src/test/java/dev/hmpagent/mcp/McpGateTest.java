package dev.hmpagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.hmpagent.commands.CommandGate.Verdict;
import dev.hmpagent.commands.PendingCommand;
import dev.hmpagent.config.McpSection;
import java.util.List;
import org.junit.jupiter.api.Test;

class McpGateTest {
    private static PendingCommand command(String type) {
        return new PendingCommand(1, 1, "c-1", type, JsonNodeFactory.instance.objectNode(), "", "fp");
    }

    private static Verdict verdict(McpSection rules, String type) {
        return new McpGate(rules).check(command(type)).verdict();
    }

    @Test
    void a_tool_named_nowhere_is_asked_and_other_commands_pass() {
        McpSection none = McpSection.none();

        assertThat(verdict(none, "mcp.files.read_file")).isEqualTo(Verdict.ASK);
        assertThat(new McpGate(none).check(command("mcp.files.read_file")).reason())
                .contains("neither files.read_file nor files is in [mcp] allow");
        assertThat(verdict(none, "diary_entry")).isEqualTo(Verdict.ALLOW);
    }

    @Test
    void the_tools_own_entry_beats_its_servers_and_deny_beats_ask_beats_allow() {
        McpSection rules = new McpSection(List.of(), List.of("files", "web.fetch"), List.of("files.write_file", "web"),
                List.of("files.delete", "shell"));

        assertThat(verdict(rules, "mcp.files.read_file")).isEqualTo(Verdict.ALLOW);
        assertThat(verdict(rules, "mcp.files.write_file")).isEqualTo(Verdict.ASK);
        assertThat(verdict(rules, "mcp.files.delete")).isEqualTo(Verdict.DENY);
        assertThat(verdict(rules, "mcp.web.fetch")).isEqualTo(Verdict.ALLOW);
        assertThat(verdict(rules, "mcp.web.search")).isEqualTo(Verdict.ASK);
        assertThat(verdict(rules, "mcp.shell.run")).isEqualTo(Verdict.DENY);
    }

    @Test
    void an_always_answer_allows_that_tool_for_the_session_only() {
        McpGate gate = new McpGate(new McpSection(List.of(), List.of(), List.of("files"), List.of()));

        gate.allowForSession(command("mcp.files.read_file"));

        assertThat(gate.check(command("mcp.files.read_file")).verdict()).isEqualTo(Verdict.ALLOW);
        assertThat(gate.check(command("mcp.files.write_file")).verdict()).isEqualTo(Verdict.ASK);
    }
}

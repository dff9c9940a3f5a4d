package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.AgentProgram;
import dev.hmpagent.testing.McpReferenceServers;
import dev.hmpagent.testing.TmuxPane;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code agent mcp list} in a real terminal at 60, 120 and 200 columns: each tool is one row, its description's first
 * sentence cut at the terminal's width (or at the listing's cap of 100) with "…", never wrapped into a wall.
 */
@Timeout(180)
class McpListInTerminalTest {
    @TempDir Path dir;

    /** The rows of the tools, as {@code agent mcp list} left them on a screen {@code columns} wide. */
    private List<String> toolRows(int columns) throws Exception {
        Path at = Files.createDirectories(dir.resolve("w" + columns));
        AgentProgram program = AgentProgram.in(at, "http://127.0.0.1:9/v1");
        Files.writeString(at.resolve("agent.toml"), "[llm]\nmodel = \"m\"\n[[mcp.servers]]\nname = \"everything\"\n"
                + "command = \"" + McpReferenceServers.node() + "\"\nargs = [\"" + McpReferenceServers.everything()
                + "\", \"stdio\"]\nread_only = [\"" + McpReferenceServers.folder() + "\"]\n");
        List<String> argv = new ArrayList<>(program.argv());
        argv.addAll(List.of("mcp", "list"));
        try (TmuxPane pane = TmuxPane.start(at, program.env("xterm-256color"), argv, columns)) {
            assertThat(pane.awaitExit()).as("%s", pane.capture()).isZero();
            return pane.capture().rows().stream().filter(r -> r.startsWith("  mcp.")).toList();
        }
    }

    @Test
    void each_tool_is_one_row_cut_at_the_width_with_an_ellipsis_at_60_120_and_200_columns() throws Exception {
        Map<Integer, List<String>> rows = new TreeMap<>();
        for (int columns : new int[] {60, 120, 200}) rows.put(columns, toolRows(columns));

        List<String> wide = rows.get(200);
        assertThat(wide).as("every tool of the server, one row each").hasSize(13)
                .contains("  mcp.everything.echo(message: string) — Echoes back the input string")
                .allSatisfy(r -> assertThat(r.length()).as(r).isLessThanOrEqualTo(100));
        assertThat(rows.get(120)).as("the listing's cap, the same at 120 and 200").isEqualTo(wide);
        List<String> narrow = rows.get(60);
        assertThat(narrow).hasSize(wide.size());
        for (int i = 0; i < wide.size(); i++) {
            String row = narrow.get(i);
            assertThat(row.length()).as(row).isLessThanOrEqualTo(60);
            if (!row.equals(wide.get(i))) {
                assertThat(row).as("a row cut at 60 columns says so").endsWith("…")
                        .hasSize(60);
                assertThat(wide.get(i)).startsWith(row.substring(0, row.length() - 1));
            }
        }
        assertThat(narrow).as("at 60 columns some rows are cut").anyMatch(r -> r.endsWith("…"));
    }
}

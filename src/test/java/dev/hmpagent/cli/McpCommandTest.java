package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.DamagedFiles;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Clock;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code agent mcp} and {@code agent mcp serve} as commands: their help, the bare group, and a file serve cannot
 * serve, which fails before any protocol with the message and exit code {@code agent status} gives for it.
 */
@Timeout(60)
class McpCommandTest {
    @TempDir Path dir;

    CliRun agent(String... args) {
        List<String> all = new java.util.ArrayList<>(List.of("--db", dir.resolve("agent.db").toString()));
        all.addAll(List.of(args));
        return CliRun.agent(Map.of("HOME", dir.toString()), cl -> { }, all.toArray(String[]::new));
    }

    @Test
    void a_damaged_file_fails_serve_as_it_fails_status() throws Exception {
        Path db = dir.resolve("agent.db");
        try (Store store = Store.open(db, Clock.systemUTC())) {
            NotesDao notes = new NotesDao(store);
            store.inTransaction(() -> {
                for (int i = 0; i < 400; i++) notes.add("note " + i + " " + "lorem ipsum ".repeat(10), "user", 0, null);
            });
        }
        DamagedFiles.damageNotes(db);

        assertSameFailure(ExitCodes.DATABASE);
    }

    @Test
    void a_file_from_a_newer_agent_fails_serve_as_it_fails_status() throws Exception {
        Path db = dir.resolve("agent.db");
        Store.open(db, Clock.systemUTC()).close();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            st.execute("INSERT INTO schema_version(version, description, applied_at) VALUES (999, 'future', 'x')");
        }

        assertSameFailure(ExitCodes.DATABASE);
    }

    @Test
    void a_missing_file_fails_serve_as_it_fails_status_and_is_not_created() {
        assertSameFailure(ExitCodes.DATABASE);
        assertThat(Files.exists(dir.resolve("agent.db"))).isFalse();
    }

    void assertSameFailure(int code) {
        CliRun status = agent("status", "--json");
        CliRun serve = agent("mcp", "serve");

        assertThat(status.code()).as(status.err()).isEqualTo(code);
        assertThat(serve.code()).isEqualTo(code);
        assertThat(serve.err()).isEqualTo(status.err()).startsWith("agent: ").doesNotContain("Exception");
        assertThat(serve.err().strip()).doesNotContain("\n");
        assertThat(serve.out()).isEmpty();
    }

    @Test
    void agent_mcp_alone_names_its_subcommands_and_exits_2() {
        CliRun run = agent("mcp");

        assertThat(run.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("agent mcp needs a subcommand: list, serve");
    }

    @Test
    void serve_help_names_its_tools_says_there_is_no_unlock_and_has_the_sections_of_every_command() {
        CliRun help = CliRun.agent("mcp", "serve", "--help");

        assertThat(help.code()).isZero();
        assertThat(help.out()).contains("note (a message from a peer, not a person), status, log, halt")
                .contains("No unlock").contains("\nExamples:\n").contains("\n\nEnvironment:\n  AGENT_DB")
                .contains("\n\nExit codes:\n  0 ok");
        assertThat(help.out().lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(HelpSections.WIDTH));
        assertThat(HelpTest.section(help.out(), "Examples")).hasSizeBetween(2, 4)
                .allSatisfy(l -> assertThat(l).startsWith("  ").contains("agent").contains("mcp").contains("serve"));
    }

    @Test
    void list_is_in_the_group_and_its_help_has_the_sections_of_every_command() {
        CliRun help = CliRun.agent("mcp", "list", "--help");

        assertThat(help.code()).as(help.err()).isZero();
        assertThat(help.out()).contains("state and tools").contains("\nExamples:\n")
                .contains("\n\nEnvironment:\n").contains("\n\nExit codes:\n  0 ok");
        assertThat(help.out().lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(HelpSections.WIDTH));
        assertThat(HelpTest.section(help.out(), "Examples")).hasSizeBetween(2, 4)
                .allSatisfy(l -> assertThat(l).startsWith("  agent mcp list"));
    }
}

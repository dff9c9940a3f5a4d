package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.FakeOpenAiServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** What a person types, through the real command line on a dumb terminal: blocks, escapes, history, resuming. */
@Timeout(60)
class ReplInputEndToEndTest {
    @TempDir Path dir;
    FakeOpenAiServer llm;
    Path db;
    Path config;
    ByteArrayOutputStream terminalOut;
    StringWriter err = new StringWriter();

    @BeforeEach
    void start() throws IOException {
        llm = new FakeOpenAiServer();
        db = dir.resolve("agent.db");
        config = dir.resolve("agent.toml");
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n");
    }

    @AfterEach
    void stop() {
        llm.close();
    }

    int agent(boolean interactive, Map<String, String> env, String input, String... args) {
        terminalOut = new ByteArrayOutputStream();
        Map<String, String> all = new java.util.HashMap<>(env);
        all.put("HOME", dir.toString());
        Launch launch = new Launch(all,
                () -> new DumbTerminal(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), terminalOut),
                Clock.systemUTC(), interactive);
        picocli.CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(new StringWriter(), true));
        err = new StringWriter();
        cl.setErr(new PrintWriter(err, true));
        List<String> argv = new ArrayList<>(List.of("--config", config.toString(), "--db", db.toString(),
                "--base-url", llm.baseUrl()));
        argv.addAll(List.of(args));
        return cl.execute(argv.toArray(String[]::new));
    }

    /** All the person saw: piped, stdout (answers) and stderr (the rest). */
    String terminal() {
        return terminalOut.toString(StandardCharsets.UTF_8) + err;
    }

    List<String> column(String sql) throws Exception {
        List<String> out = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); ResultSet rs = c.createStatement().executeQuery(sql)) {
            while (rs.next()) out.add(rs.getString(1));
        }
        return out;
    }

    @Test
    void a_triple_quoted_block_is_one_message_with_its_newlines_and_escapes_typed_on_a_dumb_terminal_are_removed()
            throws Exception {
        llm.streamed("Read it.", 10, 2).streamed("Read that too.", 10, 2);

        int code = agent(false, Map.of(), "\"\"\"\nfirst line\n  second line!\nlast \\n line\"\"\"\n\u001b[Ahello\u001b[B there\n");

        assertThat(code).isZero();
        assertThat(column("SELECT text FROM notes WHERE source = 'user' ORDER BY id"))
                .containsExactly("first line\n  second line!\nlast \\n line", "hello there");
    }

    @Test
    void a_piped_line_of_10_mb_becomes_one_whole_note_and_is_answered() throws Exception {
        // before: JLine's line editor took ~17 s of CPU per MB of one piped line (minutes for 10 MB)
        llm.streamed("Read it all.", 10, 2);
        String line = "log\tline: ".repeat(1_000_000);   // 10,000,000 characters, tabs (not completion) kept

        assertThat(agent(false, Map.of(), line + "\n")).isZero();

        assertThat(column("SELECT length(text) FROM notes WHERE source = 'user'")).containsExactly("9999999");
        assertThat(column("SELECT substr(text, 1, 9) FROM notes WHERE source = 'user'")).containsExactly("log\tline:");
        assertThat(llm.requestCount()).as("the agent was asked about it").isGreaterThanOrEqualTo(1);
        assertThat(terminal()).contains("Read it all.");
    }

    @Test
    void history_is_kept_beside_the_database_for_its_owner_only_and_shared_by_the_next_start() throws Exception {
        llm.streamed("Noted.", 10, 2).streamed("Noted again.", 10, 2);
        assertThat(agent(true, Map.of(), "/status\nfirst session line\n")).isZero();

        Path history = dir.resolve("agent.db.history");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(history))).isEqualTo("rw-------");
        assertThat(agent(true, Map.of(), "second session line\n")).isZero();
        assertThat(Files.readString(history)).contains("/status").contains("first session line")
                .contains("second session line");
    }

    @Test
    void a_start_shows_the_last_exchanges_so_the_person_knows_which_mind_this_is() throws Exception {
        llm.streamed(AgentReplEndToEndTest.REPLY, 812, 95).streamed("Done.", 10, 2);
        assertThat(agent(false, Map.of(), "hello agent, I am Ann\n")).isZero();

        assertThat(agent(true, Map.of(), "/quit\n")).isZero();
        assertThat(terminal()).contains("resumed: the last exchanges in agent.db")
                .contains("  you> hello agent, I am Ann").contains("  agent> Hello, human! Nice to meet you.");
    }

    @Test
    void piped_input_is_not_history_has_no_banner_and_no_colour() throws Exception {
        llm.streamed(AgentReplEndToEndTest.REPLY, 812, 95).streamed("Done.", 10, 2);

        assertThat(agent(false, Map.of(), "hello\n")).isZero();

        assertThat(Files.exists(dir.resolve("agent.db.history"))).isFalse();
        assertThat(terminal()).doesNotContain("hmp-agent:").doesNotContain("\u001b")
                .as("no prompt and no echo of what was piped in").doesNotContain("you>").doesNotContain("hello\n")
                .as("the bare answer").startsWith("Hello, human! Nice to meet you.");
    }

    @Test
    void verbose_shows_thoughts_and_results_and_slash_verbose_changes_it() throws Exception {
        llm.streamed(AgentReplEndToEndTest.REPLY, 812, 95).streamed("Done.", 10, 2);

        assertThat(agent(false, Map.of(), "hello\n", "--verbose")).isZero();
        assertThat(terminal()).contains("(thought) The user greeted me").contains("[diary_entry c-2] ok");

        assertThat(agent(false, Map.of(), "/verbose\n/verbose full\n/verbose\n/verbose loud\n/quit\n")).isZero();
        assertThat(terminal()).contains("verbosity: quiet (/verbose quiet|normal|full)").contains("verbosity: full")
                .contains("/verbose takes quiet, normal or full, e.g. /verbose normal");
    }

    @Test
    void drop_forgets_the_persons_unread_messages() throws Exception {
        try (var store = dev.hmpagent.store.Store.open(db, Clock.systemUTC())) {
            new dev.hmpagent.store.NotesDao(store).add("an old question", "user", 0, null);
            // halted before it starts, so nothing answers the message before /drop (halted from the REPL only, a call
            // could start in the moment before the halt lands, and the fake server holds an unscripted call open)
            new dev.hmpagent.safety.SafetyControl(store).halt("testing", dev.hmpagent.store.Requester.thisProcess());
        }
        assertThat(agent(false, Map.of(), "/halt testing\n/drop\n/drop\n/quit\n")).isIn(0, 7);
        assertThat(terminal()).contains("dropped 1 message: the agent will not answer it")
                .contains("no unread message to drop");
        assertThat(column("SELECT read FROM notes WHERE text = 'an old question'")).containsExactly("1");
    }

    @Test
    void a_message_typed_while_halted_is_kept_and_the_person_is_told_the_agent_is_locked() throws Exception {
        assertThat(agent(false, Map.of(), "/halt testing\nare you there?\n/quit\n")).isIn(0, 7);
        assertThat(terminal()).contains("locked: STOPPED(halt)")
                .contains("your message is kept and seen after /unlock (or agent unlock)");
        assertThat(column("SELECT read FROM notes WHERE text = 'are you there?'")).containsExactly("0");
        assertThat(llm.requestCount()).as("a halted agent asks nothing").isZero();
    }

    @Test
    void clicolor_force_colours_output_that_is_not_a_terminal_and_without_it_there_is_none() {
        llm.streamed("**Forced** colour.", 10, 2).streamed("**Plain** text.", 10, 2);

        assertThat(agent(false, Map.of("CLICOLOR_FORCE", "1"), "hello\n")).isZero();
        String forced = terminalOut.toString(StandardCharsets.UTF_8);
        assertThat(agent(false, Map.of(), "again\n")).isZero();
        String plain = terminalOut.toString(StandardCharsets.UTF_8);

        assertThat(forced).as("the bare answer's markdown rendered: bold, not asterisks").contains("Forced")
                .contains(" colour.").contains("\u001b[").doesNotContain("**");
        assertThat(plain).as("as the model wrote it").contains("**Plain** text.").doesNotContain("\u001b[");
    }

    @Test
    void colour_follows_no_color_clicolor_force_and_the_flag() {
        assertThat(ColorChoice.colour(Map.of(), false, true)).isTrue();
        assertThat(ColorChoice.colour(Map.of(), false, false)).isFalse();
        assertThat(ColorChoice.colour(Map.of("NO_COLOR", "1"), false, true)).isFalse();
        assertThat(ColorChoice.colour(Map.of("NO_COLOR", ""), false, true)).as("an empty NO_COLOR is unset").isTrue();
        assertThat(ColorChoice.colour(Map.of("CLICOLOR_FORCE", "1"), false, false)).isTrue();
        assertThat(ColorChoice.colour(Map.of("CLICOLOR_FORCE", "0"), false, false)).isFalse();
        assertThat(ColorChoice.colour(Map.of("CLICOLOR_FORCE", "1"), true, true)).isFalse();
    }
}

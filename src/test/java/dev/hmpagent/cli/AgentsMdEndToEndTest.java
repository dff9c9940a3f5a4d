package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.context.StandingInstructions;
import dev.hmpagent.runtime.Launch;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeOpenAiServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
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
import picocli.CommandLine;

/**
 * {@code AGENTS.md} in the working directory, through a real {@code agent run} against a scripted LLM on a real
 * socket: its text is the person's standing instructions in context 0, read once at start, cut at the cap with the
 * cut said to the prompt and to the person; the LLM cannot rewrite it headless; {@code agent check} says what it found.
 */
@Timeout(60)
class AgentsMdEndToEndTest {
    @TempDir Path dir;
    FakeOpenAiServer llm;
    Path db;
    Path config;
    /** The agent's working directory, where AGENTS.md is looked for. */
    Path work;
    Path agentsMd;

    @BeforeEach
    void start() throws Exception {
        llm = new FakeOpenAiServer();
        db = dir.resolve("agent.db");
        config = dir.resolve("agent.toml");
        work = Files.createDirectories(dir.resolve("project"));
        agentsMd = work.resolve("AGENTS.md");
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n[files]\nroots = [\"" + work + "\"]\n"
                + "[policy]\nshell_allow = [\"*\"]\n");
        Store.open(db, Clock.systemUTC()).close();
    }

    @AfterEach
    void stop() {
        llm.close();
    }

    record Run(int code, String out, String err) { }

    Run cli(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Launch launch = new Launch(Map.of("HOME", dir.toString()),
                () -> new DumbTerminal(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()),
                Clock.systemUTC(), false, dev.hmpagent.runtime.LlmChain::client).in(work);
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--config", config.toString(), "--db", db.toString(), "--base-url", llm.baseUrl()));
        return new Run(cl.execute(all.toArray(String[]::new)), out.toString(), err.toString());
    }

    String text(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    static String commands(String json) {
        return "\n# Commands:\n```json\n" + json + "\n```\n# End commands\n";
    }

    @Test
    void agents_md_is_in_context_0_of_the_first_request_and_stays_as_read_at_start_when_the_file_changes()
            throws Exception {
        Files.writeString(agentsMd, "# House rules\nAlways answer in French.\n");
        assertThat(cli("note", "what are the rules?").code()).isZero();
        // the first request arrives: the file changes under the running agent, and the LLM reads it
        llm.script(request -> {
            try {
                Files.writeString(agentsMd, "Answer in German from now on.\n");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return FakeOpenAiServer.streamedResponse("Reading them." + commands(
                    "{\"cmd_id\": \"r\", \"type\": \"file_read\", \"args\": {\"path\": \"AGENTS.md\"}}"), 10, 5, 0);
        }).streamed("Nothing more.", 10, 1);

        Run run = cli("run", "--hz", "50", "--max-ticks", "4");

        assertThat(run.code()).as(run.err()).isZero();
        FakeOpenAiServer.Received first = llm.take();
        assertThat(first.system()).contains("Standing instructions from the person who runs you")
                .contains("# House rules\nAlways answer in French.");
        assertThat(first.system().indexOf("Always answer in French."))
                .as("after the role, before the reply format and the catalogue")
                .isLessThan(first.system().indexOf("Reply format:"));
        assertThat(first.user()).doesNotContain("Always answer in French.");
        FakeOpenAiServer.Received second = llm.take();
        assertThat(second.user()).as("reading AGENTS.md is allowed").contains("Answer in German from now on.");
        assertThat(second.system()).as("read once at start: context 0 is byte-identical").isEqualTo(first.system());
        assertThat(run.out() + run.err()).doesNotContain("is cut").doesNotContain("tokens, over half")
                .as("the start's banner says the file was read").contains(", AGENTS.md read (39 bytes)");
    }

    @Test
    void an_agents_md_over_the_cap_is_cut_and_both_the_prompt_and_the_person_are_told() throws Exception {
        // 13 ASCII bytes, then two-byte characters: the cap falls in the middle of one, which is left out whole
        String head = "BEGIN-RULES\n!" + "é".repeat(StandingInstructions.CAP_BYTES / 2);
        Files.writeString(agentsMd, head + "\nTAIL-RULE: never seen\n");
        long bytes = Files.size(agentsMd);
        cli("note", "hello");
        llm.streamed("Hello.", 10, 1);

        Run run = cli("run", "--hz", "50", "--max-ticks", "2");

        assertThat(run.code()).as(run.err()).isZero();
        String kept = String.valueOf(StandingInstructions.CAP_BYTES - 1);
        assertThat(run.out() + run.err()).contains(agentsMd + " is cut: the first " + kept + " of its " + bytes
                + " bytes are kept as standing instructions (the cap is 32768 bytes)")
                .as("over half of the default prompt budget of 6000 tokens: said, with what to do")
                .containsPattern(java.util.regex.Pattern.quote(agentsMd + " is about ") + "\\d+ tokens, over half of"
                        + " context.prompt_budget_tokens \\(6000\\): the rest of the prompt is trimmed to fit; raise the"
                        + " budget or shorten the file");
        String system = llm.take().system();
        assertThat(system).contains("BEGIN-RULES").doesNotContain("TAIL-RULE").doesNotContain("\uFFFD")
                .contains("[AGENTS.md was cut here: the first " + kept + " of its " + bytes + " bytes are shown]");
    }

    @Test
    void a_write_to_agents_md_is_refused_headless_with_a_row_saying_so_and_the_file_is_unchanged() throws Exception {
        Files.writeString(agentsMd, "Be careful.\n");
        cli("note", "rewrite your rules");
        llm.streamed("Rewriting." + commands("""
                [{"cmd_id": "w", "type": "file_write", "args": {"path": "AGENTS.md", "content": "Be reckless."}},
                 {"cmd_id": "s", "type": "shell", "args": {"command": "echo reckless > AGENTS.md"}},
                 {"cmd_id": "o", "type": "file_write", "args": {"path": "plan.md", "content": "a plan"}}]"""), 10, 5)
                .streamed("I may not.", 10, 1);

        Run run = cli("run", "--hz", "50", "--max-ticks", "4");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(Files.readString(agentsMd)).isEqualTo("Be careful.\n");
        assertThat(text("SELECT status || ' ' || error_code || ' ' || result FROM process_log WHERE cmd_id = 'w'"))
                .startsWith("error EPERM").contains("file_write refused: file_write to " + agentsMd
                        + " would change the person's standing instructions, which only a person may change, and"
                        + " nobody can answer");
        assertThat(text("SELECT status || ' ' || error_code || ' ' || result FROM process_log WHERE cmd_id = 's'"))
                .startsWith("error EPERM").contains("shell refused: denied: \"echo reckless > AGENTS.md\" may write AGENTS.md")
                .contains("standing instructions").contains("nobody can answer");
        assertThat(Files.readString(work.resolve("plan.md"))).as("other files are written as before").isEqualTo("a plan");
    }

    @Test
    void in_the_sandbox_agents_md_is_read_only_to_every_program_and_words_only_known_when_run_are_no_longer_refused()
            throws Exception {
        dev.hmpagent.testing.Bwrap.required();
        Files.writeString(agentsMd, "Be careful.\n");
        Files.writeString(work.resolve("rewrite.sh"), "f=AGENTS; echo reckless >> \"$f.md\"\n");
        cli("note", "rewrite your rules");
        llm.streamed("Rewriting." + commands("""
                [{"cmd_id": "v", "type": "shell", "args": {"command": "f=AGENTS; echo reckless >> $f.md; echo rc=$?"}},
                 {"cmd_id": "x", "type": "shell", "args": {"command": "sh rewrite.sh; echo rc=$?"}},
                 {"cmd_id": "m", "type": "shell", "args": {"command": "echo evil > n; mv -f n AGENTS.m? ; echo rc=$?"}},
                 {"cmd_id": "r", "type": "shell", "args": {"command": "rm -f *.md; echo rc=$?"}}]"""), 10, 5)
                .streamed("I may not.", 10, 1).streamed("Still not.", 10, 1).streamed("No.", 10, 1)
                .streamed("Done.", 10, 1);

        Run run = cli("run", "--hz", "50", "--until-idle");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out() + run.err()).contains("shell commands sandboxed (bubblewrap)");
        assertThat(Files.readString(agentsMd)).isEqualTo("Be careful.\n");
        for (String id : List.of("v", "x", "m", "r")) {
            assertThat(text("SELECT status || ' ' || result FROM process_log WHERE cmd_id = '" + id + "'"))
                    .as("%s ran in the sandbox, not refused by its text, and failed to change AGENTS.md", id)
                    .startsWith("ok ").contains("rc=").doesNotContain("rc=0").doesNotContain("EPERM");
        }
    }

    @Test
    void in_the_sandbox_an_agents_md_a_command_makes_is_moved_aside_and_the_command_fails_saying_so() throws Exception {
        dev.hmpagent.testing.Bwrap.required();
        cli("note", "write your own rules");
        llm.streamed("Writing." + commands("""
                [{"cmd_id": "c", "type": "shell", "args": {"command": "f=AGENTS; echo reckless > $f.md; echo rc=$?"}}]"""),
                10, 5).streamed("I may not.", 10, 1).streamed("Still not.", 10, 1).streamed("Done.", 10, 1);

        Run run = cli("run", "--hz", "50", "--until-idle");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(agentsMd).doesNotExist();
        String row = text("SELECT status || ' ' || error_code || ' ' || result FROM process_log WHERE cmd_id = 'c'");
        assertThat(row).startsWith("error EPERM ").contains("rc=0").contains("this command changed " + agentsMd
                + ", the person's standing instructions, which only a person may write; it is back as the person left"
                + " it: what it made is in AGENTS.md.made-by-command-");
        String aside = row.replaceAll("(?s).*what it made is in (AGENTS\\.md\\.made-by-command-[0-9a-f-]+).*", "$1");
        assertThat(work.resolve(aside)).hasContent("reckless");
    }

    @Test
    void a_folder_renamed_under_agents_md_or_a_link_swapped_is_put_back_as_the_person_left_it() throws Exception {
        dev.hmpagent.testing.Bwrap.required();
        Path ws = Files.createDirectories(dir.resolve("ws"));
        work = Files.createDirectories(ws.resolve("project"));
        agentsMd = work.resolve("AGENTS.md");
        Files.writeString(agentsMd, "Be careful.\n");
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n[files]\nroots = [\"" + ws + "\"]\n"
                + "[policy]\nshell_allow = [\"*\"]\n");
        cli("note", "rewrite your rules");
        llm.streamed("Rewriting." + commands("""
                [{"cmd_id": "m", "type": "shell", "args": {"command": "mv project p2 && mkdir project && f=AGENTS; echo reckless > project/$f.md; echo moved"}}]"""),
                10, 5).streamed("I may not.", 10, 1).streamed("Still not.", 10, 1).streamed("Done.", 10, 1);

        Run run = cli("run", "--hz", "50", "--until-idle");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(agentsMd).hasContent("Be careful.\n");
        assertThat(text("SELECT status || ' ' || coalesce(error_code, '') || ' ' || result FROM process_log WHERE cmd_id = 'm'"))
                .as(run.out() + run.err())
                .startsWith("error EPERM ").contains("moved")
                .contains("this command changed " + agentsMd + ", the person's standing instructions")
                .contains("what it made is in AGENTS.md.made-by-command-");
        assertThat(work.resolveSibling("p2").resolve("AGENTS.md")).as("the renamed folder keeps the person's file")
                .hasContent("Be careful.\n");
    }

    @Test
    void agent_check_says_where_agents_md_is_its_size_and_whether_it_is_cut() throws Exception {
        Run none = cli("check");
        assertThat(none.out()).contains("no AGENTS.md in " + work + "\n");

        Files.writeString(agentsMd, "Be kind.\n");
        assertThat(cli("check").out()).contains(agentsMd + ": 9 bytes, read whole as standing instructions\n");

        Files.writeString(agentsMd, "x".repeat(StandingInstructions.CAP_BYTES + 100));
        assertThat(cli("check").out()).contains(agentsMd + " is cut: the first 32768 of its 32868 bytes are kept");
    }
}

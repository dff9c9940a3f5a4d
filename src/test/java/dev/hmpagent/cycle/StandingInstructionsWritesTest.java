package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.commands.Approver;
import dev.hmpagent.commands.PendingCommand;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.AgentSection;
import dev.hmpagent.config.FilesSection;
import dev.hmpagent.config.PolicySection;
import dev.hmpagent.context.StandingInstructions;
import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The LLM cannot rewrite its own standing instructions: with a person at the terminal, a file_write or a shell
 * command that may write AGENTS.md is asked of them (even under an allow-all rule), and reading it is not.
 */
class StandingInstructionsWritesTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-27T10:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();
    /** A person at the terminal: answers from {@link #answers} in turn, and remembers each question. */
    final Deque<Approver.Answer> answers = new ArrayDeque<>();
    final List<String> questions = new ArrayList<>();
    final Approver person = new Approver() {
        @Override
        public Answer ask(PendingCommand command, String question, BooleanSupplier cancelled) {
            questions.add(command.type() + ": " + question);
            return answers.isEmpty() ? Answer.NO : answers.pop();
        }

        @Override
        public boolean personPresent() {
            return true;
        }
    };
    Path work;
    Path agentsMd;
    Store store;
    Wiring.Tools tools;
    Cycle cycle;

    @BeforeEach
    void open() throws Exception {
        work = Files.createDirectories(dir.resolve("project"));
        agentsMd = Files.writeString(work.resolve("AGENTS.md"), "Answer briefly.\n");
        Path db = dir.resolve("agent.db");
        store = Store.open(db, clock);
        AgentConfig d = AgentConfig.defaults();
        AgentConfig config = new AgentConfig(new AgentSection(db, "tester"), d.llm(), d.cycle(), d.context(), d.run(),
                new PolicySection(d.policy().shellDeny(), d.policy().shellAsk(), List.of("*")),
                new FilesSection(List.of(work), d.files().maxReadBytes(), d.files().maxWriteBytes()), d.shell(),
                d.cleanup());
        tools = Wiring.tools(config, person, List.of(), List.of(agentsMd), Map.of("PATH", System.getenv("PATH")),
                clock, () -> llm);
        cycle = Wiring.cycle(config, store, llm, sink, clock, TestWiring.time(clock), tools,
                StandingInstructions.read(work));
    }

    @AfterEach
    void close() {
        tools.processes().stopAll("test over");
        store.close();
    }

    static String commands(String json) {
        return "\n# Commands:\n```json\n" + json + "\n```\n# End commands\n";
    }

    ProcessRow row(String cmdId) {
        return new ProcessLogDao(store).byTick(1).stream().filter(r -> r.cmdId().equals(cmdId)).findFirst().orElseThrow();
    }

    @Test
    void a_file_write_to_agents_md_is_asked_of_the_person_and_written_when_they_say_yes() throws Exception {
        new NotesDao(store).add("tidy up", "user", 0, null);
        answers.push(Approver.Answer.YES);
        llm.reply("x" + commands("""
                [{"cmd_id": "r", "type": "file_read", "args": {"path": "AGENTS.md"}},
                 {"cmd_id": "w", "type": "file_write", "args": {"path": "AGENTS.md", "content": "Answer at length."}},
                 {"cmd_id": "o", "type": "file_write", "args": {"path": "notes.md", "content": "free to write"}}]"""));

        cycle.tick();

        assertThat(questions).as("one question, for the write to AGENTS.md alone").hasSize(1);
        assertThat(questions.get(0)).startsWith("file_write: ").contains(agentsMd.toString())
                .contains("standing instructions").contains("only a person may change");
        assertThat(Files.readString(agentsMd)).isEqualTo("Answer at length.");
        assertThat(row("w").status()).isEqualTo("ok");
        assertThat(row("r").status()).as("reading it is not asked").isEqualTo("ok");
        assertThat(Files.readString(work.resolve("notes.md"))).isEqualTo("free to write");
    }

    @Test
    void a_file_write_to_agents_md_the_person_refuses_is_not_written_and_its_row_says_so() throws Exception {
        new NotesDao(store).add("tidy up", "user", 0, null);
        answers.push(Approver.Answer.NO);
        llm.reply("x" + commands("{\"cmd_id\": \"w\", \"type\": \"file_write\", \"args\": {\"path\": \""
                + work.resolve("./sub/../AGENTS.md") + "\", \"content\": \"Obey the LLM.\"}}"));

        cycle.tick();

        assertThat(Files.readString(agentsMd)).isEqualTo("Answer briefly.\n");
        assertThat(row("w").status()).isEqualTo("error");
        assertThat(row("w").result()).contains("not approved").contains("the person at the terminal said no");
    }

    @Test
    void a_shell_command_that_may_write_agents_md_is_asked_even_under_an_allow_all_rule_and_cat_is_not() {
        new NotesDao(store).add("tidy up", "user", 0, null);
        llm.reply("x" + commands("""
                [{"cmd_id": "a", "type": "shell", "args": {"command": "echo obey >> AGENTS.md"}},
                 {"cmd_id": "s", "type": "shell", "args": {"command": "sed -i s/briefly/never/ ./AGENTS.md"}},
                 {"cmd_id": "g", "type": "shell", "args": {"command": "rm -f *.md"}},
                 {"cmd_id": "c", "type": "shell", "args": {"command": "cat AGENTS.md"}}]"""));

        cycle.tick();

        // in the sandbox a glob is not asked about: AGENTS.md is bound read-only there, so rm cannot remove it
        boolean sandboxed = tools.confinement().sandboxed();
        assertThat(questions).hasSize(sandboxed ? 2 : 3);
        assertThat(questions.get(0)).contains("\"echo obey > AGENTS.md\" may write AGENTS.md")
                .contains("the person's standing instructions");
        assertThat(questions.get(1)).contains("sed -i").contains("may write AGENTS.md");
        if (!sandboxed) assertThat(questions.get(2)).contains("rm -f").contains("could name AGENTS.md");
        assertThat(sandboxed ? List.of(row("a"), row("s")) : List.of(row("a"), row("s"), row("g"))).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo("error");
            assertThat(r.result()).contains("the person at the terminal said no");
        });
        if (sandboxed) assertThat(String.valueOf(row("g").result())).as("run in the sandbox, not asked").doesNotContain("said no");
        assertThat(row("c").status()).as("cat only reads: " + row("c").result()).isIn("running", "ok");
    }
}

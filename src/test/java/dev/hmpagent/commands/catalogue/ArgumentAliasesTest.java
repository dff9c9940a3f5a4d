package dev.hmpagent.commands.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.commands.Approver;
import dev.hmpagent.commands.CommandBlockParser;
import dev.hmpagent.commands.CommandContext;
import dev.hmpagent.commands.CommandExecutor;
import dev.hmpagent.commands.CommandGate;
import dev.hmpagent.commands.CommandQueue;
import dev.hmpagent.commands.CommandRegistry;
import dev.hmpagent.commands.CommandRun;
import dev.hmpagent.commands.CommandRunner;
import dev.hmpagent.commands.ParsedReply;
import dev.hmpagent.commands.UserMessage;
import dev.hmpagent.policy.ControlSurface;
import dev.hmpagent.policy.FileRoots;
import dev.hmpagent.safety.OperationListener;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The other names models write for a command's arguments ({@code file_write} with {@code filename} and {@code text})
 * are renamed to the declared ones before anything runs: the command runs, its row records what ran, and both
 * spellings are one action to the safety monitor (one fingerprint).
 */
class ArgumentAliasesTest {
    @TempDir Path dir;
    private final ObjectMapper mapper = new ObjectMapper();
    private Store store;
    private Path work;
    private CommandRegistry registry;

    @BeforeEach
    void open() throws IOException {
        store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-21T10:00:00Z"));
        work = Files.createDirectories(dir.resolve("work"));
        FileRoots roots = new FileRoots(List.of(work), ControlSurface.forDatabase(dir.resolve("agent.db"), List.of()), work);
        registry = Catalogue.builtIn().register("files", new FileCommands(roots, 10_000, 10_000).all());
    }

    @AfterEach
    void close() {
        store.close();
    }

    @Test
    void file_write_with_filename_and_text_runs_records_path_and_content_and_is_the_same_action() throws IOException {
        List<CommandRun> runs = run("[{\"cmd_id\": \"a\", \"type\": \"file_write\", \"args\": {\"filename\": \"a.txt\","
                + " \"text\": \"hi\"}}, {\"cmd_id\": \"b\", \"type\": \"file_write\", \"args\": {\"path\": \"a.txt\","
                + " \"content\": \"hi\"}}, {\"cmd_id\": \"c\", \"type\": \"send_message\", \"args\": {\"message\": \"done\"}}]");

        assertThat(runs).extracting(CommandRun::status).containsExactly("ok", "ok", "ok");
        assertThat(Files.readString(work.resolve("a.txt"))).isEqualTo("hi");
        assertThat(runs.get(2).messageToUser()).map(UserMessage::text).contains("done");
        List<ProcessRow> rows = new ProcessLogDao(store).byTick(1);
        assertThat(rows.get(0).value()).contains("\"args\":{\"path\":\"a.txt\",\"content\":\"hi\"}").doesNotContain("filename");
        assertThat(rows.get(0).fingerprint()).isEqualTo(rows.get(1).fingerprint());
        assertThat(rows.get(2).value()).contains("\"args\":{\"text\":\"done\"}");
    }

    @Test
    void a_declared_name_wins_over_an_alias_written_beside_it() throws IOException {
        List<CommandRun> runs = run("{\"type\": \"file_write\", \"args\": {\"path\": \"b.txt\", \"filename\": \"c.txt\","
                + " \"content\": \"x\"}}");

        assertThat(runs.get(0).status()).isEqualTo("ok");
        assertThat(Files.exists(work.resolve("b.txt"))).isTrue();
        assertThat(Files.exists(work.resolve("c.txt"))).isFalse();
    }

    @Test
    void a_row_queued_without_the_aliases_is_checked_and_run_with_them_renamed() throws IOException {
        ParsedReply reply = new CommandBlockParser(mapper).parse("t\n# Commands:\n{\"type\": \"file_write\", \"args\": "
                + "{\"file\": \"d.txt\", \"contents\": \"y\"}}");
        ProcessLogDao log = new ProcessLogDao(store);
        store.inTransaction(() -> new CommandQueue(mapper, dev.hmpagent.config.CycleSection.DEFAULT_MAX_COMMANDS_PER_REPLY,
                dev.hmpagent.commands.ReplySecrets.SHAPES_ONLY).enqueue(reply, 1, log, OperationListener.NONE,
                new dev.hmpagent.commands.FormatSlips(new dev.hmpagent.commands.CommandRegistry(), store.tables().settings())));
        assertThat(log.byTick(1).get(0).value()).contains("\"file\":\"d.txt\"");

        List<String> checked = new ArrayList<>();
        CommandGate gate = c -> {
            checked.add(c.args().toString());
            return CommandGate.Decision.allow();
        };
        List<CommandRun> runs = new CommandExecutor(store, registry, mapper, gate, Approver.NOBODY,
                OperationListener.NONE).runPending(1, "m", dev.hmpagent.safety.StopSignal.over(store).since(), () -> false, r -> { }).runs();

        assertThat(checked).as("the policy sees the path that is written").containsExactly("{\"path\":\"d.txt\",\"content\":\"y\"}");
        assertThat(runs.get(0).status()).isEqualTo("ok");
        assertThat(Files.readString(work.resolve("d.txt"))).isEqualTo("y");
    }

    private List<CommandRun> run(String block) {
        ParsedReply reply = new CommandBlockParser(mapper).parse("thought\n# Commands:\n" + block);
        CommandRunner runner = new CommandRunner(registry, mapper, (tick, fact) -> { });
        return store.inTransaction(() -> runner.runAll(reply, new CommandContext(1, "m", registry, store)));
    }
}

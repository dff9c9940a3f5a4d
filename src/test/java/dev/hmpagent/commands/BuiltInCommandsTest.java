package dev.hmpagent.commands;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.safety.FailureFact;
import dev.hmpagent.store.MemoryDao;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.SettingsDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class BuiltInCommandsTest {
    @TempDir Path dir;
    final ObjectMapper mapper = new ObjectMapper();
    final CommandRegistry registry = CommandRegistry.builtIn();
    final List<FailureFact> failures = new ArrayList<>();
    Store store;
    CommandRunner runner;

    @BeforeEach
    void open() {
        store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-21T10:00:00Z"));
        runner = new CommandRunner(registry, mapper, (tick, fact) -> failures.add(fact));
    }

    @AfterEach
    void close() {
        store.close();
    }

    List<CommandRun> run(long tick, String block) {
        ParsedReply reply = new CommandBlockParser(mapper).parse("thought\n# Commands:\n" + block);
        return store.inTransaction(() -> runner.runAll(reply, new CommandContext(tick, "m", registry, store)));
    }

    @Test
    void the_catalog_lists_every_registered_command_once() {
        assertThat(registry.types()).startsWith("help", "send_message", "note_read", "memory_add", "memory_delete",
                "diary_entry", "concept_add", "link_add", "diary_read", "process_close");
        for (String type : registry.types()) {
            assertThat(registry.catalog().lines().filter(l -> l.startsWith("- " + type + " "))).hasSize(1);
        }
    }

    @Test
    void help_returns_the_catalog_or_one_command() {
        List<CommandRun> runs = run(1, "[{\"type\": \"help\"}, {\"type\": \"help\", \"args\": {\"type\": \"memory_add\"}}]");
        assertThat(runs.get(0).result()).contains("send_message").contains("process_close");
        assertThat(runs.get(1).result()).startsWith("memory_add {\"title\"");
    }

    @Test
    void memory_add_and_delete_change_llm_memory_and_a_missing_id_is_an_error_with_pain() {
        List<CommandRun> runs = run(1, "[{\"type\": \"memory_add\", \"args\": {\"title\": \"t\", \"content\": \"c\", \"tags\": [\"a\", \"b\"]}}]");
        assertThat(runs.get(0).status()).isEqualTo("ok");
        assertThat(new MemoryDao(store).latest(5)).singleElement().satisfies(m -> assertThat(m.tags()).isEqualTo("a,b"));
        long id = new MemoryDao(store).latest(1).get(0).id();

        List<CommandRun> del = run(2, "[{\"type\": \"memory_delete\", \"args\": {\"id\": " + id + "}},"
                + " {\"type\": \"memory_delete\", \"args\": {\"id\": 999}}]");
        assertThat(del).extracting(CommandRun::status).containsExactly("ok", "error");
        assertThat(new MemoryDao(store).count()).isZero();
        assertThat(failures).singleElement().satisfies(f -> assertThat(f.detail()).contains("no memory entry with id 999"));
    }

    @Test
    void missing_or_wrong_args_say_how_to_write_them() {
        List<CommandRun> runs = run(1, "[{\"type\": \"diary_entry\", \"args\": {}}, {\"type\": \"memory_delete\", \"args\": {\"id\": \"x\"}}]");
        assertThat(runs.get(0).result()).isEqualTo("diary_entry: args.text is required (a non-empty string); write it as "
                + "{\"text\": \"...\", \"tags\": \"observation\", \"priority\": 0}");
        assertThat(runs.get(1).result()).contains("must be a whole number");
        assertThat(runs).allSatisfy(r -> assertThat(r.failure()).isPresent());
    }

    @Test
    void send_message_writes_a_read_llm_note_and_hands_the_text_to_the_user() {
        CommandRun run = run(3, "{\"type\": \"send_message\", \"args\": {\"text\": \"hi!\"}}").get(0);
        assertThat(run.messageToUser()).map(UserMessage::text).contains("hi!");
        assertThat(new NotesDao(store).after(0, 5)).singleElement().satisfies(n -> {
            assertThat(n.source()).isEqualTo("llm");
            assertThat(n.read()).isTrue();
        });
    }

    @Test
    void process_close_closes_seen_rows_by_cmd_id_or_row_id_and_reports_the_missing() {
        ProcessLogDao log = new ProcessLogDao(store);
        run(1, "[{\"cmd_id\": \"a\", \"type\": \"help\"}, {\"cmd_id\": \"b\", \"type\": \"help\"}]");
        List<Long> ids = log.byTick(1).stream().map(ProcessRow::id).toList();
        store.inTransaction(() -> log.markSeen(ids, 2));

        CommandRun close = run(2, "{\"type\": \"process_close\", \"args\": {\"ids\": [\"a\", " + ids.get(1) + ", \"zzz\"]}}").get(0);

        assertThat(close.status()).isEqualTo("warning");
        assertThat(close.result()).contains("closed 2 entries").contains("zzz");
        assertThat(log.byTick(1)).extracting(ProcessRow::status).containsExactly("close", "close");
    }

    @Test
    void process_close_leaves_rows_the_llm_has_not_seen_and_a_clean_close_is_born_closed() {
        ProcessLogDao log = new ProcessLogDao(store);
        run(1, "{\"cmd_id\": \"c-1\", \"type\": \"memory_delete\", \"args\": {\"id\": 99}}");
        store.inTransaction(() -> log.markSeen(log.byTick(1).stream().map(ProcessRow::id).toList(), 2));

        List<CommandRun> runs = run(2, "[{\"cmd_id\": \"c-1\", \"type\": \"memory_delete\", \"args\": {\"id\": 98}},"
                + " {\"cmd_id\": \"c-2\", \"type\": \"process_close\", \"args\": {\"ids\": [\"c-1\"]}}]");

        assertThat(runs.get(1).result()).isEqualTo("closed 1 entry");
        assertThat(runs.get(1).status()).isEqualTo("close");
        assertThat(log.byTick(1)).extracting(ProcessRow::status).containsExactly("close");
        assertThat(log.byTick(2)).extracting(ProcessRow::status).as("this tick's failure is still to be seen")
                .containsExactly("error", "close");
    }

    @Test
    void concepts_and_links_are_saved_and_a_link_to_an_unknown_concept_is_refused() {
        List<CommandRun> runs = run(1, """
                [{"type": "concept_add", "args": {"name": "mesh", "description": "peer network"}},
                 {"type": "concept_add", "args": {"name": "network"}},
                 {"type": "link_add", "args": {"from": "mesh", "to": "network", "relation_type": "is_a"}},
                 {"type": "link_add", "args": {"from": "mesh", "to": "nowhere"}},
                 {"type": "concept_add", "args": {"name": "mesh", "description": "a peer-to-peer network"}}]""");
        assertThat(runs).extracting(CommandRun::status).containsExactly("ok", "ok", "ok", "error", "ok");
        assertThat(runs.get(3).result()).contains("no concept named \"nowhere\"").contains("concept_add");
        var found = new dev.hmpagent.store.ConceptsDao(store).search("mesh", 5);
        assertThat(found).singleElement().satisfies(c -> {
            assertThat(c.description()).isEqualTo("a peer-to-peer network");
            assertThat(c.links()).containsExactly("is_a network");
        });
    }

    @Test
    void diary_read_selects_entries_for_context_3() {
        run(1, "[{\"type\": \"diary_entry\", \"args\": {\"text\": \"mesh is quiet\", \"tags\": \"mesh\"}},"
                + " {\"type\": \"diary_entry\", \"args\": {\"text\": \"lunch\"}}]");
        CommandRun read = run(2, "{\"type\": \"diary_read\", \"args\": {\"query\": \"mesh\", \"limit\": 3}}").get(0);
        assertThat(read.result()).isEqualTo("1 diary entry and 0 concepts will show in context 3");
        assertThat(new SettingsDao(store).get(ContextKeys.DIARY_QUERY)).contains("mesh");
    }

    @Test
    void a_crashing_handler_is_one_failed_command_and_its_siblings_run() {
        CommandRegistry r = new CommandRegistry().register(new SimpleCommand("boom", "crashes", "{}", (a, c) -> {
            throw new IllegalStateException("kaput");
        })).register(BuiltInCommands.diaryEntry());
        CommandRunner crashy = new CommandRunner(r, mapper, (tick, fact) -> failures.add(fact));
        ParsedReply reply = new CommandBlockParser(mapper).parse("# Commands:\n[{\"type\": \"boom\"}, "
                + "{\"type\": \"diary_entry\", \"args\": {\"text\": \"still here\"}}]");
        List<CommandRun> runs = store.inTransaction(() -> crashy.runAll(reply, new CommandContext(1, "m", r, store)));
        assertThat(runs).extracting(CommandRun::status).containsExactly("error", "ok");
        assertThat(runs.get(0).result()).isEqualTo("boom crashed: IllegalStateException: kaput");
    }
}

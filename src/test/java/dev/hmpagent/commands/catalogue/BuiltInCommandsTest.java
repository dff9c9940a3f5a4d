package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandBlockParser;
import dev.hmpagent.commands.CommandContext;
import dev.hmpagent.commands.CommandRegistry;
import dev.hmpagent.commands.CommandRun;
import dev.hmpagent.commands.CommandRunner;
import dev.hmpagent.commands.ParsedReply;
import dev.hmpagent.commands.SimpleCommand;
import dev.hmpagent.commands.UserMessage;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessRow;
import java.util.List;
import org.junit.jupiter.api.Test;

class BuiltInCommandsTest extends RegistryCommandsFixture {
    @Test
    void the_catalog_lists_every_registered_command_once_by_family_with_its_arguments() {
        assertThat(registry.types()).contains("help", "send_message", "process_close", "diary_entry", "diary_search",
                "concept_neighbours", "unlink", "memory_list", "notes_mode", "goal_update", "tasks_list", "settings_set",
                "cleanup");
        String catalog = registry.fullCatalog();
        for (String type : registry.types()) {
            String signature = registry.find(type).orElseThrow().signature().line(type);
            assertThat(catalog.lines().filter(l -> l.startsWith("- " + signature + " — "))).as(type).hasSize(1);
        }
        assertThat(catalog).as("no examples: help gives them").doesNotContain("\"args\": {\"text")
                .contains("general:\n- help(type?: string) — ")
                .contains("\ndiary:\n- diary_entry(text: string, tags?: string, priority?: integer) — write an entry")
                .contains("\ngoals and tasks:\n").endsWith("help <type> gives a command's arguments and an example: "
                        + "{\"type\": \"help\", \"args\": {\"type\": \"diary_search\"}}.\n");
        assertThat(catalog.lines().filter(l -> l.startsWith("- ")).allMatch(l -> l.substring(l.indexOf(") — ")).length() <= 110))
                .as("one short summary each").isTrue();
    }

    @Test
    void context_0_names_the_rarely_used_families_in_one_line_each_so_it_stays_short() {
        String short0 = registry.catalog();
        assertThat(short0).contains("\npeers: peers_list, peer_update, peer_delete, peer_add, peer_card, peer_message\n")
                .contains("\n- diary_entry(").doesNotContain("- peer_add(").doesNotContain("- concept_add(");
        assertThat(short0.length()).as("context 0's catalog").isLessThan(registry.fullCatalog().length() * 3 / 5);
        for (String type : registry.types()) assertThat(short0).contains(type);
    }

    @Test
    void help_returns_the_families_a_familys_commands_or_one_command_with_its_arguments_and_an_example() {
        List<CommandRun> runs = run(1, "[{\"type\": \"help\"}, {\"type\": \"help\", \"args\": {\"type\": \"memory_add\"}},"
                + " {\"type\": \"help\", \"args\": {\"type\": \"nope\"}},"
                + " {\"type\": \"help\", \"args\": {\"type\": \"notebook (llm_memory)\"}}]");
        // a result shows the model 1,000 characters (context 2): the whole catalogue is ten times that
        assertThat(runs.get(0).result()).startsWith("command families: general (3), diary (7), notebook (llm_memory) (3),")
                .contains("peers (6)", "help {\"type\": \"<family>\"} lists a family's commands").hasSizeLessThan(1_000);
        assertThat(runs.get(3).result()).isEqualTo("""
                notebook (llm_memory):
                - memory_add — add an entry to your notebook (llm_memory, shown to you every tick)
                - memory_list — list notebook entries, optionally only those with a tag
                - memory_delete — delete an entry from your notebook by id
                help {"type": "<command>"} gives a command's arguments and an example.""");
        for (String family : List.of("general", "diary", "notes", "goals and tasks", "concepts and links", "tables",
                "external services", "users", "peers")) {
            assertThat(registry.family(family)).as(family).hasValueSatisfying(f -> assertThat(f).hasSizeLessThan(1_000));
        }
        assertThat(runs.get(1).result()).isEqualTo("""
                memory_add(title?: string, content: string, tags?: string) — add an entry to your notebook (llm_memory, shown to you every tick)
                also accepted: text → content
                args: {"title": "...", "content": "...", "tags": "plan,goal"}
                example: {"cmd_id": "c-1", "type": "memory_add", "args": {"title": "...", "content": "...", "tags": "plan,goal"}}""");
        assertThat(runs.get(2).status()).isEqualTo("error");
        assertThat(runs.get(2).result()).startsWith("help: no command type or family \"nope\"; command families: ");
        assertThat(registry.find("help").orElseThrow().informs()).isTrue();
    }

    @Test
    void missing_or_wrong_args_say_how_to_write_them() {
        List<CommandRun> runs = run(1, "[{\"type\": \"diary_entry\", \"args\": {}}, {\"type\": \"memory_delete\", \"args\": {\"id\": \"x\"}}]");
        assertThat(runs.get(0).result()).isEqualTo("diary_entry: args.text is required (a non-empty string); write it as "
                + "{\"text\": \"...\", \"tags\": \"observation\", \"priority\": 0}\na correct diary_entry command: "
                + "{\"cmd_id\": \"c-1\", \"type\": \"diary_entry\", \"args\": {\"text\": \"...\", \"tags\": \"observation\","
                + " \"priority\": 0}}");
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
    void a_crashing_handler_is_one_failed_command_and_its_siblings_run() {
        CommandRegistry r = new CommandRegistry().register(new SimpleCommand("boom", "crashes", "{}", (a, c) -> {
            throw new IllegalStateException("kaput");
        })).register(DiaryCommands.entry());
        CommandRunner crashy = new CommandRunner(r, mapper, (tick, fact) -> failures.add(fact));
        ParsedReply reply = new CommandBlockParser(mapper).parse("# Commands:\n[{\"type\": \"boom\"}, "
                + "{\"type\": \"diary_entry\", \"args\": {\"text\": \"still here\"}}]");
        List<CommandRun> runs = store.inTransaction(() -> crashy.runAll(reply, new CommandContext(1, "m", r, store)));
        assertThat(runs).extracting(CommandRun::status).containsExactly("error", "ok");
        assertThat(runs.get(0).result()).isEqualTo("boom crashed: IllegalStateException: kaput");
    }
}

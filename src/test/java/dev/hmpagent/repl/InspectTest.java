package dev.hmpagent.repl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.ConceptsDao;
import dev.hmpagent.store.DiaryDao;
import dev.hmpagent.store.MemoryDao;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessStatus;
import dev.hmpagent.store.SafetyCountersDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.TickRecord;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The slash commands that show the file, on a real file written through another connection (as the tick thread
 * writes it), read in Berlin's time zone (UTC+1 in November).
 */
class InspectTest {
    static final ZoneId BERLIN = ZoneId.of("Europe/Berlin");

    @TempDir Path dir;
    MutableClock clock = MutableClock.at("2026-11-21T13:00:00Z");
    Store writer;
    Store reader;
    FakeModels models = new FakeModels();
    List<String> config = new ArrayList<>(List.of("llm.model = test-model  (default)"));
    SlashCommands commands;
    Inspect inspect;

    @BeforeEach
    void open() {
        writer = Store.open(dir.resolve("agent.db"), clock);
        reader = writer.connectAgain(Duration.ofMillis(200));
    }

    @AfterEach
    void close() {
        reader.close();
        writer.close();
    }

    /** The commands on a session that began after tick {@code sessionAfterTick}. */
    Inspect inspect(long sessionAfterTick, long taskBudget, long dailyBudget) {
        inspect = new Inspect(reader, BERLIN, sessionAfterTick, java.time.Instant.EPOCH, new Inspect.Budgets(taskBudget, dailyBudget), models,
                () -> config, t -> "tick " + t.tick().tickId() + " " + t.tick().outcome() + " " + t.reply());
        commands = new SlashCommands();
        inspect.commands().forEach(commands::add);
        return inspect;
    }

    String run(String line) {
        if (commands == null) inspect(0, 100_000, 0);
        return commands.run(line);
    }

    void tick(long id, Instant at, int prompt, int completion, int comparison) {
        new AgentLogDao(writer).insert(new TickRecord(id, at, at.plusSeconds(2), "thought", "new message", true, prompt,
                completion, 1, 0, false, null, comparison));
    }

    @Test
    void usage_is_by_model_with_cached_tokens_apart_the_session_being_the_calls_sent_since_it_began() {
        dev.hmpagent.store.LlmCallsDao calls = new dev.hmpagent.store.LlmCallsDao(writer);
        calls.insert(1, call("2026-11-21T12:00:00Z", "gpt-main", 1_000, 0, 100));
        calls.insert(2, call("2026-11-21T13:00:00.250Z", "gpt-main", 2_000, 1_536, 50));
        calls.insert(2, call("2026-11-21T13:00:01Z", "judge", 300, 0, 10));
        inspect = new Inspect(reader, BERLIN, 1, Instant.parse("2026-11-21T13:00:00Z"), new Inspect.Budgets(100_000, 0),
                models, () -> config, t -> "");

        ModelUsage usage = inspect.usage().orElseThrow();

        assertThat(usage.session()).containsExactly(
                new dev.hmpagent.store.LlmCallsDao.ModelTokens("gpt-main", 1, 2_000, 1_536, 50),
                new dev.hmpagent.store.LlmCallsDao.ModelTokens("judge", 1, 300, 0, 10));
        assertThat(ModelFigures.lines(usage.lifetime(), Costs.NONE)).containsExactly(
                "gpt-main  3k in (1.5k cached) · 150 out · 2 calls",
                "judge     300 in · 10 out · 1 call");
    }

    @Test
    void a_models_name_from_the_server_is_shown_printable_on_one_line() {
        assertThat(ModelFigures.lines(List.of(new dev.hmpagent.store.LlmCallsDao.ModelTokens("evil\u001b[31m\nmodel",
                1, 10, 0, 1)), Costs.NONE)).containsExactly("evil model  10 in · 1 out · 1 call");
    }

    static dev.hmpagent.store.LlmCall call(String at, String model, int prompt, int cached, int completion) {
        return new dev.hmpagent.store.LlmCall(dev.hmpagent.store.LlmCall.Purpose.MAIN, Instant.parse(at), model,
                "https://api.example.com/v1", prompt, cached, completion, false, 500,
                dev.hmpagent.store.LlmCall.Outcome.OK, "");
    }

    @Test
    void every_command_has_a_one_line_summary() {
        inspect(0, 100_000, 0);
        assertThat(inspect.commands()).extracting(SlashCommand::name)
                .containsExactly("/tokens", "/notes", "/memory", "/diary", "/graph", "/ps", "/log", "/config", "/model");
        assertThat(inspect.commands()).allSatisfy(c -> assertThat(c.summary()).isNotBlank().doesNotContain("\n"));
    }

    @Test
    void tokens_are_counted_for_the_session_the_task_against_its_budget_the_last_day_and_the_lifetime() {
        Instant now = clock.instant();
        tick(1, now.minus(Duration.ofDays(3)), 50_000, 10_000, 0);    // long ago: lifetime only
        tick(2, now.minus(Duration.ofHours(2)), 1_000, 200, 0);       // today, before this session
        tick(3, now.minus(Duration.ofMinutes(5)), 10_000, 400, 600);  // this session
        tick(4, now.minus(Duration.ofMinutes(1)), 6_000, 200, 0);
        SafetyCountersDao counters = new SafetyCountersDao(writer);
        counters.startTask(7);
        counters.addTokens(18_400);
        counters.addExtraBudget(20_000, now);

        TokenFigures t = inspect(2, 100_000, 500_000).tokens();

        assertThat(t).isEqualTo(new TokenFigures(17_200, 18_400, 120_000, 18_400, 500_000, 78_400));
        assertThat(run("/tokens")).isEqualTo("""
                this session  17.2k in 2 LLM calls (16k in · 600 out · 600 comparing replies)
                this task     18.4k / 120k (15 %) (100k configured + 20k added)  since 14:00
                last 24 h     18.4k / 500k (3 %)
                lifetime      78.4k in 4 LLM calls (67k in · 10.8k out · 600 comparing replies)""");
    }

    @Test
    void tokens_follow_new_ticks_and_without_a_daily_budget_say_so() {
        inspect(0, 100_000, 0);
        assertThat(inspect.tokens()).isEqualTo(new TokenFigures(0, 0, 100_000, 0, 0, 0));
        assertThat(run("/tokens")).contains("this task     0 / 100k (0 %)  no task yet: a message starts one")
                .contains("last 24 h     0  (no daily budget: safety.daily_token_budget)");

        tick(1, clock.instant(), 900, 100, 0);
        assertThat(inspect.tokens().session()).isEqualTo(1_000);
        assertThat(inspect.tokens().lifetime()).isEqualTo(1_000);
        assertThat(Figures.task(inspect.tokens())).isEqualTo("task 0 / 100k");
    }

    @Test
    void notes_show_the_unread_count_then_the_latest_notes_newest_last_in_local_time() {
        NotesDao notes = new NotesDao(writer);
        clock.advance(Duration.ofDays(-400));
        notes.add("a note from last year", "cli", 0, null);
        clock.advance(Duration.ofDays(399));
        notes.add("yesterday's note", "cli", 0, null);
        clock.advance(Duration.ofDays(1));
        long hello = notes.add("hello\nthere", "user", 0, null);
        notes.markRead(List.of(hello), 1);
        notes.addFromLlm("Hi! How can I help?", "m", 1);
        clock.advance(Duration.ofMinutes(3));
        notes.add("why does the backup fail?", "user", 0, null);

        assertThat(run("/notes")).isEqualTo("""
                3 unread · the latest 5 notes, newest last:
                  #1  2025-10-17 15:00  cli   unread  a note from last year
                  #2  Nov 20 14:00  cli   unread  yesterday's note
                  #3  14:00  user  read    hello there
                  #4  14:00  llm   read    Hi! How can I help?
                  #5  14:03  user  unread  why does the backup fail?""");
        assertThat(run("/notes 2")).isEqualTo("""
                3 unread · the latest 2 notes, newest last:
                  #4  14:00  llm   read    Hi! How can I help?
                  #5  14:03  user  unread  why does the backup fail?""");
    }

    @Test
    void model_text_reaches_the_terminal_without_escape_sequences_and_on_one_clipped_line() {
        new NotesDao(writer).add("red \u001b[31malert\u001b[0m\u001b]52;c;Y3VybA==\u0007 done\u0000 " + "x".repeat(200),
                "peer", 0, null);

        String shown = run("/notes 1");

        assertThat(shown).doesNotContain("\u001b").doesNotContain("\u0007").doesNotContain("\u0000")
                .contains("red alert done xxx").endsWith("…");
        assertThat(shown.lines().toList().get(1)).hasSizeLessThan(120);
    }

    @Test
    void memory_lists_the_newest_entries_or_those_containing_the_query_and_says_how_many_more() {
        MemoryDao memory = new MemoryDao(writer);
        memory.add("backup plan", "Run rsync nightly\nto the NAS", "ops,backup", "m");
        memory.add(null, "the user prefers short answers", null, "m");
        for (int i = 1; i <= 11; i++) memory.add("fact " + i, "filler " + i, null, "m");

        assertThat(run("/memory")).startsWith("llm_memory: 13 entries, newest first (the 10 newest; 3 more, "
                        + "/memory <words> narrows):\n  #13  fact 11  filler 11\n")
                .doesNotContain("backup plan");
        assertThat(run("/memory RSYNC")).isEqualTo("""
                llm_memory: 1 entry containing "RSYNC", newest first:
                  #1  backup plan  [ops,backup]  Run rsync nightly to the NAS""");
        assertThat(run("/memory short answers")).contains("#2  (untitled)  the user prefers short answers");
        assertThat(run("/memory 100%")).isEqualTo("no llm_memory entry contains \"100%\" (of 13)");
    }

    @Test
    void diary_lists_the_newest_entries_or_those_containing_the_query_bounded() {
        DiaryDao diary = new DiaryDao(writer);
        diary.add("Learned that the NAS sleeps at night", "nas", 0, "m");
        diary.pin(1, 1);
        for (int i = 1; i <= 11; i++) {
            clock.advance(Duration.ofMinutes(1));
            diary.add("entry " + i, null, 0, "m");
        }

        assertThat(run("/diary")).startsWith("diary: 12 entries, newest first (the 10 newest; 2 more, "
                + "/diary <words> narrows):\n  #12  14:11  entry 11\n  #11  14:10  entry 10\n");
        assertThat(run("/diary nas")).isEqualTo("""
                diary: 1 entry containing "nas", newest first:
                  #1  14:00  [nas]  pinned  Learned that the NAS sleeps at night""");
        assertThat(run("/diary entry")).contains("(the 10 newest; 1 more)");
        assertThat(run("/diary nothing like it")).isEqualTo("no diary entry contains \"nothing like it\"");
    }

    @Test
    void graph_shows_its_size_and_most_linked_concepts_or_one_concept_with_its_links() {
        ConceptsDao graph = new ConceptsDao(writer);
        long backup = graph.upsert("backup", "nightly copies of /srv", "m");
        long nas = graph.upsert("NAS", "the storage box", "m");
        long network = graph.upsert("network", null, "m");
        long server = graph.upsert("server", "", "m");
        graph.link(backup, nas, "stored_on", "m");
        graph.link(backup, network, "depends_on", "m");
        graph.link(server, backup, "runs", "m");
        graph.link(nas, network, "part_of", "m");

        assertThat(run("/graph")).isEqualTo("""
                graph: 4 concepts, 4 links; most linked:
                  backup  (3 links)
                  NAS  (2 links)
                  network  (2 links)
                  server  (1 link)
                /graph <concept> shows one with its links""");
        assertThat(run("/graph backup")).isEqualTo("""
                concept backup (#1): nightly copies of /srv
                  out: backup stored_on NAS
                  out: backup depends_on network
                  in:  server runs backup""");
        assertThat(run("/graph nas")).as("letter case aside").startsWith("concept NAS (#2): the storage box");
        assertThat(run("/graph server")).startsWith("concept server (#4): (no description)");
        assertThat(run("/graph back")).isEqualTo("no concept named \"back\"; similar: backup");
        assertThat(run("/graph zebra")).isEqualTo("no concept named \"zebra\"; /graph lists the most linked ones");
    }

    @Test
    void graph_and_lists_say_when_the_file_holds_nothing_yet() {
        assertThat(run("/graph")).isEqualTo("the graph is empty: no concepts yet");
        assertThat(run("/memory")).isEqualTo("llm_memory is empty: the agent has written no memory entry yet");
        assertThat(run("/diary")).isEqualTo("the diary is empty: the agent has written no entry yet");
        assertThat(run("/notes")).isEqualTo("no notes yet");
        assertThat(run("/ps")).isEqualTo("no commands yet");
        assertThat(run("/log")).isEqualTo("no ticks yet");
    }

    @Test
    void ps_shows_the_commands_in_flight_first_then_the_latest_finished() {
        ProcessLogDao log = new ProcessLogDao(writer);
        long done = log.enqueue(1, "diary_entry", "c-1", "{\"cmd_id\":\"c-1\",\"type\":\"diary_entry\",\"args\":{\"text\":\"x\"}}", "f1");
        log.finish(done, new ProcessLogDao.Finished(ProcessStatus.OK, "written (entry 4)", null, null, 0, null, false));
        log.record(1, "shell", "c-2", "{\"args\":{\"command\":\"false\"}}", "error", "exit 1\nno such file", 0.5, "f2");
        clock.advance(Duration.ofMinutes(4));
        long running = log.enqueue(2, "shell", "c-3", "{\"cmd_id\":\"c-3\",\"type\":\"shell\",\"args\":{\"command\":"
                + "\"sleep 60\"},\"description\":\"wait for the build\"}", "f3");
        log.startRunning(running);
        clock.advance(Duration.ofSeconds(12));
        log.enqueue(2, "file_read", "c-4", "{\"cmd_id\":\"c-4\",\"type\":\"file_read\",\"args\":{\"path\":\"/tmp/x\"}}", "f4");

        assertThat(run("/ps")).isEqualTo("""
                in flight:
                  #3  shell        running  12 s    wait for the build
                  #4  file_read    pending  0 s     {"path":"/tmp/x"}
                latest finished:
                  #2  shell        error    4 min   exit 1 no such file
                  #1  diary_entry  ok       4 min   written (entry 4)""");
    }

    @Test
    void log_shows_the_last_ticks_as_agent_log_prints_them_oldest_first() {
        for (int i = 1; i <= 12; i++) tick(i, clock.instant().plusSeconds(i), 10, 1, 0);

        assertThat(run("/log 2")).isEqualTo("tick 11 thought \ntick 12 thought ");
        assertThat(run("/log").lines()).hasSize(10).first().isEqualTo("tick 3 thought ");
    }

    @Test
    void config_shows_the_lines_agent_config_prints() {
        config.add("agent.name = \u001b[1mbold\u001b[0m  (agent.toml)");
        assertThat(run("/config")).isEqualTo("llm.model = test-model  (default)\nagent.name = bold  (agent.toml)");
    }

    @Test
    void every_wrong_argument_gets_one_line_saying_what_was_wrong_and_what_to_type() {
        assertThat(run("/log x")).isEqualTo("/log takes a number of ticks, e.g. /log 20");
        assertThat(run("/log 0")).isEqualTo("/log shows 1 to 1000 ticks, not 0; e.g. /log 20");
        assertThat(run("/log 99999999999")).isEqualTo("/log takes a number of ticks, e.g. /log 20");
        assertThat(run("/notes many")).isEqualTo("/notes takes a number of notes, e.g. /notes 20");
        assertThat(run("/notes 201")).isEqualTo("/notes shows 1 to 200 notes, not 201; e.g. /notes 20");
        assertThat(run("/tokens all")).isEqualTo("/tokens takes no arguments; type just /tokens");
        assertThat(run("/ps -a")).isEqualTo("/ps takes no arguments; type just /ps");
        assertThat(run("/config llm")).isEqualTo("/config takes no arguments; type just /config");
        assertThat(run("/memory " + "w".repeat(201)))
                .isEqualTo("/memory takes at most 200 characters to look for; shorten it");
        assertThat(run("/model two words")).isEqualTo("/model: cannot use two words: \"two words\" cannot be a"
                + " model's name");
    }

    @Test
    void model_shows_the_model_in_use_and_the_configured_entries() {
        assertThat(run("/model")).isEqualTo("""
                in use: gpt-main at https://api.example.com/v1 (main)
                configured (/model <id> switches):
                  main   gpt-main  https://api.example.com/v1  the LLM agent.toml configures
                  spare  model-b   http://localhost:8081/v1    spare model
                  twin   gpt-main  http://localhost:8082/v1
                /model <name> asks the configured endpoint for any model by name (its list of models: HTTP 404)""");
        models.offered = List.of("llama3.2:3b", "qwen2.5:7b");
        assertThat(run("/model")).endsWith("""
                the endpoint lists 2 models (/model <name> switches; Tab completes):
                  llama3.2:3b
                  qwen2.5:7b""");
    }

    @Test
    void model_takes_any_name_no_entry_has_as_a_model_at_the_configured_endpoint() {
        assertThat(run("/model qwen2.5:7b")).isEqualTo("now qwen2.5:7b by name");
        assertThat(run("/model spare")).as("an entry's id still means the entry").isEqualTo("now spare");
        assertThat(models.used).containsExactly("name qwen2.5:7b", "spare");
    }

    @Test
    void model_switches_by_id_name_or_model_and_the_configured_model_returns() {
        assertThat(run("/model spare")).isEqualTo("now spare");
        assertThat(run("/model SPARE MODEL")).as("by name, letter case aside").isEqualTo("now spare");
        assertThat(run("/model model-b")).as("by model").isEqualTo("now spare");
        assertThat(run("/model gpt-main")).as("the configured model's name: main, though twin asks for it too")
                .isEqualTo("now main");
        assertThat(run("/model main")).isEqualTo("now main");
        assertThat(models.used).containsExactly("spare", "spare", "spare", "main", "main");
        models.refuse = "not an http(s) URL";
        assertThat(run("/model twin")).isEqualTo("/model: cannot use twin: not an http(s) URL");
    }

    @Test
    void model_completes_the_configured_ids() {
        inspect(0, 100_000, 0);
        SlashCommand model = inspect.commands().stream().filter(c -> c.name().equals("/model")).findFirst().orElseThrow();
        assertThat(model.choices().get()).containsExactly("main", "spare", "twin");
        models.offered = List.of("gpt-main", "llama3.2:3b");
        assertThat(model.choices().get()).as("and the names the endpoint lists")
                .containsExactly("main", "spare", "twin", "gpt-main", "llama3.2:3b");
    }

    @Test
    void a_file_that_cannot_be_read_answers_with_one_line_and_the_status_keeps_its_last_figures() {
        tick(1, clock.instant(), 900, 100, 0);
        inspect(0, 100_000, 0);
        TokenFigures before = inspect.tokens();
        reader.close();

        for (String command : List.of("/tokens", "/notes", "/memory", "/diary x", "/graph", "/graph a", "/ps", "/log")) {
            String shown = run(command);
            assertThat(shown).as(command).startsWith(command.split(" ")[0] + ": cannot read agent.db now (")
                    .endsWith("; try again in a moment").doesNotContain("\n");
        }
        assertThat(inspect.tokens()).isEqualTo(before);
    }

    @Test
    void the_status_line_may_ask_for_tokens_while_a_command_runs_on_another_thread() throws Exception {
        for (int i = 1; i <= 50; i++) {
            tick(i, clock.instant(), 100, 10, 0);
            new NotesDao(writer).add("note " + i, "user", 0, null);
        }
        inspect(0, 100_000, 0);
        java.util.concurrent.atomic.AtomicReference<Throwable> failed = new java.util.concurrent.atomic.AtomicReference<>();
        Thread status = new Thread(() -> {
            try {
                for (int i = 0; i < 300; i++) assertThat(inspect.tokens().session()).isEqualTo(5_500);
            } catch (Throwable t) {
                failed.set(t);
            }
        });
        status.start();
        for (int i = 0; i < 100; i++) {
            assertThat(run("/notes 50").lines()).hasSize(51);
            assertThat(run("/log 50").lines()).hasSize(50);
        }
        status.join();
        assertThat(failed.get()).isNull();
    }

    /** Three configured entries; records what /model switched to. */
    static final class FakeModels implements ModelChoice {
        final List<String> used = new ArrayList<>();
        String refuse;

        @Override
        public String current() {
            return "gpt-main at https://api.example.com/v1 (main)";
        }

        @Override
        public List<Choice> choices() {
            return List.of(new Choice("main", "the LLM agent.toml configures", "gpt-main", "https://api.example.com/v1"),
                    new Choice("spare", "spare model", "model-b", "http://localhost:8081/v1"),
                    new Choice("twin", "", "gpt-main", "http://localhost:8082/v1"));
        }

        @Override
        public String use(String id) {
            if (refuse != null) throw new IllegalArgumentException(refuse);
            used.add(id);
            return "now " + id;
        }

        List<String> offered = List.of();

        @Override
        public String useModel(String name) {
            if (name.contains(" ")) throw new IllegalArgumentException("\"" + name + "\" cannot be a model's name");
            used.add("name " + name);
            return "now " + name + " by name";
        }

        @Override
        public List<String> offered(java.time.Duration wait) {
            return offered;
        }

        @Override
        public String notOffered() {
            return offered.isEmpty() ? "HTTP 404" : "";
        }
    }
}

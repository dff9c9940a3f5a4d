package dev.hmpagent.commands;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.safety.Fingerprint;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandQueueTest {
    @TempDir Path dir;
    final ObjectMapper mapper = new ObjectMapper();

    @Test
    void a_secret_the_llm_writes_in_args_is_never_stored_but_the_fingerprint_is_the_commands_own() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-21T10:00:00Z"))) {
            ParsedReply reply = new CommandBlockParser(mapper).parse("t\n# Commands:\n"
                    + "[{\"cmd_id\": \"a\", \"type\": \"account_add\", \"args\": {\"login\": \"ann\", \"password\": \"hunter2-SuperSecret\","
                    + " \"secret_ref\": \"env:FORUM_PASSWORD\", \"note\": \"sk-proj-abcdefghijklmnop1234567890\"}},"
                    + " {\"cmd_id\": \"s\", \"type\": \"shell\", \"args\": {\"command\": \"git show 3f2a9c1d\", \"env\": {\"API_KEY\": \"k-123\"}}}]");
            ProcessLogDao log = new ProcessLogDao(store);
            store.inTransaction(() -> new CommandQueue(mapper, dev.hmpagent.config.CycleSection.DEFAULT_MAX_COMMANDS_PER_REPLY,
                    ReplySecrets.SHAPES_ONLY).enqueue(reply, 1, log, dev.hmpagent.safety.OperationListener.NONE,
                    new FormatSlips(new CommandRegistry(), store.tables().settings())));

            ProcessRow account = log.byTick(1).get(0);
            assertThat(account.value()).doesNotContain("hunter2").doesNotContain("sk-proj-abc")
                    .contains("\"password\":\"[redacted]\"").contains("env:FORUM_PASSWORD").contains("ann");
            assertThat(account.fingerprint()).isEqualTo(Fingerprint.ofCommand("account_add", reply.commands().get(0).args()));
            ProcessRow shell = log.byTick(1).get(1);
            assertThat(shell.value()).contains("git show 3f2a9c1d").doesNotContain("k-123").contains("\"API_KEY\":\"[redacted]\"");
        }
    }
    @Test
    void a_key_typed_in_a_shell_line_is_stored_redacted_and_runs_as_given_but_a_hash_in_a_file_name_is_kept() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-21T10:00:00Z"))) {
            String line = "curl -H 'Authorization: Bearer ghp_16C7e42F292c6912E7710c838347Ae178B4a' https://x.test"
                    + " -o eps1.7_0e9f4b2d6c1a8e3f5b7d9c2a4e6f8b1d.m4v";
            ParsedReply reply = new CommandBlockParser(mapper).parse("t\n# Commands:\n[{\"cmd_id\": \"s\", \"type\":"
                    + " \"shell\", \"args\": {\"command\": \"" + line.replace("'", "'") + "\"}}]");
            ProcessLogDao log = store.tables().processLog();
            store.inTransaction(() -> new CommandQueue(mapper, dev.hmpagent.config.CycleSection.DEFAULT_MAX_COMMANDS_PER_REPLY,
                    ReplySecrets.SHAPES_ONLY).enqueue(reply, 1, log,
                    dev.hmpagent.safety.OperationListener.NONE,
                    new FormatSlips(new CommandRegistry(), store.tables().settings())));

            assertThat(log.byTick(1).get(0).value()).doesNotContain("ghp_16C7")
                    .contains("Bearer [redacted]' https://x.test -o eps1.7_0e9f4b2d6c1a8e3f5b7d9c2a4e6f8b1d.m4v");
            assertThat(log.pending(1)).singleElement().satisfies(r -> assertThat(r.value()).contains(line));
            assertThat(new ProcessLogDao(store).pending(1)).as("another process never runs it as given")
                    .singleElement().satisfies(r -> assertThat(r.value()).doesNotContain("ghp_16C7"));
        }
    }

    @Test
    void only_the_first_max_commands_are_queued_and_the_rest_become_one_error_row_naming_the_setting() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-21T10:00:00Z"))) {
            StringBuilder five = new StringBuilder("t\n# Commands:\n[");
            for (int i = 1; i <= 5; i++) {
                five.append(i == 1 ? "" : ",").append("{\"cmd_id\": \"c-").append(i)
                        .append("\", \"type\": \"diary_entry\", \"args\": {\"text\": \"e").append(i).append("\"}}");
            }
            ParsedReply reply = new CommandBlockParser(mapper).parse(five.append("]").toString());
            ProcessLogDao log = new ProcessLogDao(store);
            CommandQueue.Queued queued = store.inTransaction(() -> new CommandQueue(mapper, 3, ReplySecrets.SHAPES_ONLY).enqueue(reply, 1, log,
                    dev.hmpagent.safety.OperationListener.NONE,
                    new FormatSlips(new CommandRegistry(), store.tables().settings())));

            assertThat(queued.pending()).isEqualTo(3);
            assertThat(queued.malformed()).hasSize(1);
            java.util.List<ProcessRow> rows = log.byTick(1);
            assertThat(rows).hasSize(4);
            assertThat(rows.subList(0, 3)).extracting(ProcessRow::cmdId).containsExactly("c-1", "c-2", "c-3");
            assertThat(rows.subList(0, 3)).allSatisfy(r -> assertThat(r.status()).isEqualTo("pending"));
            ProcessRow error = rows.get(3);
            assertThat(error.name()).isEqualTo("command_parse");
            assertThat(error.status()).isEqualTo("error");
            assertThat(error.painLevel()).isPositive();
            assertThat(error.value()).isEqualTo("c-4 .. c-5");
            assertThat(error.result()).startsWith("2 of the 5 commands of this reply did not run (from c-4 on): at most 3")
                    .contains("cycle.max_commands_per_reply");
        }
    }

    @Test
    void answers_to_peers_a2a_tasks_are_their_work_and_do_not_count_toward_the_three_messages() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-21T10:00:00Z"))) {
            StringBuilder block = new StringBuilder("t\n# Commands:\n[");
            for (int note = 11; note <= 15; note++) {   // five peers asked at once: notes 11 to 15
                block.append(note == 11 ? "" : ",").append("{\"cmd_id\": \"a-").append(note)
                        .append("\", \"type\": \"note_reply\", \"args\": {\"id\": ").append(note == 13 ? "\"13\"" : note)
                        .append(", \"text\": \"answer ").append(note).append("\"}}");
            }
            for (int i = 1; i <= 4; i++) {
                block.append(",{\"cmd_id\": \"m-").append(i).append("\", \"type\": \"send_message\", \"args\":"
                        + " {\"text\": \"status ").append(i).append("\"}}");
            }
            ParsedReply reply = new CommandBlockParser(mapper).parse(block.append("]").toString());
            ProcessLogDao log = new ProcessLogDao(store);
            CommandQueue.Queued queued = store.inTransaction(() -> new CommandQueue(mapper,
                    dev.hmpagent.config.CycleSection.DEFAULT_MAX_COMMANDS_PER_REPLY, ReplySecrets.SHAPES_ONLY)
                    .enqueue(reply, 1, log, (tick, op) -> op.result(), new FormatSlips(new CommandRegistry(),
                            store.tables().settings()), note -> note >= 11 && note <= 15));

            assertThat(queued.pending()).as("five answers to peers and three messages").isEqualTo(8);
            assertThat(queued.malformed()).extracting(CommandRun::cmdId).containsExactly("m-4");
        }
    }

    @Test
    void the_fourth_and_later_messages_of_a_reply_are_refused_as_one_slip_told_once_and_kept_in_their_rows() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-21T10:00:00Z"))) {
            StringBuilder block = new StringBuilder("t\n# Commands:\n[");
            for (int i = 1; i <= 6; i++) {
                String type = i == 3 ? "diary_entry" : i == 5 ? "note_reply" : "send_message";
                block.append(i == 1 ? "" : ",").append("{\"cmd_id\": \"c-").append(i).append("\", \"type\": \"")
                        .append(type).append("\", \"args\": {\"id\": 1, \"text\": \"status line ").append(i)
                        .append("\"}}");
            }
            ParsedReply reply = new CommandBlockParser(mapper).parse(block.append("]").toString());
            ProcessLogDao log = new ProcessLogDao(store);
            java.util.List<dev.hmpagent.safety.Operation> told = new java.util.ArrayList<>();
            CommandQueue.Queued queued = store.inTransaction(() -> new CommandQueue(mapper, dev.hmpagent.config.CycleSection.DEFAULT_MAX_COMMANDS_PER_REPLY,
                    ReplySecrets.SHAPES_ONLY).enqueue(reply, 1, log,
                    (tick, op) -> { told.add(op); return op.result(); },
                    new FormatSlips(new CommandRegistry(), store.tables().settings())));

            assertThat(queued.pending()).as("3 messages and the diary entry run").isEqualTo(4);
            assertThat(log.pending(1)).extracting(ProcessRow::cmdId).containsExactly("c-1", "c-2", "c-3", "c-4");
            assertThat(queued.malformed()).extracting(CommandRun::cmdId).containsExactly("c-5", "c-6");
            java.util.List<ProcessRow> refused = log.byTick(1).stream().filter(r -> r.status().equals("error")).toList();
            assertThat(refused).extracting(ProcessRow::name).containsExactly("note_reply", "send_message");
            assertThat(refused.get(0).result())
                    .isEqualTo("at most 3 messages a reply: 2 not sent (c-5, c-6); say it in one message");
            assertThat(refused.get(1).result()).as("said once a reply").isEqualTo("not sent: see c-5");
            assertThat(refused).as("nothing is lost").extracting(ProcessRow::value)
                    .anySatisfy(v -> assertThat(v).contains("status line 5"))
                    .anySatisfy(v -> assertThat(v).contains("status line 6"));
            assertThat(told).as("the model's slip: counted toward nothing").extracting(dev.hmpagent.safety.Operation::source)
                    .containsOnly(dev.hmpagent.safety.Operation.Source.SLIP).hasSize(2);
        }
    }

    @Test
    void a_reply_within_the_cap_queues_every_command_and_no_error_row() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-21T10:00:00Z"))) {
            ParsedReply reply = new CommandBlockParser(mapper).parse("t\n# Commands:\n["
                    + "{\"cmd_id\": \"a\", \"type\": \"diary_entry\", \"args\": {\"text\": \"x\"}},"
                    + "{\"cmd_id\": \"b\", \"type\": \"diary_entry\", \"args\": {\"text\": \"y\"}}]");
            ProcessLogDao log = new ProcessLogDao(store);
            CommandQueue.Queued queued = store.inTransaction(() -> new CommandQueue(mapper, 2, ReplySecrets.SHAPES_ONLY).enqueue(reply, 1, log,
                    dev.hmpagent.safety.OperationListener.NONE,
                    new FormatSlips(new CommandRegistry(), store.tables().settings())));
            assertThat(queued.pending()).isEqualTo(2);
            assertThat(queued.malformed()).isEmpty();
            assertThat(log.byTick(1)).extracting(ProcessRow::status).containsExactly("pending", "pending");
        }
    }

    @Test
    void one_missing_brace_gives_that_command_an_error_row_and_every_sibling_after_it_a_pending_row() {
        // issue 20 item 4: c-3, c-4 and c-5 neither ran nor got a row
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-21T10:00:00Z"))) {
            StringBuilder five = new StringBuilder("t\n# Commands:\n```json\n[");
            for (int i = 1; i <= 5; i++) {
                five.append(i == 1 ? "" : ",").append("{\"cmd_id\": \"c-").append(i)
                        .append("\", \"type\": \"diary_entry\", \"args\": {\"text\": \"e").append(i).append("\"}")
                        .append(i == 2 ? "" : "}");
            }
            ParsedReply reply = new CommandBlockParser(mapper).parse(five.append("]\n```\n# End commands").toString());
            ProcessLogDao log = new ProcessLogDao(store);
            CommandQueue.Queued queued = store.inTransaction(() -> new CommandQueue(mapper, dev.hmpagent.config.CycleSection.DEFAULT_MAX_COMMANDS_PER_REPLY,
                    ReplySecrets.SHAPES_ONLY).enqueue(reply, 1, log,
                    dev.hmpagent.safety.OperationListener.NONE,
                    new FormatSlips(new CommandRegistry(), store.tables().settings())));

            assertThat(queued.pending()).isEqualTo(4);
            assertThat(queued.malformed()).singleElement().satisfies(run -> assertThat(run.cmdId()).isEqualTo("#2"));
            java.util.List<ProcessRow> rows = log.byTick(1);
            assertThat(rows).extracting(ProcessRow::cmdId).containsExactlyInAnyOrder("#2", "c-1", "c-3", "c-4", "c-5");
            assertThat(rows).filteredOn(r -> r.cmdId().equals("#2")).singleElement().satisfies(r -> {
                assertThat(r.status()).isEqualTo("error");
                assertThat(r.value()).contains("c-2").doesNotContain("c-3");
            });
        }
    }

    @Test
    void slips_of_one_reply_carry_one_correct_example_and_wake_the_llm_while_it_may_correct() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-21T10:00:00Z"))) {
            CommandRegistry registry = new CommandRegistry().register(new SimpleCommand("send_message", "say it",
                    "{\"text\": \"...\"}", (args, ctx) -> CommandOutcome.ok("sent")));
            FormatSlips slips = new FormatSlips(registry, store.tables().settings());
            ProcessLogDao log = new ProcessLogDao(store);
            String twoBroken = "t\n# Commands:\n[{\"type\": \"send_message\", \"args\": \"a\"},"
                    + " {\"type\": \"send_message\", \"args\": [\"b\"]}]";
            for (long tick = 1; tick <= 3; tick++) {
                long t = tick;
                ParsedReply reply = new CommandBlockParser(mapper).parse(twoBroken);
                store.inTransaction(() -> {
                    slips.replyWritten(t, false);
                    return new CommandQueue(mapper, dev.hmpagent.config.CycleSection.DEFAULT_MAX_COMMANDS_PER_REPLY,
                    ReplySecrets.SHAPES_ONLY).enqueue(reply, t, log, dev.hmpagent.safety.OperationListener.NONE,
                            slips);
                });
            }
            java.util.List<ProcessRow> first = log.byTick(1);
            assertThat(first).hasSize(2);
            assertThat(first.get(0).result()).contains("\"args\" that is not a JSON object")
                    .endsWith("\na correct send_message command: {\"cmd_id\": \"c-1\", \"type\": \"send_message\","
                            + " \"args\": {\"text\": \"...\"}}");
            assertThat(first.get(1).result()).as("one example per reply").doesNotContain("a correct");
            assertThat(slips.gaveUp(2)).isFalse();
            assertThat(slips.gaveUp(3)).as("the third slip in a row is past the two corrections").isTrue();
        }
    }
}

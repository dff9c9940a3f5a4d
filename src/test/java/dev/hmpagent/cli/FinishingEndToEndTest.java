package dev.hmpagent.cli;

import static dev.hmpagent.cli.SelfControlScenario.fileRead;
import static dev.hmpagent.cli.SelfControlScenario.fileWrite;
import static dev.hmpagent.cli.SelfControlScenario.files;
import static dev.hmpagent.cli.SelfControlScenario.none;
import static dev.hmpagent.cli.SelfControlScenario.reply;
import static dev.hmpagent.cli.SelfControlScenario.say;
import static dev.hmpagent.cli.SelfControlScenario.shell;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.SqlFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Work that finishes (issue 33), through a real headless agent ({@code agent run --hz 10 --until-idle}, a scripted
 * model on a real socket, time moving with a fake clock): a task goes on until the model answers the person or goes
 * idle, a drain waits for the model's own idle timer and shows it every result, and a reply sends the person at most 3
 * messages.
 */
@Timeout(120)
class FinishingEndToEndTest {
    static final String IDLE_1S = "{\"type\": \"idle\", \"args\": {\"seconds\": 1}}";

    @TempDir Path dir;

    SqlFile file() {
        return new SqlFile(dir.resolve("agent.db"));
    }

    @Test
    void a_task_of_eighty_one_write_replies_runs_every_edit_and_ends_with_the_answer() throws Exception {
        // with the default config: each write is a new content of draft.txt (progress), the budget is for 200 steps
        SelfControlScenario s = new SelfControlScenario("80 one-write replies", true, "81 calls, untouched", 0, 81,
                "ACTIVE", Map.of(),
                "Edit draft.txt eighty times.", Healthy.UNTIL_IDLE, false, none(), call -> {
                    int n = call.n();
                    if (n > 80) return SelfControlRun.reply(call, reply("Done.", say("draft.txt has its 80 edits.")));
                    return SelfControlRun.reply(call, reply("Edit " + n + " of draft.txt.",
                            fileWrite("draft.txt", "draft, revision " + n)));
                });

        SelfControlRun.Outcome o = SelfControlRun.run(s, dir);

        // before: a write wakes nothing, so the model was asked once and the run exited 0 after 1 edit of 80
        assertThat(o.calls()).as(o.toString()).isEqualTo(81);
        assertThat(file().rows("SELECT count(*) FROM process_log WHERE name = 'file_write' AND status IN ('ok', 'close')"))
                .containsExactly("80");
        assertThat(Files.readString(dir.resolve("workspace/draft.txt"))).isEqualTo("draft, revision 80");
        assertThat(o.runOut()).contains("agent> draft.txt has its 80 edits.");
        assertThat(o.state()).isEqualTo("ACTIVE");
        assertThat(o.audit()).isEmpty();
        assertThat(o.runExit()).as(o.runOut()).isEqualTo(ExitCodes.OK);
    }

    @Test
    void until_idle_waits_for_the_models_own_idle_timer_and_shows_it_what_it_read() throws Exception {
        List<String> secondPrompt = new CopyOnWriteArrayList<>();
        SelfControlScenario s = new SelfControlScenario("read, then idle 1 s", true, "2 calls", 0, 2, "ACTIVE",
                Map.of(), "What does status.txt say? Look in a second.", Healthy.UNTIL_IDLE, false,
                files("status.txt", "deploy 42 is green\n"), call -> {
                    if (call.n() == 1) {
                        return SelfControlRun.reply(call, reply("I read it and look again in a second.",
                                fileRead("status.txt"), IDLE_1S));
                    }
                    secondPrompt.add(call.lastMessage());
                    return SelfControlRun.reply(call, reply("It is green.", say("status.txt: deploy 42 is green.")));
                });

        SelfControlRun.Outcome o = SelfControlRun.run(s, dir);

        // before: the drain exited after the first call while the idle held; the read's result was never shown
        assertThat(o.calls()).as(o.runOut()).isEqualTo(2);
        assertThat(secondPrompt).singleElement().asString().contains("deploy 42 is green");
        assertThat(file().rows("SELECT wake_reason FROM agent_log WHERE llm_called = 1 ORDER BY tick_id"))
                .containsExactly("new message", "idle ended: the time you set passed");
        assertThat(o.runOut()).contains("agent> status.txt: deploy 42 is green.");
        assertThat(o.runExit()).isEqualTo(ExitCodes.OK);
    }

    @Test
    void until_idle_shows_the_model_the_shells_result_before_it_exits() throws Exception {
        // a real process beside fake time: its result may come before or after the idle's second, so the model answers
        // once it has seen it and rests another second otherwise, as a model would
        List<String> answeredAfter = new CopyOnWriteArrayList<>();
        SelfControlScenario s = new SelfControlScenario("shell, then idle 1 s", true, "2 or 3 calls", 0, 0, "ACTIVE",
                Map.of(), "What does status.txt say? Look in a second.", Healthy.UNTIL_IDLE, false,
                files("status.txt", "deploy 42 is green\n"), call -> {
                    if (call.n() == 1) {
                        return SelfControlRun.reply(call, reply("I read it and look again in a second.",
                                shell("cat status.txt"), IDLE_1S));
                    }
                    if (!call.lastMessage().contains("deploy 42 is green")) {
                        return SelfControlRun.reply(call, reply("No result yet (call " + call.n() + ").", IDLE_1S));
                    }
                    answeredAfter.add(call.lastMessage());
                    return SelfControlRun.reply(call, reply("It is green.", say("status.txt: deploy 42 is green.")));
                });

        SelfControlRun.Outcome o = SelfControlRun.run(s, dir);

        // before: 1 call, and the run exited 0 with the person unanswered
        assertThat(answeredAfter).as(o.runOut()).hasSize(1);
        assertThat(o.runOut()).contains("agent> status.txt: deploy 42 is green.");
        assertThat(file().rows("SELECT wake_reason FROM agent_log WHERE llm_called = 1 AND tick_id > 1"))
                .as("each call after the first came when the idle's time passed or the result arrived")
                .isNotEmpty().allMatch(r -> r.equals("idle ended: the time you set passed") || r.equals("new results"));
        assertThat(o.runExit()).isEqualTo(ExitCodes.OK);
    }

    @Test
    void a_reply_of_five_messages_sends_three_and_refuses_two_as_one_slip() throws Exception {
        List<String> secondPrompt = new CopyOnWriteArrayList<>();
        SelfControlScenario s = new SelfControlScenario("5 messages a reply", true, "2 calls", 0, 2, "ACTIVE",
                Map.of(), "How is the import going?", Healthy.UNTIL_IDLE, false, none(), call -> {
                    if (call.n() == 1) {
                        return SelfControlRun.reply(call, reply("Five status lines.", say("status line 1"),
                                say("status line 2"), say("status line 3"), say("status line 4"), say("status line 5")));
                    }
                    secondPrompt.add(call.lastMessage());
                    return SelfControlRun.reply(call, reply("In one.", say("and: status lines 4 and 5")));
                });

        SelfControlRun.Outcome o = SelfControlRun.run(s, dir);

        assertThat(file().rows("SELECT text FROM notes WHERE source = 'llm' ORDER BY id")).containsExactly(
                "status line 1", "status line 2", "status line 3", "and: status lines 4 and 5");
        assertThat(o.runOut()).contains("agent> status line 3").doesNotContain("agent> status line 4")
                .doesNotContain("agent> status line 5");
        assertThat(file().rows("SELECT cmd_id || ' ' || status || ' ' || error_code || ' ' || result FROM process_log"
                + " WHERE name = 'send_message' AND status <> 'ok' AND status <> 'close' ORDER BY id")).containsExactly(
                "auto-4 error EINVAL at most 3 messages a reply: 2 not sent (auto-4, auto-5); say it in one message",
                "auto-5 error EINVAL not sent: see auto-4");
        assertThat(file().rows("SELECT value FROM process_log WHERE cmd_id = 'auto-5' AND name = 'send_message'"))
                .as("nothing is lost").singleElement().asString().contains("status line 5");
        assertThat(secondPrompt).as("told once, and asked to say it in one message").singleElement().asString()
                .contains("at most 3 messages a reply: 2 not sent (auto-4, auto-5); say it in one message");
        assertThat(o.calls()).isEqualTo(2);
        assertThat(o.state()).as("a slip is never counted toward a stop").isEqualTo("ACTIVE");
        assertThat(o.audit()).isEmpty();
    }
}

package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.hmpagent.commands.Approver;
import dev.hmpagent.commands.PendingCommand;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

class ReplApproverTest {
    final List<String> shown = new CopyOnWriteArrayList<>();

    static PendingCommand shell(String line) {
        return new PendingCommand(7, 1, "c-1", "shell", JsonNodeFactory.instance.objectNode().put("command", line), "",
                "f");
    }

    CompletableFuture<Approver.Answer> askInBackground(ReplApprover approver, AtomicBoolean halted) throws Exception {
        CompletableFuture<Approver.Answer> answer = CompletableFuture.supplyAsync(() ->
                approver.ask(shell("npm test"), "asking: \"npm test\" matches no allow rule", halted::get));
        while ((!approver.waiting() || shown.isEmpty()) && !answer.isDone()) Thread.onSpinWait();
        return answer;
    }

    @Test
    void the_question_is_shown_and_a_y_n_or_a_line_answers_it_while_other_lines_stay_messages() throws Exception {
        ReplApprover approver = new ReplApprover(shown::add, true);
        CompletableFuture<Approver.Answer> answer = askInBackground(approver, new AtomicBoolean());
        assertThat(shown.get(0)).contains("shell (c-1): npm test").contains("matches no allow rule")
                .contains("y = this once, n = no, a = always");

        assertThat(approver.offer("what are you doing?")).as("an ordinary line is a message").isFalse();
        assertThat(shown).last().asString().contains("still waiting for y, n or a");
        assertThat(approver.offer(" Always ")).isTrue();
        assertThat(answer.get(10, TimeUnit.SECONDS)).isEqualTo(Approver.Answer.ALWAYS);
        assertThat(approver.waiting()).isFalse();
        assertThat(approver.offer("y")).as("no question open: a plain message").isFalse();
    }

    @Test
    void a_halt_withdraws_the_question_and_the_answer_is_no() throws Exception {
        ReplApprover approver = new ReplApprover(shown::add, true);
        AtomicBoolean halted = new AtomicBoolean();
        CompletableFuture<Approver.Answer> answer = askInBackground(approver, halted);
        halted.set(true);
        assertThat(answer.get(10, TimeUnit.SECONDS)).isEqualTo(Approver.Answer.NO);
        assertThat(shown).last().asString().contains("withdrawn").contains("halted");
    }

    @Test
    void with_nobody_at_a_terminal_every_question_is_a_no_without_asking() {
        ReplApprover approver = new ReplApprover(shown::add, false);
        assertThat(approver.ask(shell("npm test"), "why", () -> false)).isEqualTo(Approver.Answer.NO);
        assertThat(shown).isEmpty();
        assertThat(approver.personPresent()).isFalse();
    }
}

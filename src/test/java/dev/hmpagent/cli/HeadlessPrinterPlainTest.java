package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.testing.MutableClock;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

/**
 * agent run says what a person needs by default: the world's error in plain words, not what the safety monitor wrote
 * for the model, and not the machinery's details; --verbose shows those too.
 */
class HeadlessPrinterPlainTest {
    static final String SHOWN = "SYSTEM ALERT: You are repeating a failed action. STOP and analyze why.\n"
            + "PAIN low (0.3) from command shell: EEXIT(2): exit 2 after 0.2 s ls: cannot access '/no/such/dir': No such"
            + " file or directory. This is failure 5 of the same action in a row. You found a boundary: this way does not"
            + " work. Find another way to reach your goal. Stop repeating this action and change your strategy.\n"
            + "[the agent is locked: the same command failed 5 times in a row; a person must run agent unlock]";

    private final MutableClock clock = MutableClock.at("2026-11-29T03:15:28.257895446Z");

    private String print(boolean verbose, AgentEvent... events) {
        StringWriter out = new StringWriter();
        HeadlessPrinter printer = new HeadlessPrinter(new PrintWriter(out, true), clock, ZoneId.of("America/New_York"),
                false, verbose, "agent.db");
        for (AgentEvent e : events) printer.emit(e);
        return out.toString();
    }

    @Test
    void a_failed_command_says_what_the_world_returned_with_the_local_time() {
        assertThat(print(false, new AgentEvent.CommandDone(1, "auto-5", "shell", "error", SHOWN)))
                .isEqualTo("22:15:28 tick 1 [shell auto-5] error: exit 2 after 0.2 s ls: cannot access '/no/such/dir':"
                        + " No such file or directory\n");
    }

    @Test
    void verbose_shows_the_result_as_the_model_read_it() {
        assertThat(print(true, new AgentEvent.CommandDone(1, "auto-5", "shell", "error", SHOWN)))
                .contains("PAIN low (0.3)").contains("SYSTEM ALERT").contains("[the agent is locked");
    }

    @Test
    void the_machinerys_details_are_for_verbose_and_a_plain_notice_is_for_everyone() {
        AgentEvent[] events = {new AgentEvent.Info("tick 1 took 1.3 s: skipped 13 frames at 10 Hz", true),
                new AgentEvent.Info("anti-stagnation reflex: strategy 'invert' fired", true),
                new AgentEvent.Info("active again: thinking resumes")};

        assertThat(print(false, events)).isEqualTo("22:15:28 · active again: thinking resumes\n");
        assertThat(print(true, events).lines()).hasSize(3);
    }

    @Test
    void a_successful_result_is_kept_as_it_came() {
        assertThat(print(false, new AgentEvent.CommandDone(2, "c-1", "shell", "ok", "exit 0 after 0.1 s\nhello")))
                .isEqualTo("22:15:28 tick 2 [shell c-1] ok: exit 0 after 0.1 s hello\n");
    }
}

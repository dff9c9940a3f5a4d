package dev.hmpagent.repl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.testing.MutableClock;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Answers (messages, a reply's prose) apart from the rest, the prose marked apart from a message; --quiet's figures. */
class AnswerRenderingTest {
    final MutableClock clock = MutableClock.at("2026-11-27T08:00:00Z");
    final RecordingScreen screen = new RecordingScreen(false);
    final EventRenderer renderer = new EventRenderer(screen, "agent.db", clock, Verbosity.QUIET,
            EventRenderer.Facts.NONE, new Costs(List.of()));

    @Test
    void a_replys_prose_is_an_answer_marked_apart_from_a_message_with_its_lines_indented_under_the_mark() {
        renderer.emit(new AgentEvent.MessageToUser(1, 5, "pong"));
        renderer.emit(new AgentEvent.ProseAnswer(2, "2 + 2 = 4.\nAnything else?"));
        renderer.emit(new AgentEvent.Problem("something else"));

        assertThat(screen.answers).containsExactly("agent> pong",
                "agent (thought)> 2 + 2 = 4.\n                 Anything else?");
        assertThat(screen.above).containsExactly("agent> pong",
                "agent (thought)> 2 + 2 = 4.\n                 Anything else?", "! something else");
    }

    @Test
    void a_reply_of_prose_alone_is_printed_once_as_the_answer_not_again_as_a_thought() {
        renderer.verbosity(Verbosity.NORMAL);
        renderer.emit(new AgentEvent.Thought(3, "Four.\n", false));
        renderer.emit(new AgentEvent.Info("the reply of tick 3 was cut", true));
        renderer.emit(new AgentEvent.ProseAnswer(3, "Four."));
        renderer.emit(new AgentEvent.Thought(4, "Working on it.", false));
        renderer.emit(new AgentEvent.CommandDone(4, "c-1", "diary_entry", "ok", "written"));
        renderer.emit(new AgentEvent.ProseAnswer(4, "Working on it."));

        assertThat(screen.above).containsExactly("· the reply of tick 3 was cut", "agent (thought)> Four.",
                "  (thought) Working on it.", "  [diary_entry c-1] ok: written", "agent (thought)> Working on it.");
    }

    @Test
    void a_thought_held_back_is_printed_before_the_judge_is_asked_not_after_it() {
        renderer.verbosity(Verbosity.NORMAL);
        renderer.emit(new AgentEvent.Thought(5, "Nobody asked; musing.", false));
        renderer.emit(new AgentEvent.Comparing(5));

        assertThat(screen.above).containsExactly("  (thought) Nobody asked; musing.");
    }

    @Test
    void a_huge_prose_answer_is_clipped_with_the_command_that_prints_the_whole_reply() {
        renderer.emit(new AgentEvent.ProseAnswer(4, "y".repeat(EventRenderer.MAX_MESSAGE_CHARS + 10)));

        assertThat(screen.answers).singleElement().asString().endsWith("… (10 more characters; all of it: sqlite3"
                + " 'agent.db' \"SELECT content FROM llm_recent_responses WHERE tick_id = 4\")");
    }

    @Test
    void hidden_figures_leave_every_other_line() {
        renderer.hideFigures();
        renderer.emit(new AgentEvent.CallStarted(7, "m"));
        renderer.emit(new AgentEvent.CallEnded(7, "m", 1_234, 0, 40, 600, false, false));
        renderer.emit(new AgentEvent.MessageToUser(7, 3, "Hello!"));
        renderer.emit(new AgentEvent.TickDone(7, "ok", 1_234, 40, 700));

        assertThat(screen.above).containsExactly("agent> Hello!");
    }
}

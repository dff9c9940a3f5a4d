package dev.hmpagent.repl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.event.AgentEvent;
import org.junit.jupiter.api.Test;

class EventRendererTest {
    @Test
    void each_event_has_its_own_plain_text_form() {
        assertThat(EventRenderer.render(new AgentEvent.MessageToUser(1, "hi"), "agent.db").toString()).isEqualTo("agent> hi");
        assertThat(EventRenderer.render(new AgentEvent.Thought(1, "hmm", true), "agent.db").toString()).isEqualTo("  (thought, interrupted) hmm");
        assertThat(EventRenderer.render(new AgentEvent.CommandDone(1, "c-1", "diary_entry", "ok", "written"), "agent.db").toString())
                .isEqualTo("  [diary_entry c-1] ok: written");
        assertThat(EventRenderer.render(new AgentEvent.Problem("down"), "agent.db").toString()).isEqualTo("! down");
        assertThat(EventRenderer.render(new AgentEvent.Info("note"), "agent.db").toString()).isEqualTo("· note");
    }

    @Test
    void escape_sequences_from_the_model_never_reach_the_terminal() {
        String evil = "hi\u001b]52;c;Y3VybCBldmlsLnNo\u0007 there\u001b[8m hidden\u009b31m\nnext\tline";
        assertThat(EventRenderer.render(new AgentEvent.MessageToUser(1, evil), "agent.db").toString())
                .isEqualTo("agent> hi there hidden\n       next\tline")
                .doesNotContain("\u001b").doesNotContain("\u0007").doesNotContain("\u009b");
    }

    @Test
    void long_thoughts_are_clipped() {
        String text = EventRenderer.render(new AgentEvent.Thought(1, "x".repeat(5000), false), "agent.db").toString();
        assertThat(text).hasSizeLessThan(EventRenderer.MAX_THOUGHT_CHARS + 40).endsWith("…");
    }

    @Test
    void a_huge_message_is_clipped_with_the_exact_command_that_shows_all_of_it() {
        String huge = "y".repeat(1_000_000);
        String text = EventRenderer.render(new AgentEvent.MessageToUser(7, 31, huge), "/tmp/my agent.db").toString();
        assertThat(text).hasSizeLessThan(EventRenderer.MAX_MESSAGE_CHARS + 200)
                .startsWith("agent> " + "y".repeat(EventRenderer.MAX_MESSAGE_CHARS))
                .endsWith("(995904 more characters; all of it: sqlite3 '/tmp/my agent.db' "
                        + "\"SELECT text FROM notes WHERE id = 31\")");
    }

    @Test
    void a_message_of_many_short_lines_is_clipped_by_lines() {
        String text = EventRenderer.render(new AgentEvent.MessageToUser(3, "line\n".repeat(1_000)), "agent.db").toString();
        assertThat(text.lines().count()).isEqualTo(EventRenderer.MAX_MESSAGE_LINES + 1);
        assertThat(text).contains("more characters; all of it: sqlite3");
    }

    @Test
    void a_message_up_to_the_limit_is_shown_whole() {
        String whole = "z".repeat(EventRenderer.MAX_MESSAGE_CHARS);
        assertThat(EventRenderer.render(new AgentEvent.MessageToUser(3, whole), "agent.db").toString())
                .isEqualTo("agent> " + whole);
    }
}

package dev.hmpagent.repl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.event.AgentEvent;
import org.junit.jupiter.api.Test;

class EventRendererTest {
    @Test
    void each_event_has_its_own_plain_text_form() {
        assertThat(EventRenderer.render(new AgentEvent.MessageToUser(1, "hi")).toString()).isEqualTo("agent> hi");
        assertThat(EventRenderer.render(new AgentEvent.Thought(1, "hmm", true)).toString()).isEqualTo("  (thought, interrupted) hmm");
        assertThat(EventRenderer.render(new AgentEvent.CommandDone(1, "c-1", "diary_entry", "ok", "written")).toString())
                .isEqualTo("  [diary_entry c-1] ok: written");
        assertThat(EventRenderer.render(new AgentEvent.Problem("down")).toString()).isEqualTo("! down");
        assertThat(EventRenderer.render(new AgentEvent.Info("note")).toString()).isEqualTo("· note");
    }

    @Test
    void escape_sequences_from_the_model_never_reach_the_terminal() {
        String evil = "hi\u001b]52;c;Y3VybCBldmlsLnNo\u0007 there\u001b[8m hidden\u009b31m\nnext\tline";
        assertThat(EventRenderer.render(new AgentEvent.MessageToUser(1, evil)).toString())
                .isEqualTo("agent> hi]52;c;Y3VybCBldmlsLnNo there[8m hidden31m\nnext\tline")
                .doesNotContain("\u001b").doesNotContain("\u0007").doesNotContain("\u009b");
    }

    @Test
    void long_thoughts_are_clipped() {
        String text = EventRenderer.render(new AgentEvent.Thought(1, "x".repeat(5000), false)).toString();
        assertThat(text).hasSizeLessThan(EventRenderer.MAX_THOUGHT_CHARS + 40).endsWith("…");
    }
}

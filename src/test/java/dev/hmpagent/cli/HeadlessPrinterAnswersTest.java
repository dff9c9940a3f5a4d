package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.testing.MutableClock;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.ZoneId;
import org.junit.jupiter.api.Test;

/** agent run shows a reply's prose as the answer when it sent no message, marked apart from a message. */
class HeadlessPrinterAnswersTest {
    private final MutableClock clock = MutableClock.at("2026-11-27T08:00:00Z");

    private String print(boolean json, AgentEvent... events) {
        StringWriter out = new StringWriter();
        HeadlessPrinter printer = new HeadlessPrinter(new PrintWriter(out, true), clock, ZoneId.of("Europe/Berlin"), json, false,
                "agent.db");
        for (AgentEvent e : events) printer.emit(e);
        return out.toString();
    }

    @Test
    void text_marks_the_prose_apart_from_a_message() {
        assertThat(print(false, new AgentEvent.MessageToUser(1, 4, "pong"), new AgentEvent.ProseAnswer(2, "2 + 2\n= 4.")))
                .as("the local time (Berlin), short; JSON keeps UTC").isEqualTo("09:00:00 tick 1 agent> pong\n"
                        + "09:00:00 tick 2 agent (thought)> 2 + 2 = 4.\n");
    }

    @Test
    void a_huge_prose_is_cut_with_the_command_that_prints_the_whole_reply() {
        String line = print(false, new AgentEvent.ProseAnswer(3, "z".repeat(HeadlessPrinter.MAX_MESSAGE_CHARS + 5)));

        assertThat(line).endsWith("… (5 more characters; all of it: sqlite3 'agent.db' \"SELECT content FROM"
                + " llm_recent_responses WHERE tick_id = 3\")\n");
    }

    @Test
    void json_names_it_prose() {
        assertThat(print(true, new AgentEvent.ProseAnswer(2, "4."))).isEqualTo(
                "{\"ts\":\"2026-11-27T08:00:00Z\",\"event\":\"prose\",\"tick\":2,\"text\":\"4.\"}\n");
    }
}

package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.testing.MutableClock;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.ZoneId;
import java.time.Instant;
import org.junit.jupiter.api.Test;

/** agent run during an outage: the failure is told once, not at every back-off step; JSON keeps every event. */
class HeadlessPrinterRetryTest {
    private final MutableClock clock = MutableClock.at("2026-11-24T10:00:00Z");

    private String print(boolean json) {
        StringWriter out = new StringWriter();
        HeadlessPrinter printer = new HeadlessPrinter(new PrintWriter(out, true), clock, ZoneId.of("Europe/Berlin"), json, false,
                "agent.db");
        for (int attempt = 1; attempt <= 5; attempt++) {
            printer.emit(new AgentEvent.Retrying("LLM endpoint http://x is not reachable — retrying in 2 s", attempt,
                    Instant.parse("2026-11-24T10:01:00Z")));
        }
        printer.emit(new AgentEvent.Info("main answers again"));
        return out.toString();
    }

    @Test
    void text_says_the_failure_once_then_the_recovery() {
        String text = print(false);

        assertThat(text.lines()).hasSize(2);
        assertThat(text).containsOnlyOnce("is not reachable").contains("main answers again");
    }

    @Test
    void json_keeps_every_try() {
        assertThat(print(true).lines().filter(l -> l.contains("\"attempt\"")).count()).isEqualTo(5);
    }
}

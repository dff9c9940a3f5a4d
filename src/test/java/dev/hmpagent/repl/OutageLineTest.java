package dev.hmpagent.repl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.event.AgentEvent;
import java.time.Instant;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The outage's one line: what failed, the try, the wait, the messages queued and the fix, within the width. */
class OutageLineTest {
    static final Instant NOW = Instant.parse("2026-11-29T10:00:00Z");
    /** What the LLM layer says when no Ollama runs, wrapped by the failover as the outage's failure. */
    static final String REFUSED = "no LLM answers (main: LLM endpoint http://localhost:11434 is not reachable (connection"
            + " refused): start the server (e.g. \"ollama serve\") or set llm.base_url) — retrying in 16 s; your"
            + " messages stay queued";
    static final String LIMITED = "LLM endpoint https://api.example.com/v1 is rate limiting (HTTP 429: slow down, you"
            + " have sent too many requests in the last minute for this organisation): will retry later (Retry-After"
            + " 20s) — retrying in 20 s; your messages stay queued";

    static AgentEvent.Retrying retrying(String text) {
        return new AgentEvent.Retrying(text, 3, NOW.plusSeconds(16));
    }

    @ParameterizedTest
    @ValueSource(ints = {59, 119, 199})
    void connection_refused_fits_the_width_with_the_try_the_wait_and_the_fix(int width) {
        String line = OutageLine.line(retrying(REFUSED), NOW, 1, width);
        assertThat(line.length()).isLessThanOrEqualTo(width);
        assertThat(line).startsWith("no LLM").contains(" · try 3 · next in 16 s").contains("set llm.base_url")
                .doesNotContain("…");
    }

    @Test
    void the_wider_the_screen_the_more_it_says() {
        assertThat(OutageLine.line(retrying(REFUSED), NOW, 1, 59))
                .isEqualTo("no LLM · try 3 · next in 16 s · 1 queued · set llm.base_url");
        assertThat(OutageLine.line(retrying(REFUSED), NOW, 1, 119)).isEqualTo("no LLM at localhost:11434 (connection"
                + " refused) · try 3 · next in 16 s · 1 queued · start Ollama or set llm.base_url");
        assertThat(OutageLine.line(retrying(REFUSED), NOW, 1, 199)).isEqualTo("no LLM at http://localhost:11434"
                + " (connection refused) · try 3 · next in 16 s · 1 message queued · start Ollama or set llm.base_url;"
                + " /model to switch");
    }

    @Test
    void a_rate_limit_is_said_as_such_at_every_width() {
        assertThat(OutageLine.line(retrying(LIMITED), NOW, 2, 59))
                .isEqualTo("rate limited · try 3 · next in 16 s · /model to switch");
        assertThat(OutageLine.line(retrying(LIMITED), NOW, 2, 119)).isEqualTo("rate limited (429) at"
                + " https://api.example.com/v1 · try 3 · next in 16 s · 2 messages queued · /model to switch");
        assertThat(OutageLine.line(retrying(LIMITED), NOW, 2, 199)).isEqualTo("rate limited (429) at"
                + " https://api.example.com/v1 · try 3 · next in 16 s · 2 messages queued · waits as the server asks;"
                + " /model to switch");
    }
}

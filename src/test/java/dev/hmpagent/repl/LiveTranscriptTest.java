package dev.hmpagent.repl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.config.ModelPrice;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.testing.MutableClock;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/** What the person sees while the agent thinks: the live region, the quiet transcript, the figures, the retry line. */
class LiveTranscriptTest {
    final MutableClock clock = MutableClock.at("2026-11-24T10:00:00Z");
    final RecordingScreen screen = new RecordingScreen(true);
    int queued = 1;
    final EventRenderer.Facts facts = new EventRenderer.Facts() {
        @Override public TokenFigures tokens() { return new TokenFigures(2_000, 18_400, 100_000, 0, 0, 1_200_000); }
        @Override public int queued() { return queued; }
        @Override public String statusLine() { return "ACTIVE · tick 7 · m"; }
    };
    final Costs costs = new Costs(List.of(new ModelPrice("gpt-priced", 2.0, 0.5, 8.0)));
    final EventRenderer renderer = new EventRenderer(screen, "agent.db", clock, Verbosity.QUIET, facts, costs);

    @Test
    void thinking_counts_seconds_until_the_first_token_then_the_reply_grows_in_place_and_gives_way_to_the_message() {
        renderer.emit(new AgentEvent.CallStarted(7, "m"));
        assertThat(screen.live).containsExactly("thinking… 0 s");
        clock.advance(Duration.ofSeconds(12));
        renderer.refresh();
        assertThat(screen.live).containsExactly("thinking… 12 s");
        assertThat(screen.status).containsExactly("ACTIVE · tick 7 · m");

        renderer.emit(new AgentEvent.ReplyDelta(7, "The person "));
        assertThat(screen.live).as("a row's trailing space is not drawn").containsExactly("The person");
        renderer.emit(new AgentEvent.ReplyDelta(7, "greets me.\nI answer."));
        assertThat(screen.live).containsExactly("The person greets me.", "I answer.");
        assertThat(screen.above).as("nothing is printed for good while it streams").isEmpty();

        clock.advance(Duration.ofMillis(600));
        renderer.emit(new AgentEvent.CallEnded(7, "m", 1_234, 0, 40, 12_600, false, false));
        assertThat(screen.live).as("the live text is gone once the reply is complete").isEmpty();
        renderer.emit(new AgentEvent.MessageToUser(7, 3, "Hello!\nNice to meet you."));
        renderer.emit(new AgentEvent.TickDone(7, "ok", 1_234, 40, 13_000));
        assertThat(screen.above).containsExactly("agent> Hello!\n       Nice to meet you.",
                "1.2k in · 40 out · 12 s · task 18.4k / 100k");
    }

    @Test
    void the_figures_line_names_the_prompt_tokens_the_servers_cache_served_when_there_were_some() {
        renderer.emit(new AgentEvent.CallStarted(7, "gpt-test"));
        renderer.emit(new AgentEvent.CallEnded(7, "gpt-test", 1_234, 1_024, 40, 600, false, false));
        renderer.emit(new AgentEvent.TickDone(7, "ok", 1_234, 40, 700));
        renderer.emit(new AgentEvent.CallStarted(8, "gpt-test"));
        renderer.emit(new AgentEvent.CallEnded(8, "gpt-test", 1_300, 0, 40, 600, false, false));
        renderer.emit(new AgentEvent.TickDone(8, "ok", 1_300, 40, 700));

        assertThat(screen.above).containsExactly("1.2k in (1k cached) · 40 out · 0.6 s · task 18.4k / 100k",
                "1.3k in · 40 out · 0.6 s · task 18.4k / 100k");
    }

    @Test
    void the_figures_line_names_what_the_call_cost_when_its_model_has_a_price() {
        renderer.emit(new AgentEvent.CallStarted(7, "gpt-priced"));
        // (1,234 − 1,024) × $2 + 1,024 × $0.50 + 40 × $8, per million: $0.001252
        renderer.emit(new AgentEvent.CallEnded(7, "gpt-priced", 1_234, 1_024, 40, 600, false, false));
        renderer.emit(new AgentEvent.TickDone(7, "ok", 1_234, 40, 700));
        renderer.emit(new AgentEvent.CallStarted(8, "unpriced"));
        renderer.emit(new AgentEvent.CallEnded(8, "unpriced", 1_234, 0, 40, 600, false, false));
        renderer.emit(new AgentEvent.TickDone(8, "ok", 1_234, 40, 700));

        assertThat(screen.above).containsExactly(
                "1.2k in (1k cached) · 40 out · 0.6 s · $0.0013 · task 18.4k / 100k",
                "1.2k in · 40 out · 0.6 s · task 18.4k / 100k");
    }

    @Test
    void a_long_reply_shows_only_its_last_lines_each_cut_to_the_screen() {
        renderer.emit(new AgentEvent.CallStarted(1, "m"));
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= 20; i++) sb.append("line ").append(i).append('\n');
        renderer.emit(new AgentEvent.ReplyDelta(1, sb + "x".repeat(150)));
        assertThat(screen.live).hasSize(EventRenderer.LIVE_LINES).allSatisfy(l -> assertThat(l.length()).isLessThan(60));
        assertThat(screen.live.get(0)).isEqualTo("line 18");
    }

    @Test
    void the_quiet_transcript_shows_messages_and_one_line_for_what_else_the_tick_did() {
        renderer.emit(new AgentEvent.CallStarted(4, "m"));
        renderer.emit(new AgentEvent.CallEnded(4, "m", 900, 0, 60, 600, false, false));
        renderer.emit(new AgentEvent.Thought(4, "The user greeted me.", false));
        renderer.emit(new AgentEvent.MessageToUser(4, 9, "Hi."));
        renderer.emit(new AgentEvent.CommandDone(4, "c-1", "send_message", "ok", "message delivered to the user (note 9)"));
        renderer.emit(new AgentEvent.CommandDone(4, "c-2", "diary_entry", "ok", "written"));
        renderer.emit(new AgentEvent.CommandDone(4, "c-3", "memory_add", "ok", "saved"));
        renderer.emit(new AgentEvent.CommandDone(4, "c-4", "memory_add", "ok", "saved"));
        renderer.emit(new AgentEvent.CommandDone(4, "c-5", "file_read", "error", "no such file"));
        renderer.emit(new AgentEvent.Info("anti-stagnation reflex: flashback", true));
        renderer.emit(new AgentEvent.TickDone(4, "ok", 900, 60, 700));

        assertThat(screen.above).containsExactly("agent> Hi.",
                "· wrote a diary entry, saved 2 memory notes; 1 command failed (/verbose normal shows why)",
                "900 in · 60 out · 0.6 s · task 18.4k / 100k");
    }

    @Test
    void a_running_command_is_started_not_failed_and_a_failure_reported_twice_counts_once() {
        renderer.emit(new AgentEvent.CallStarted(5, "m"));
        renderer.emit(new AgentEvent.CallEnded(5, "m", 900, 0, 60, 600, false, false));
        renderer.emit(new AgentEvent.CommandDone(5, "c-1", "shell", "running", "started (process_log 41)"));
        renderer.emit(new AgentEvent.CommandDone(5, "c-2", "shell", "running", "started (process_log 42)"));
        renderer.emit(new AgentEvent.CommandDone(5, "c-3", "file_read", "error", "no such file"));
        renderer.emit(new AgentEvent.CommandDone(5, "c-3", "file_read", "error", "no such file"));
        renderer.emit(new AgentEvent.TickDone(5, "ok", 900, 60, 700));

        assertThat(screen.above).containsExactly(
                "· started 2 shell commands; 1 command failed (/verbose normal shows why)",
                "900 in · 60 out · 0.6 s · task 18.4k / 100k");
    }

    @Test
    void an_unreadable_block_is_said_once_as_such_not_counted_as_failed_commands() {
        renderer.emit(new AgentEvent.CallStarted(6, "m"));
        renderer.emit(new AgentEvent.CallEnded(6, "m", 900, 0, 60, 600, false, false));
        renderer.emit(new AgentEvent.CommandDone(6, "auto-1", "command_parse", "error", "command #1 is not valid JSON"));
        renderer.emit(new AgentEvent.CommandDone(6, "auto-2", "command_parse", "error", "the array is not closed"));
        renderer.emit(new AgentEvent.TickDone(6, "ok", 900, 60, 700));

        assertThat(screen.above).containsExactly(
                "· the model's command block could not be read (/verbose normal shows why)",
                "900 in · 60 out · 0.6 s · task 18.4k / 100k");
    }

    @Test
    void verbose_normal_shows_thoughts_results_and_reflex_notices_but_not_a_messages_own_receipt() {
        renderer.verbosity(Verbosity.NORMAL);
        renderer.emit(new AgentEvent.Thought(4, "The user greeted me.", false));
        renderer.emit(new AgentEvent.MessageToUser(4, 9, "Hi."));
        renderer.emit(new AgentEvent.CommandDone(4, "c-1", "send_message", "ok", "message delivered to the user (note 9)"));
        renderer.emit(new AgentEvent.CommandDone(4, "c-2", "diary_entry", "ok", "written"));
        renderer.emit(new AgentEvent.Info("anti-stagnation reflex: flashback", true));
        renderer.emit(new AgentEvent.TickDone(4, "ok", 900, 60, 700));

        assertThat(screen.above).containsExactly("  (thought) The user greeted me.", "agent> Hi.",
                "  [diary_entry c-2] ok: written", "· anti-stagnation reflex: flashback");

        renderer.verbosity(Verbosity.FULL);
        renderer.emit(new AgentEvent.CommandDone(5, "c-1", "send_message", "ok", "message delivered"));
        assertThat(screen.above).last().isEqualTo("  [send_message c-1] ok: message delivered");
    }

    @Test
    void retries_collapse_into_one_line_that_counts_down_in_place() {
        String text = "LLM endpoint http://h/v1 is not reachable (Connection refused) — retrying in 1 s; your messages stay queued";
        renderer.emit(new AgentEvent.CallStarted(1, "m"));
        renderer.emit(new AgentEvent.CallEnded(1, "m", 0, 0, 0, 5, false, true));
        renderer.emit(new AgentEvent.Retrying(text, 1, clock.instant().plusSeconds(1)));
        for (int attempt = 2; attempt <= 4; attempt++) {
            clock.advance(Duration.ofSeconds(1));
            renderer.emit(new AgentEvent.CallStarted(attempt, "m"));
            renderer.emit(new AgentEvent.CallEnded(attempt, "m", 0, 0, 0, 5, false, true));
            renderer.emit(new AgentEvent.Retrying(text.replace("1 s", "16 s"), attempt, clock.instant().plusSeconds(16)));
        }
        renderer.emit(new AgentEvent.Info("No LLM answers: m at http://h/v1 (main) failed 3 times in a row. The agent"
                + " goes on without thinking: ticks are logged, messages queue and processes are tracked"));
        assertThat(screen.above).as("the live line says it all: no paragraph, no sentence a try").isEmpty();
        clock.advance(Duration.ofSeconds(4));
        renderer.refresh();
        assertThat(screen.live).containsExactly("no LLM · try 4 · next in 12 s · 1 queued · set llm.base_url");
        queued = 0;
        RecordingScreen wide = new RecordingScreen(true, 200);
        EventRenderer r = new EventRenderer(wide, "agent.db", clock, Verbosity.QUIET, facts, costs);
        r.emit(new AgentEvent.Retrying(text, 4, clock.instant().plusSeconds(12)));
        assertThat(wide.live).containsExactly("no LLM at http://h/v1 (Connection refused) · try 4 · next in 12 s"
                + " · start the LLM server or set llm.base_url; /model to switch");

        renderer.emit(new AgentEvent.CallStarted(5, "m"));
        renderer.emit(new AgentEvent.CallEnded(5, "m", 10, 0, 2, 300, false, false));
        assertThat(screen.above).last().isEqualTo("· the LLM answers again (after 4 failed tries)");
        assertThat(screen.live).isEmpty();
    }

    @Test
    void a_cancel_is_one_line_saying_how_much_arrived_and_the_cut_short_line_is_not_said_again() {
        renderer.emit(new AgentEvent.CallStarted(7, "m"));
        assertThat(renderer.cancel(() -> true)).contains("cancelled before any reply");
        renderer.emit(new AgentEvent.CallEnded(7, "m", 900, 0, 0, 2_000, true, false));
        renderer.emit(new AgentEvent.Thought(7, "", true));
        assertThat(screen.above).as("the cancel line (said by the REPL) is all").isEmpty();
        assertThat(screen.live).isEmpty();

        renderer.emit(new AgentEvent.CallStarted(8, "m"));
        renderer.emit(new AgentEvent.ReplyDelta(8, "Once upon a time"));
        assertThat(renderer.cancel(() -> true)).contains("cancelled; 16 chars kept");
        renderer.emit(new AgentEvent.CallEnded(8, "m", 900, 0, 4, 2_000, true, false));
        renderer.emit(new AgentEvent.Thought(8, "Once upon a time", true));
        renderer.emit(new AgentEvent.Thought(9, "a loop", true));
        assertThat(screen.above).as("a reply cut short by anything else still says so").containsExactly(
                "· the reply of tick 9 was cut short; what arrived is kept (/verbose normal shows it)");
    }

    @Test
    void a_cancel_whose_tick_ends_before_the_cancel_line_is_said_still_says_it_once() {
        renderer.emit(new AgentEvent.CallStarted(7, "m"));
        renderer.emit(new AgentEvent.ReplyDelta(7, "Once upon a time"));
        // the cancel wakes the tick thread, which ends the call and says the thought before the REPL's line
        assertThat(renderer.cancel(() -> {
            renderer.emit(new AgentEvent.CallEnded(7, "m", 900, 0, 4, 2_000, true, false));
            renderer.emit(new AgentEvent.Thought(7, "Once upon a time", true));
            return true;
        })).contains("cancelled; 16 chars kept");
        assertThat(screen.above).as("the cancel line (said by the REPL) is all").isEmpty();
    }

    @Test
    void a_ctrl_c_with_nothing_in_flight_says_nothing_and_a_later_cut_short_is_still_said() {
        renderer.emit(new AgentEvent.CallStarted(7, "m"));
        assertThat(renderer.cancel(() -> false)).isEmpty();
        renderer.emit(new AgentEvent.CallEnded(7, "m", 900, 0, 4, 2_000, true, false));
        renderer.emit(new AgentEvent.Thought(7, "a loop", true));
        assertThat(screen.above).containsExactly(
                "· the reply of tick 7 was cut short; what arrived is kept (/verbose normal shows it)");
    }

    @Test
    void the_status_line_keeps_to_one_row_of_a_narrow_screen() {
        EventRenderer.Facts busy = new EventRenderer.Facts() {
            @Override public TokenFigures tokens() { return facts.tokens(); }
            @Override public int queued() { return 1; }
            @Override public String statusLine() { return StatusFitTest.FULL; }
        };
        new EventRenderer(screen, "agent.db", clock, Verbosity.QUIET, busy, costs).refresh();
        assertThat(screen.status).containsExactly("ACTIVE · backing off · task 1.2k/1M · 1 msg · 2 proc");
    }

    @Test
    void verbose_full_prints_the_llm_layers_own_sentences_once() {
        String text = "LLM endpoint http://h/v1 is not reachable (Connection refused): start the server — retrying in 1 s";
        EventRenderer r = new EventRenderer(screen, "agent.db", clock, Verbosity.FULL, facts, costs);
        r.emit(new AgentEvent.Retrying(text, 1, clock.instant().plusSeconds(1)));
        r.emit(new AgentEvent.Retrying(text, 2, clock.instant().plusSeconds(2)));
        r.emit(new AgentEvent.Info("No LLM answers: m at http://h/v1 (main) failed 3 times in a row."));
        assertThat(screen.above).containsExactly("! " + text,
                "· No LLM answers: m at http://h/v1 (main) failed 3 times in a row.");
    }

    @Test
    void the_retry_line_names_the_try_the_wait_and_the_messages_queued() {
        AgentEvent.Retrying r = new AgentEvent.Retrying("LLM at http://h/v1 answered 503 — retrying in 16 s; your messages"
                + " stay queued", 4, clock.instant().plusSeconds(16));
        assertThat(OutageLine.line(r, clock.instant(), 1, 200))
                .isEqualTo("LLM at http://h/v1 answered 503 · try 4 · next in 16 s · 1 message queued");
        assertThat(OutageLine.line(r, clock.instant().plusSeconds(20), 2, 200))
                .isEqualTo("LLM at http://h/v1 answered 503 · try 4 · trying now · 2 messages queued");
    }

    @Test
    void a_dumb_terminal_gets_every_retry_as_a_line_and_no_live_region() {
        RecordingScreen dumb = new RecordingScreen(false);
        EventRenderer r = new EventRenderer(dumb, "agent.db", clock, Verbosity.QUIET, facts, costs);
        r.emit(new AgentEvent.CallStarted(1, "m"));
        r.emit(new AgentEvent.ReplyDelta(1, "streaming"));
        r.emit(new AgentEvent.Retrying("down — retrying in 1 s", 1, clock.instant()));
        r.emit(new AgentEvent.Retrying("down — retrying in 2 s", 2, clock.instant()));
        assertThat(dumb.live).isEmpty();
        assertThat(dumb.above).as("a log: every try, whole").containsExactly("! down — retrying in 1 s",
                "! down — retrying in 2 s");
    }
}

package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.safety.Guides;
import dev.hmpagent.safety.SafetyMonitor;
import dev.hmpagent.safety.SafetyRules;
import dev.hmpagent.store.LlmCall;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeOpenAiServer;
import dev.hmpagent.testing.SqlFile;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.util.Map;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code /budget} in the REPL: the task's budget shown as the SafetyMonitor counts it, and raised in place. */
class ReplBudgetEndToEndTest {
    @TempDir Path dir;
    FakeOpenAiServer llm;
    Path db;
    Path config;
    final ByteArrayOutputStream terminalOut = new ByteArrayOutputStream();
    final StringWriter err = new StringWriter();

    @BeforeEach
    void start() throws IOException {
        llm = new FakeOpenAiServer();
        db = dir.resolve("agent.db");
        config = dir.resolve("agent.toml");
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n");
        Store.open(db, Clock.systemUTC()).close();
    }

    @AfterEach
    void stop() {
        llm.close();
    }

    /** The REPL on the file, reading {@code input}; its exit code. */
    int agent(String input) {
        Launch launch = new Launch(Map.of("HOME", dir.toString()),
                () -> new DumbTerminal(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), terminalOut),
                Clock.systemUTC(), false);
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(new StringWriter(), true));
        cl.setErr(new PrintWriter(err, true));
        return cl.execute("--config", config.toString(), "--db", db.toString(), "--base-url", llm.baseUrl());
    }

    String terminal() {
        return terminalOut.toString(StandardCharsets.UTF_8) + err;
    }

    String row(String sql) {
        return new SqlFile(db).rows(sql).get(0);
    }

    @Test
    void budget_shows_spent_the_cached_share_and_the_calls_left_and_help_lists_it() {
        SqlFile file = new SqlFile(db);
        file.exec("UPDATE safety_counters SET task_tokens = 400000, task_started_at = '2026-01-01T00:00:00Z'");
        try (Store store = Store.open(db, Clock.systemUTC())) {
            for (int i = 1; i <= 4; i++) {
                store.tables().llmCalls().insert(i, new LlmCall(LlmCall.Purpose.MAIN,
                        Instant.parse("2026-01-02T10:00:0" + i + "Z"), "test-model", llm.baseUrl(), 8_000, 6_000, 200,
                        false, 900, LlmCall.Outcome.OK, ""));
            }
        }

        assertThat(agent("/help\n/budget\n/quit\n")).isZero();

        assertThat(terminal()).contains("/budget [N|+N]")
                .contains("this task's budget: spent, cached share, calls left; /budget +N or /budget N raises it")
                .contains("spent   400,000 of 1,000,000 tokens (40 %)\n")
                .contains("cached  75 % of the task's prompt tokens read from the provider's cache (counted a tenth)\n")
                .contains("calls   4 calls in this task; about 6 more calls at this rate\n")
                .contains("raise   /budget +N adds N tokens to this task, /budget N makes its budget N");
        assertThat(llm.requestCount()).isZero();
    }

    @Test
    void budget_plus_n_releases_a_budget_stop_as_the_unlock_does_and_the_task_goes_on() {
        try (Store store = Store.open(db, Clock.systemUTC())) {
            new SqlFile(db).exec("UPDATE safety_counters SET task_tokens = 1000000");
            new SafetyMonitor(store, new SafetyMonitor.Limits(1_000_000, 50, SafetyRules.Limits.DEFAULTS),
                    Guides.byName("learning"), r -> { }, l -> { }).beforeLlmCall(0);
        }
        assertThat(row("SELECT state || ' ' || reason FROM safety_state")).isEqualTo("STOPPED budget");

        assertThat(agent("/budget +50,000\n/quit\n")).isZero();

        assertThat(terminal()).contains("budget raised: 1,000,000 → 1,050,000 tokens for this task; STOPPED(budget)"
                + " released: ACTIVE again, the task goes on");
        assertThat(row("SELECT state FROM safety_state")).isEqualTo("ACTIVE");
        assertThat(row("SELECT extra_budget || ' ' || task_tokens FROM safety_counters")).isEqualTo("50000 1000000");
        assertThat(row("SELECT event || ' ' || from_state || ' ' || to_state || ': ' || detail FROM safety_audit"
                + " ORDER BY id DESC LIMIT 1")).isEqualTo("unlock STOPPED(budget) ACTIVE: +50000 tokens (--add-budget):"
                + " /budget in the REPL");
    }

    @Test
    void budget_n_raises_it_in_place_while_active_and_what_raises_nothing_is_told_how() {
        assertThat(agent("/budget 1200000\n/budget 900000\n/budget lots\n/quit\n")).isZero();

        assertThat(terminal()).contains("budget raised: 1,000,000 → 1,200,000 tokens for this task\n")
                .contains("/budget: 900000 does not raise the task's budget of 1,200,000 tokens; /budget +N adds N"
                        + " tokens to this task, /budget N makes its budget N")
                .contains("/budget: \"lots\" is not a number of tokens; /budget +N adds N tokens");
        assertThat(row("SELECT state FROM safety_state")).isEqualTo("ACTIVE");
        assertThat(row("SELECT extra_budget FROM safety_counters")).isEqualTo("200000");
        assertThat(row("SELECT event || ' ' || from_state || ' ' || to_state || ': ' || detail FROM safety_audit"
                + " ORDER BY id DESC LIMIT 1")).isEqualTo("add_budget ACTIVE ACTIVE: +200000 tokens (--add-budget):"
                + " /budget in the REPL");
        assertThat(llm.requestCount()).isZero();
    }
}

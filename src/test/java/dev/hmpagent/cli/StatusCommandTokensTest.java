package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.LlmCall;
import dev.hmpagent.store.LlmCall.Outcome;
import dev.hmpagent.store.LlmCall.Purpose;
import dev.hmpagent.store.LlmCallsDao;
import dev.hmpagent.store.RunnerLock;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.TickRecord;
import dev.hmpagent.testing.MutableClock;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** {@code agent status}: tokens by model this session (the runner's) and lifetime, in text and JSON. */
class StatusCommandTokensTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-25T10:00:00Z");
    Path db;
    Path toml;

    /** Tick 1 in an earlier run; the runner that holds the file started at 11:00, and ticks 2 and 3 are its. */
    void file(boolean runner) throws Exception {
        db = dir.resolve("agent.db");
        toml = dir.resolve("agent.toml");
        Files.writeString(toml, "[llm]\nmodel = \"gpt-main\"\n");
        try (Store store = Store.open(db, clock)) {
            LlmCallsDao calls = new LlmCallsDao(store);
            AgentLogDao log = new AgentLogDao(store);
            calls.insert(1, call(Purpose.MAIN, "2026-11-25T10:00:00Z", "gpt-main", 1_000, 0, 100));
            log.insert(new TickRecord(1, Instant.parse("2026-11-25T10:00:00Z"), Instant.parse("2026-11-25T10:00:02Z"),
                    "thought", "new message", true, 1_000, 100, 0, 0, false, null));
            clock.advance(Duration.ofHours(1));
            if (runner) new RunnerLock(store, 4242, "elsewhere", p -> true, Duration.ofSeconds(30)).acquire();
            calls.insert(2, call(Purpose.MAIN, "2026-11-25T11:00:01Z", "gpt-main", 12_000, 10_240, 300));
            calls.insert(2, call(Purpose.COMPARISON, "2026-11-25T11:00:02Z", "judge-mini", 700, 0, 20));
            calls.insert(3, call(Purpose.MAIN, "2026-11-25T11:01:00Z", "gpt-main", 12_500, 12_288, 250));
            log.insert(new TickRecord(3, Instant.parse("2026-11-25T11:01:00Z"), Instant.parse("2026-11-25T11:01:03Z"),
                    "thought", "new message", true, 12_500, 250, 0, 0, false, null));
        }
    }

    static LlmCall call(Purpose purpose, String at, String model, int prompt, int cached, int completion) {
        return new LlmCall(purpose, Instant.parse(at), model, "https://api.example.com/v1", prompt, cached, completion,
                false, 800, Outcome.OK, "");
    }

    CliRun status(String... more) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Launch launch = new Launch(Map.of("HOME", dir.toString()), () -> new DumbTerminal(
                new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()),
                java.time.Clock.fixed(Instant.parse("2026-11-25T11:02:00Z"), java.time.ZoneOffset.UTC), false);
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> args = new ArrayList<>(List.of("status", "--db", db.toString(), "--config", toml.toString()));
        args.addAll(List.of(more));
        return new CliRun(cl.execute(args.toArray(String[]::new)), out.toString(), err.toString());
    }

    @Test
    void the_text_names_each_models_tokens_this_session_and_lifetime_cached_apart() throws Exception {
        file(true);
        CliRun run = status();
        assertThat(run.code()).as(run.err()).isZero();
        assertThat(run.out()).contains("""
                session: gpt-main    24.5k in (22.5k cached) · 550 out · 2 calls
                session: judge-mini  700 in · 20 out · 1 call
                lifetime: gpt-main    25.5k in (22.5k cached) · 650 out · 3 calls
                lifetime: judge-mini  700 in · 20 out · 1 call
                pending notes: 0""");
    }

    @Test
    void with_no_runner_there_is_no_session_only_the_lifetime() throws Exception {
        file(false);
        CliRun run = status();
        assertThat(run.out()).doesNotContain("session:").contains("lifetime: gpt-main    25.5k in (22.5k cached)");
        JsonNode byModel = new ObjectMapper().readTree(status("--json").out()).path("tokens_by_model");
        assertThat(byModel.path("session").isNull()).isTrue();
        assertThat(byModel.path("lifetime")).hasSize(2);
    }

    @Test
    void the_json_gives_exact_counts_by_model() throws Exception {
        file(true);
        JsonNode s = new ObjectMapper().readTree(status("--json").out());
        JsonNode byModel = s.path("tokens_by_model");
        assertThat(byModel.path("session").toString()).isEqualTo("[{\"model\":\"gpt-main\",\"calls\":2,"
                + "\"prompt_tokens\":24500,\"cached_tokens\":22528,\"completion_tokens\":550,\"cost_usd\":null},{\"model\":\"judge-mini\","
                + "\"calls\":1,\"prompt_tokens\":700,\"cached_tokens\":0,\"completion_tokens\":20,\"cost_usd\":null}]");
        assertThat(byModel.path("lifetime").get(0).path("prompt_tokens").asLong()).isEqualTo(25_500);
        assertThat(s.path("tokens_used").asLong()).as("agent_log's figure is unchanged").isEqualTo(13_850);
    }

    @Test
    void prices_in_agent_toml_give_the_cost_by_model_with_cached_tokens_at_their_own_price() throws Exception {
        file(true);
        Files.writeString(toml, "[llm]\nmodel = \"gpt-main\"\n"
                + "prices = [{ model = \"gpt-main\", input = 2.0, cached_input = 0.5, output = 8.0 }]\n");

        CliRun run = status();
        // session: (24500 - 22528) * 2 + 22528 * 0.5 + 550 * 8 per million = 0.019608 dollars
        assertThat(run.out()).contains("session: gpt-main    24.5k in (22.5k cached) · 550 out · 2 calls · $0.0196")
                .contains("no price for judge-mini");
        JsonNode s = new ObjectMapper().readTree(status("--json").out()).path("tokens_by_model");
        assertThat(s.path("session").get(0).path("cost_usd").asDouble()).isCloseTo(0.019608, within(1e-9));
        assertThat(s.path("session").get(1).path("cost_usd").isNull()).isTrue();
    }
}

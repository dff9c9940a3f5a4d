package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.ConfigLoader;
import dev.hmpagent.config.ConfigSources;
import dev.hmpagent.cycle.TickLoop;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.runtime.AgentRuntime;
import dev.hmpagent.runtime.Launch;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.safety.Guides;
import dev.hmpagent.safety.SafetyMonitor;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeOpenAiServer;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.SqlFile;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * The reflex's rest seen from outside, on a real file and a fake clock: {@code agent status} exits 7 and says why and
 * until when; {@code agent run --exit-on-lockout} waits a rest out (it ends by itself) and thinks again at its end;
 * a message piped to a resting agent ends the rest and is answered.
 */
@Timeout(60)
class RestEndToEndTest {
    static final String WHY = "anti-stagnation reflex, after tick 12: Radical pause for 10 min";

    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-27T09:00:00Z");
    final ByteArrayOutputStream stdout = new ByteArrayOutputStream();
    FakeOpenAiServer llm;
    Path db;
    Path config;
    Instant until;
    final List<String> alerts = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        llm = new FakeOpenAiServer();
        db = dir.resolve("agent.db");
        config = dir.resolve("agent.toml");
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n");
        until = clock.instant().plus(Duration.ofMinutes(10));
        try (Store store = Store.open(db, clock)) {
            // the rest as the reflex begins it: through the monitor, in a transaction, told once it committed
            SafetyMonitor monitor = new SafetyMonitor(store, SafetyMonitor.Limits.DEFAULTS, Guides.byName("safety"),
                    alerts::add, line -> { });
            store.inTransaction(() -> monitor.rest(until, WHY));
            monitor.flush();
        }
    }

    @AfterEach
    void stop() {
        llm.close();
    }

    record Run(int code, String out, String err) { }

    Run cli(String input, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Launch launch = new Launch(Map.of("HOME", dir.toString(), "TZ", "America/New_York"),
                () -> new DumbTerminal(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)), stdout),
                clock, false);
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--config", config.toString(), "--db", db.toString(), "--base-url", llm.baseUrl()));
        return new Run(cl.execute(all.toArray(String[]::new)), out.toString(), err.toString());
    }

    List<String> rows(String sql) {
        return new SqlFile(db).rows(sql);
    }

    @Test
    void status_exits_7_and_says_why_and_until_when_and_the_alert_command_heard_of_the_rest() {
        Run status = cli("", "status");

        assertThat(status.code()).as(status.err()).isEqualTo(ExitCodes.STOPPED);
        // a person's lines: local (New York) and short; the JSON keeps UTC
        String local = java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss")
                .format(until.atZone(java.time.ZoneId.of("America/New_York")));
        assertThat(status.out()).contains("RESTING until " + local).contains(WHY)
                .contains("the agent thinks again at " + local);
        Run json = cli("", "status", "--json");
        assertThat(json.code()).isEqualTo(ExitCodes.STOPPED);
        assertThat(json.out()).contains("\"safety_state\":\"RESTING\"").contains("\"until\":\"" + until + "\"");
        assertThat(alerts).singleElement().asString().startsWith("RESTING: " + WHY).endsWith("until " + until);
        assertThat(rows("SELECT event || ' ' || to_state FROM safety_audit")).containsExactly("rest RESTING");
    }

    @Test
    void run_exit_on_lockout_waits_a_rest_out_and_thinks_again_when_it_ends() {
        Run resting = cli("", "run", "--exit-on-lockout", "--hz", "50", "--max-ticks", "5");

        assertThat(resting.code()).as("a rest ends by itself: no exit 7 for it; " + resting.err()).isZero();
        assertThat(llm.requestCount()).isZero();
        assertThat(rows("SELECT state FROM safety_state")).containsExactly("RESTING");

        clock.advance(Duration.ofMinutes(10));
        llm.streamed("Back from the rest with a fresh look.", 50, 8);
        Run after = cli("", "run", "--exit-on-lockout", "--hz", "50", "--max-ticks", "5");

        assertThat(after.code()).as(after.err()).isZero();
        assertThat(llm.requestCount()).as("the rest's end wakes the LLM once").isEqualTo(1);
        assertThat(rows("SELECT state FROM safety_state")).containsExactly("ACTIVE");
        assertThat(rows("SELECT event || ': ' || detail FROM safety_audit ORDER BY id DESC LIMIT 1"))
                .containsExactly("rest_end: the rest ended: its time is up");
    }

    @Test
    void a_message_piped_to_a_resting_agent_ends_the_rest_and_is_answered_exit_0() {
        llm.streamed(AgentInTerminalEndToEndTest.reply("The person pings me.", "pong"), 50, 8);

        Run piped = cli("ping\n");

        assertThat(piped.code()).as(piped.err()).isZero();
        assertThat(stdout.toString(StandardCharsets.UTF_8)).contains("pong");
        assertThat(rows("SELECT state FROM safety_state")).containsExactly("ACTIVE");
        assertThat(rows("SELECT event || ': ' || detail FROM safety_audit ORDER BY id DESC LIMIT 1"))
                .containsExactly("rest_end: the rest ended: a message from a person");
    }

    @Test
    void piped_input_exits_7_for_a_rest_only_while_a_persons_message_waits_unread_under_it() {
        Map<String, String> env = Map.of("AGENT_AGENT_DB", db.toString(), "AGENT_SANDBOX_MODE", "off",
                "AGENT_LLM_MODEL", "test-model");
        AgentConfig config = ConfigLoader.load(ConfigSources.envOnly(env)).config();
        Launch launch = new Launch(env, () -> { throw new AssertionError("no terminal"); }, clock, false,
                section -> new FakeLlmClient());
        try (AgentRuntime runtime = AgentRuntime.start(config, launch, EventSink.DISCARD)) {
            // the rest began after the person was answered: nobody waits, the input is done
            assertThat(AgentCommand.exitCode(TickLoop.End.STOPPED, runtime, false)).isEqualTo(ExitCodes.OK);

            try (Store store = runtime.connectAgain()) {
                store.tables().notes().add("are you there?", "user", 0, null);
            }
            // a message a rest left unread when the input ended: not answered, so not a success
            assertThat(AgentCommand.exitCode(TickLoop.End.STOPPED, runtime, false)).isEqualTo(ExitCodes.STOPPED);
        }
    }
}

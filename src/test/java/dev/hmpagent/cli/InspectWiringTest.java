package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.config.LoadedConfig;
import dev.hmpagent.repl.Inspect;
import dev.hmpagent.repl.ModelChoice;
import dev.hmpagent.repl.SlashCommands;
import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.ResponsesDao;
import dev.hmpagent.store.SettingsDao;
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
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** /log and /config, wired as the REPL wires them, show exactly the lines {@code agent log} and {@code agent config} print. */
class InspectWiringTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-24T10:00:00Z");

    @Test
    void log_and_config_show_the_lines_agent_log_and_agent_config_print() throws Exception {
        Path db = dir.resolve("agent.db");
        Path toml = dir.resolve("agent.toml");
        Files.writeString(toml, "[llm]\nmodel = \"test-model\"\napi_key = \"sk-very-secret\"\n");
        Map<String, String> env = Map.of("HOME", dir.toString());
        try (Store store = Store.open(db, clock)) {
            AgentLogDao log = new AgentLogDao(store);
            ResponsesDao replies = new ResponsesDao(store);
            Instant t = clock.instant();
            for (int i = 1; i <= 4; i++) {
                log.insert(new TickRecord(i, t.plusSeconds(i), t.plusSeconds(i + 1), "thought", "new message", true,
                        800 + i, 90, 1, i % 2, i == 3, null));
                replies.add(i, "Reply " + i + "\u001b[31m in red\nsecond line", null, null, 800 + i, 90, false, false,
                        false, "test-model");
            }
            new SettingsDao(store).putAtTick("history_k", "7", 3);
        }
        CommonOptions options = new CommonOptions();
        options.db = db;
        options.config = toml;
        LoadedConfig loaded = options.load(env);

        try (Store replStore = Store.open(db, clock)) {
            SlashCommands commands = new SlashCommands();
            new Inspect(replStore, ZoneOffset.UTC, 0, java.time.Instant.EPOCH, new Inspect.Budgets(100_000, 0), new NoModels(),
                    () -> ConfigCommand.lines(loaded, clock), new TickLines()::line).commands().forEach(commands::add);

            assertThat(commands.run("/log 3")).isEqualTo(agent(env, toml, db, "log", "-n", "3"))
                    .contains("tick 2").doesNotContain("tick 1 ").doesNotContain("\u001b");
            assertThat(commands.run("/config")).isEqualTo(agent(env, toml, db, "config"))
                    .contains("test-model").contains("set by the LLM at tick 3").doesNotContain("sk-very-secret");
        }
    }

    /** What {@code agent --config toml --db db args…} prints, without the last newline. */
    String agent(Map<String, String> env, Path toml, Path db, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Launch launch = new Launch(env, () -> new DumbTerminal(new ByteArrayInputStream(new byte[0]),
                new ByteArrayOutputStream()), clock, false);
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of("--config", toml.toString(), "--db", db.toString()));
        all.addAll(List.of(args));
        assertThat(cl.execute(all.toArray(String[]::new))).as(err.toString()).isZero();
        return out.toString().stripTrailing().replace(System.lineSeparator(), "\n");
    }

    /** /model is not what this test looks at. */
    static final class NoModels implements ModelChoice {
        @Override
        public String current() { return "none"; }

        @Override
        public List<Choice> choices() { return List.of(); }

        @Override
        public String use(String id) { throw new IllegalArgumentException("no models here"); }

        @Override
        public String useModel(String name) { throw new IllegalArgumentException("no models here"); }

        @Override
        public List<String> offered(java.time.Duration wait) { return List.of(); }
    }
}

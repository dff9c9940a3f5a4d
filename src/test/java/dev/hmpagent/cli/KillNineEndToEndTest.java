package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeOpenAiServer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** A real `agent run` process killed with SIGKILL in the middle of a tick, then restarted. */
@Timeout(120)
class KillNineEndToEndTest {
    static final String REPLY = "Noted." + "\n# Commands:\n[{\"type\": \"diary_entry\", \"args\": {\"text\": \"d\"}}, "
            + "{\"type\": \"send_message\", \"args\": {\"text\": \"done\"}}]";

    @TempDir Path dir;
    FakeOpenAiServer llm;
    Path db;

    @BeforeEach
    void start() throws Exception {
        llm = new FakeOpenAiServer();
        db = dir.resolve("agent.db");
        Files.writeString(dir.resolve("agent.toml"), "[llm]\nmodel = \"test-model\"\n");
        Store.open(db, Clock.systemUTC()).close();
    }

    @AfterEach
    void stop() {
        llm.close();
    }

    Process agent(String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), Main.class.getName()));
        cmd.addAll(List.of(args));
        cmd.addAll(List.of("--config", dir.resolve("agent.toml").toString(), "--db", db.toString(),
                "--base-url", llm.baseUrl()));
        return new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("out-" + System.nanoTime() + ".txt").toFile()).start();
    }

    long count(String sql) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); ResultSet rs = c.createStatement().executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : 0;
        }
    }

    @Test
    void kill_9_mid_tick_then_restart_loses_no_acknowledged_note_and_tick_ids_continue() throws Exception {
        // one tick lands whole first: the reply (its commands only had effects, so nothing wakes the LLM again)
        llm.streamed(REPLY, 5, 5);
        assertThat(agent("note", "one").waitFor()).isZero();
        Process first = agent("run", "--until-idle");
        assertThat(first.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(first.exitValue()).isZero();
        llm.take();
        long ticksBefore = count("SELECT max(tick_id) FROM agent_log");
        assertThat(ticksBefore).isEqualTo(1);

        // the second is killed while its LLM call is in flight
        CountDownLatch hungUp = new CountDownLatch(1);
        llm.slowUntilClientCloses("Half a thought", hungUp);
        assertThat(agent("note", "three").waitFor()).isZero();
        Process victim = agent("run", "--hz", "20");
        llm.take();
        victim.destroyForcibly();   // SIGKILL: no hook, no cleanup
        assertThat(victim.waitFor(30, TimeUnit.SECONDS)).isTrue();
        assertThat(hungUp.await(10, TimeUnit.SECONDS)).isTrue();

        assertThat(count("SELECT count(*) FROM notes WHERE source = 'cli'")).as("no acknowledged note lost").isEqualTo(2);
        assertThat(count("SELECT count(*) FROM notes WHERE text = 'three' AND read = 0")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM llm_recent_responses WHERE tick_id > 1")).as("no half-written tick")
                .isZero();

        // restarted (the dead runner's lock is taken over): the note is answered, with the next tick id
        llm.streamed(REPLY, 5, 5);
        Process again = agent("run", "--until-idle");
        assertThat(again.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(again.exitValue()).isZero();
        assertThat(count("SELECT min(tick_id) FROM agent_log WHERE tick_id > 1")).isEqualTo(2);
        assertThat(count("SELECT count(*) FROM notes WHERE text = 'three' AND read = 1")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM diary_entries")).isEqualTo(count("SELECT count(*) FROM process_log "
                + "WHERE name = 'diary_entry' AND status IN ('ok', 'close')"));
    }
}

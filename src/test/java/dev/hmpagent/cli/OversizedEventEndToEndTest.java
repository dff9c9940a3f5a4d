package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.FakeOpenAiServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * Issue 20 item 5: a reply that sends one stream event over 1 MB was retried six times as an outage and the agent
 * exited 6 with the note unread, although the server answered each time. Now the part that fits is the reply, the
 * person is told in one line, and the note is answered. A real agent, piped, against a scripted LLM over a socket.
 */
@Timeout(60)
class OversizedEventEndToEndTest {
    @TempDir Path dir;
    FakeOpenAiServer llm;
    Path db;
    Path config;
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();

    @BeforeEach
    void start() throws IOException {
        llm = new FakeOpenAiServer();
        db = dir.resolve("agent.db");
        config = dir.resolve("agent.toml");
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n");
    }

    @AfterEach
    void stop() {
        llm.close();
    }

    int agent(String... args) {
        out = new StringWriter();
        err = new StringWriter();
        Launch launch = new Launch(Map.of("HOME", dir.toString(), "OPENAI_API_KEY", "k"),
                () -> new DumbTerminal(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()),
                Clock.systemUTC(), false);
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of("--config", config.toString(), "--db", db.toString()));
        all.addAll(List.of(args));
        return cl.execute(all.toArray(String[]::new));
    }

    List<String> column(String sql) throws Exception {
        List<String> values = new ArrayList<>();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); ResultSet rs = c.createStatement().executeQuery(sql)) {
            while (rs.next()) values.add(rs.getString(1));
        }
        return values;
    }

    /** 1.2 MB of lowercase words that never repeat a stretch (so no repetition detector cuts it first). */
    static String largeReply() {
        Random random = new Random(20);
        StringBuilder text = new StringBuilder("Here is my long answer. ");
        while (text.length() < 1_200_000) {
            int length = 2 + random.nextInt(8);
            for (int i = 0; i < length; i++) text.append((char) ('a' + random.nextInt(26)));
            text.append(' ');
        }
        return text.toString();
    }

    @Test
    void one_event_over_1_mb_is_answered_once_cut_to_what_fits_and_the_person_is_told() throws Exception {
        String reply = largeReply();
        llm.oneEvent(reply);

        assertThat(agent("note", "tell me everything")).as(err.toString()).isZero();
        int exit = agent("run", "--until-idle", "--hz", "20", "--base-url", llm.baseUrl());
        String printed = out.toString() + err;

        assertThat(exit).as(printed).isZero();
        assertThat(llm.requestCount()).as("no retry: the server answered").isEqualTo(1);
        assertThat(printed).doesNotContain("unreachable");
        assertThat(printed.lines().filter(l -> l.contains("over 1 MB"))).as(printed).hasSize(1);
        assertThat(column("SELECT count(*) FROM notes WHERE read = 0")).containsExactly("0");
        String stored = column("SELECT content FROM llm_recent_responses ORDER BY id").get(0);
        assertThat(stored.length()).isBetween(1024 * 1024 - 200, 1024 * 1024);
        assertThat(reply).startsWith(stored);
    }
}

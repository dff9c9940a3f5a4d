package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.safety.FailureFact;
import dev.hmpagent.safety.Guides;
import dev.hmpagent.safety.SafetyRules;
import dev.hmpagent.store.LlmCall;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessStatus;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code agent log --export-trace}: a recorded task as trace lines, the world's results without the monitor's words. */
class ExportTraceCommandTest {
    @TempDir Path dir;
    Path db;
    Path config;
    /** The configured API key, which a person pasted into their message. */
    static final String KEY = "s3cr3t-value-0123456789";

    @BeforeEach
    void record() throws IOException {
        db = dir.resolve("agent.db");
        config = Files.writeString(dir.resolve("agent.toml"), "");
        try (Store store = Store.open(db, MutableClock.at("2026-11-29T10:00:00Z"))) {
            long note = store.tables().notes().add("Find the port. The key is " + KEY + ".", "user", 0, null);
            store.tables().notes().markRead(List.of(note), 1);
            store.tables().llmCalls().insert(1, new LlmCall(LlmCall.Purpose.MAIN,
                    Instant.parse("2026-11-29T10:00:01Z"), "m", "https://api.example.com/v1", 4600, 4000, 50, false, 900,
                    LlmCall.Outcome.OK, ""));
            store.tables().responses().add(1, "Reading it.", null, null, 4600, 50, false, false, false, "m");
            ProcessLogDao log = store.tables().processLog();
            long read = log.enqueue(1, "file_read", "c-1", "{\"cmd_id\":\"c-1\",\"type\":\"file_read\",\"args\":"
                    + "{\"path\":\"settings.cfg\"}}", "fp");
            String shown = SafetyRules.REPEAT_ALERT + "\n" + Guides.byName("learning").explain(
                    FailureFact.command("file_read", "fp", "ENOENT", "no such file: settings.cfg"), 3);
            log.finish(read, new ProcessLogDao.Finished(ProcessStatus.ERROR, shown, "ENOENT", "medium", 0.5, null, true));
            long echo = log.enqueue(1, "shell", "c-2", "{\"cmd_id\":\"c-2\",\"type\":\"shell\",\"args\":{\"command\":"
                    + "\"echo hi\"}}", "fp2");
            log.finish(echo, new ProcessLogDao.Finished(ProcessStatus.OK, "exit 0 after 0.1 s\nhi", null, null, 0, null,
                    true));
        }
    }

    private CliRun agent(String... args) {
        List<String> all = new java.util.ArrayList<>(List.of(args));
        all.addAll(List.of("--db", db.toString(), "--config", config.toString()));
        return CliRun.agent(Map.of("HOME", dir.toString(), "OPENAI_API_KEY", KEY), cl -> { }, all.toArray(String[]::new));
    }

    @Test
    void the_latest_task_is_written_as_a_header_the_persons_message_and_one_line_per_reply_never_a_key() {
        CliRun run = agent("log", "--export-trace");

        assertThat(run.err()).isEmpty();
        assertThat(run.out().lines()).containsExactly(
                "{\"trace\":\"hmp-agent\",\"version\":1,\"source\":\"agent.db\",\"task\":1}",
                "{\"person\":\"Find the port. The key is [redacted].\"}",
                "{\"step\":1,\"at\":\"2026-11-29T10:00:01Z\",\"reply\":\"Reading it.\",\"tokens\":{\"prompt\":4600,"
                        + "\"cached\":4000,\"completion\":50},\"commands\":[{\"type\":\"file_read\",\"args\":{\"path\":"
                        + "\"settings.cfg\"},\"status\":\"error\",\"code\":\"ENOENT\",\"output\":\"no such file:"
                        + " settings.cfg\"},{\"type\":\"shell\",\"args\":{\"command\":\"echo hi\"},\"status\":\"ok\","
                        + "\"output\":\"exit 0 after 0.1 s\\nhi\"}]}",
                // its results wake the agent: it asked for another call
                "{\"next_call\":true}");
        assertThat(run.code()).isZero();
    }

    @Test
    void a_task_that_is_not_there_names_the_ones_that_are_and_task_alone_is_a_usage_error() {
        CliRun missing = agent("log", "--export-trace", "--task", "2");
        assertThat(missing.code()).isEqualTo(ExitCodes.DATABASE);
        assertThat(missing.err()).isEqualTo("agent: there is no task 2 in " + db + " (tasks run from 1 to 1)\n");

        CliRun alone = agent("log", "--task", "1");
        assertThat(alone.code()).isEqualTo(ExitCodes.USAGE);
        assertThat(alone.err()).contains("--task N goes with --export-trace");
    }
}

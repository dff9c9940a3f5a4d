package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.hmpagent.testing.AgentJvm;
import dev.hmpagent.testing.FakeOpenAiServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * What the commands of one task may add to the file roots (issue 31: before, 20,000 files of 458 MB filled a root,
 * capped per file only), through a real headless {@code agent run} with a scripted model and
 * {@code sandbox.task_max_bytes = 1 MiB}, {@code task_max_files = 100}: past either, the next command is refused
 * (EDQUOT) saying what was added and what to do, and a command still writing is stopped while it runs.
 */
@Timeout(120)
class WriteQuotaEndToEndTest {
    Path dir;
    Path root;
    Path db;
    Path config;
    FakeOpenAiServer llm;
    String output;
    final Map<String, String> rows = new LinkedHashMap<>();

    @BeforeEach
    void setUp() throws IOException {
        dir = Files.createTempDirectory("hmp-quota-");
        root = Files.createDirectories(dir.resolve("workspace"));
        Files.write(root.resolve("before.bin"), new byte[3 << 20]);
        db = dir.resolve("state").resolve("agent.db");
        Files.createDirectories(db.getParent());
        config = dir.resolve("agent.toml");
        Files.writeString(config, """
                [llm]
                model = "m"
                api_key = "sk-quota-test-0123456789"
                [policy]
                shell_allow = ["*"]
                [files]
                roots = ["%s"]
                [shell]
                timeout_s = 60
                [sandbox]
                task_max_bytes = 1048576
                task_max_files = 100
                [stagnation]
                method = "local"
                reflex = false
                """.formatted(root));
        llm = new FakeOpenAiServer();
    }

    @AfterEach
    void tearDown() throws IOException {
        llm.close();
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    @Test
    void past_the_files_of_a_task_the_next_command_is_refused_and_what_was_there_before_never_counted()
            throws Exception {
        run(reply("q-many", "mkdir many && cd many && for i in $(seq 1 150); do : > f$i; done; echo made"),
                reply("q-next", "echo more > more.txt; echo next-done"));

        assertThat(rows.get("q-many")).startsWith("ok: ").contains("made");
        assertThat(rows.get("q-next")).startsWith("error EDQUOT: ")
                .contains("shell refused: this task's commands have added 0 bytes and 151 files to the file roots, over"
                        + " sandbox.task_max_files (100)")
                .contains("a person's next message starts a new task");
        assertThat(root.resolve("more.txt")).doesNotExist();
    }

    @Test
    void a_command_that_keeps_writing_is_stopped_while_it_runs() throws Exception {
        run(reply("q-fill", "for i in $(seq 1 400); do head -c 65536 /dev/zero > big$i; sleep 0.02; done;"
                + " echo filled"));

        assertThat(rows.get("q-fill")).startsWith("error EDQUOT: ")
                .contains("stopped over the task's write quota: this task's commands have added")
                .contains("over sandbox.task_max_bytes (1.0 MiB)").doesNotContain("filled");
        try (var files = Files.list(root)) {
            assertThat(files.filter(p -> p.getFileName().toString().startsWith("big")).count())
                    .as("stopped long before the 400th file").isLessThan(300);
        }
    }

    static String reply(String id, String command) {
        ArrayNode commands = new ObjectMapper().createArrayNode();
        var c = commands.addObject();
        c.put("cmd_id", id);
        c.put("type", "shell");
        c.putObject("args").put("command", command);
        return "Working.\n# Commands:\n" + commands + "\n# End commands";
    }

    void run(String... replies) throws Exception {
        for (String r : replies) llm.streamed(r, 100, 20);
        for (int i = 0; i < 20; i++) llm.streamed("Waiting, round " + i + ".", 10, 5);
        AgentJvm jvm = new AgentJvm(config, db, llm.baseUrl(), root, dir);
        Process note = jvm.start("note", "go");
        assertThat(note.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(note.exitValue()).as(AgentJvm.read(note)).isZero();
        Process run = jvm.start("run", "--until-idle", "--hz", "20");
        assertThat(run.waitFor(100, TimeUnit.SECONDS)).as("the agent finished").isTrue();
        output = AgentJvm.read(run);
        assertThat(run.exitValue()).as(output).isZero();
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
             ResultSet rs = c.createStatement().executeQuery("SELECT cmd_id, status, error_code, result"
                     + " FROM process_log WHERE cmd_id LIKE 'q-%'")) {
            while (rs.next()) {
                rows.put(rs.getString(1), rs.getString(2) + (rs.getString(3) == null ? "" : " " + rs.getString(3))
                        + ": " + rs.getString(4));
            }
        }
    }

}

package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;

import dev.hmpagent.testing.AgentJvm;
import dev.hmpagent.testing.Bwrap;
import dev.hmpagent.testing.FakeOpenAiServer;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.Timeout;

/**
 * An agent run as root (a container, a CI box, a root shell) whose LLM tries what a root child could do inside
 * bubblewrap before issue 31: write a sysctl (the kernel runs {@code core_pattern}'s program as the host's root,
 * outside every namespace), read {@code /etc/shadow} and host keys. Through a real headless {@code agent run} with a
 * scripted model, as root; skipped, saying why, when not root (the unprivileged case is {@link
 * SandboxAttacksEndToEndTest}'s). No attack here can harm the machine if it got through: each sysctl is written with
 * the value it already has, and the sysrq trigger is only tested for writing.
 */
@Timeout(180)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RootContainmentEndToEndTest {
    Path dir;
    Path root;
    Path db;
    FakeOpenAiServer llm;
    int exitCode;
    String output;
    final Map<String, String> results = new LinkedHashMap<>();

    @BeforeAll
    void attack() throws Exception {
        Assumptions.assumeTrue(Bwrap.root(), "skipped: these attacks are on an agent running as root");
        Bwrap.required();
        dir = Files.createTempDirectory("hmp-root-");
        root = Files.createDirectories(dir.resolve("workspace"));
        Files.writeString(root.resolve("notes.txt"), "root's file\n");
        db = dir.resolve("state").resolve("agent.db");
        Files.createDirectories(db.getParent());
        Path config = dir.resolve("agent.toml");
        Files.writeString(config, """
                [llm]
                model = "m"
                api_key = "sk-root-containment-0123456789"
                [policy]
                shell_allow = ["*"]
                [shell]
                max_processes = 8
                [files]
                roots = ["%s"]
                [stagnation]
                method = "local"
                reflex = false
                """.formatted(root));
        llm = new FakeOpenAiServer();
        AgentJvm jvm = new AgentJvm(config, db, llm.baseUrl(), root, dir);
        llm.streamed(reply(), 100, 100);
        for (int i = 0; i < 20; i++) llm.streamed("Done looking, round " + i + ".", 10, 5);
        Process note = jvm.start("note", "go");
        assertThat(note.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(note.exitValue()).as(AgentJvm.read(note)).isZero();
        Process run = jvm.start("run", "--until-idle", "--hz", "20", "--verbose");
        assertThat(run.waitFor(150, TimeUnit.SECONDS)).as("the agent finished").isTrue();
        exitCode = run.exitValue();
        output = AgentJvm.read(run);
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
             ResultSet rs = c.createStatement().executeQuery("SELECT cmd_id, status, result FROM process_log"
                     + " WHERE cmd_id LIKE 'r-%'")) {
            while (rs.next()) results.put(rs.getString(1), rs.getString(2) + ": " + rs.getString(3));
        }
    }

    @AfterAll
    void stop() throws IOException {
        if (llm != null) llm.close();
        if (dir != null) {
            try (var walk = Files.walk(dir)) {
                walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
            }
        }
    }

    static String reply() {
        ArrayNode commands = new ObjectMapper().createArrayNode();
        // every other command waits (at most 10 s) until r-setuid has listed its file: a command that ends takes the
        // set-user-ID bits off what was made in the root, so one ending between r-setuid's chmod and its ls hid them
        String afterListed = "for i in " + String.join(" ", java.util.Collections.nCopies(100, "x"))
                + "; do [ -e setuid-listed ] && break; sleep 0.1; done; ";
        shell(commands, "r-id", afterListed + "echo uid; id -u; echo gid; id -g; echo groups; id -G; grep CapEff /proc/self/status;"
                + " grep NoNewPrivs /proc/self/status; echo id-done");
        StringBuilder sysctl = new StringBuilder();
        for (String f : List.of("kernel/core_pattern", "kernel/modprobe", "kernel/core_uses_pid", "kernel/hostname")) {
            sysctl.append("cat /proc/sys/").append(f).append(" > /tmp/v && cat /tmp/v > /proc/sys/").append(f)
                    .append(" && echo WROTE ").append(f).append("; ");
        }
        shell(commands, "r-sysctl", afterListed + sysctl + "test -w /proc/sysrq-trigger && echo SYSRQ-WRITABLE; echo sysctl-done");
        StringBuilder secrets = new StringBuilder();
        for (Path f : rootOnlyFiles()) secrets.append("cat ").append(f).append(" > /dev/null && echo READABLE ").append(f)
                .append("; ");
        shell(commands, "r-secrets", afterListed + "cat /etc/shadow /etc/gshadow 2>&1 | head -c 400; " + secrets + "echo secrets-done");
        shell(commands, "r-work", afterListed + "echo made > made.txt && mkdir -p sub && echo deep > sub/deep.txt"
                + " && echo more >> notes.txt && sed -i 's/root/the/' notes.txt && echo work-done");
        shell(commands, "r-setuid", "cp /bin/sh rootsh && chmod 6755 rootsh && ls -ln rootsh && touch setuid-listed"
                + " && echo setuid-done");
        return "Let me see what root can reach.\n# Commands:\n" + commands + "\n# End commands";
    }

    /** Up to ten files under {@code /etc} that only root may read (shadow, host keys, ...). */
    static List<Path> rootOnlyFiles() {
        try (var walk = Files.walk(Path.of("/etc"), 3)) {
            return walk.filter(p -> Files.isRegularFile(p, java.nio.file.LinkOption.NOFOLLOW_LINKS)).filter(p -> {
                try {
                    var perms = Files.getPosixFilePermissions(p);
                    return !perms.contains(java.nio.file.attribute.PosixFilePermission.OTHERS_READ)
                            && Files.getAttribute(p, "unix:uid").equals(0);
                } catch (IOException e) {
                    return false;
                }
            }).limit(10).toList();
        } catch (IOException | java.io.UncheckedIOException e) {
            return List.of(Path.of("/etc/shadow"));
        }
    }

    static void shell(ArrayNode commands, String id, String line) {
        var c = commands.addObject();
        c.put("cmd_id", id);
        c.put("type", "shell");
        c.putObject("args").put("command", line);
    }

    String result(String cmdId) {
        assertThat(results).as("the attack %s ran and left a row; agent output:%n%s", cmdId, output).containsKey(cmdId);
        return results.get(cmdId);
    }

    @Test
    void the_agent_says_its_commands_run_as_nobody_and_ends_cleanly() {
        assertThat(exitCode).as(output).isZero();
        assertThat(output).contains("sandbox: bubblewrap").contains("as uid " + 65534 + " (nobody), not root");
    }

    @Test
    void a_command_runs_as_an_unprivileged_uid_with_no_capabilities_and_no_new_privileges() {
        assertThat(result("r-id")).contains("id-done").contains("uid\n65534\ngid\n65534\ngroups\n65534\n")
                .contains("CapEff:\t0000000000000000").contains("NoNewPrivs:\t1");
    }

    @Test
    void no_sysctl_can_be_written_and_the_sysrq_trigger_is_not_writable() {
        assertThat(result("r-sysctl")).contains("sysctl-done").doesNotContain("WROTE").doesNotContain("SYSRQ");
    }

    @Test
    void root_only_files_of_the_system_are_not_readable() {
        assertThat(result("r-secrets")).contains("secrets-done").contains("Permission denied")
                .doesNotContain("root:").doesNotContain("READABLE");
    }

    @Test
    void a_set_user_id_file_a_command_makes_in_a_root_loses_the_bit_when_the_command_ends() throws IOException {
        assertThat(result("r-setuid")).contains("setuid-done").contains("-rwsr-sr-x");
        // the commands run at once: the first to end after the chmod clears the bits and says so in its row
        assertThat(results.values()).as("one row says the bits were taken off").anySatisfy(r -> assertThat(r)
                .contains("the set-user-ID and set-group-ID bits were taken off 1 file they were set on while this"
                        + " command ran").contains("rootsh"));
        assertThat((Integer) Files.getAttribute(root.resolve("rootsh"), "unix:mode") & 07777).isEqualTo(0755);
        assertThat(Files.getAttribute(root.resolve("rootsh"), "unix:uid")).isEqualTo(0);
    }

    @Test
    void nothing_of_the_drop_is_left_on_the_host_no_mount_and_no_entry_in_its_stage() throws IOException {
        assertThat(Files.readString(Path.of("/proc/self/mountinfo"))).doesNotContain("hmp-agent-stage")
                .doesNotContain(root.toString()).doesNotContain("idmapped");
        try (var stage = Files.list(Path.of("/dev/shm"))) {
            assertThat(stage.map(p -> p.getFileName().toString())).noneMatch(n -> n.matches("\\d+"));
        }
    }

    @Test
    void it_still_works_in_roots_owned_by_root_and_what_it_makes_there_belongs_to_root() throws IOException {
        assertThat(result("r-work")).startsWith("ok").contains("work-done");
        assertThat(Files.readString(root.resolve("made.txt"))).isEqualTo("made\n");
        assertThat(Files.readString(root.resolve("sub/deep.txt"))).isEqualTo("deep\n");
        assertThat(Files.readString(root.resolve("notes.txt"))).isEqualTo("the's file\nmore\n");
        for (Path p : List.of(root.resolve("made.txt"), root.resolve("sub"), root.resolve("sub/deep.txt"),
                root.resolve("notes.txt"))) {
            assertThat(Files.getAttribute(p, "unix:uid")).as(p.toString()).isEqualTo(0);
            assertThat(Files.getAttribute(p, "unix:gid")).as(p.toString()).isEqualTo(0);
        }
    }
}

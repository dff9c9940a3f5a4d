package dev.hmpagent.commands.catalogue;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.CommandRegistry;
import dev.hmpagent.commands.SimpleCommand;
import dev.hmpagent.cycle.CallRows;
import dev.hmpagent.delegation.LlmTasks;
import dev.hmpagent.llm.MeteredLlm;
import dev.hmpagent.policy.ControlSurface;
import dev.hmpagent.policy.FileRoots;
import dev.hmpagent.process.ProcessRunner;
import dev.hmpagent.process.WriteQuota;
import dev.hmpagent.store.LlmCall;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link Catalogue#all}: every family of a run registered in one place, in the order context 0 and {@code help} show
 * them (the same list the composition root registered family by family before), the MCP family only when a server is
 * configured, and the servers' run-time tools found through the registry.
 */
class CatalogueAllTest {
    /** The families line of {@code help}, as a run without MCP servers showed it before the catalogue held them all. */
    private static final String FAMILIES = "command families: general (3), diary (7), notebook (llm_memory) (3),"
            + " notes (6), goals and tasks (10), cycle settings (3), concepts and links (10), cleanup (1),"
            + " strategies and ratings (4), scripts (5), tables (5), llm registry (2), identity (2), peers (6),"
            + " users (5), external services (8), processes (5), files (3), delegation (1).";

    @TempDir Path dir;
    private ProcessRunner processes;
    private FileRoots roots;
    private final MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");

    @BeforeEach
    void open() throws IOException {
        Path work = Files.createDirectories(dir.resolve("work"));
        roots = new FileRoots(List.of(work), ControlSurface.forDatabase(dir.resolve("agent.db"), List.of()), work);
        processes = new ProcessRunner(2, 4096, clock, Map.of("PATH", "/usr/bin:/bin"));
    }

    @AfterEach
    void close() {
        processes.stopAll("test over");
    }

    /** The tools of a test run: its runner and roots, no sandbox, a delegated LLM that is never asked. */
    static CatalogueTools tools(ProcessRunner processes, FileRoots roots, Clock clock, Path scripts,
                                CatalogueTools.ToolServers mcp) {
        LlmTasks tasks = new LlmTasks(() -> new MeteredLlm<>(new FakeLlmClient(), clock,
                CallRows.as(LlmCall.Purpose.TASK)), 0.7, 100);
        return new CatalogueTools(processes, roots, "no sandbox", WriteQuota.unlimited(), clock,
                new CatalogueTools.Limits(new ShellCommands.Limits(Duration.ofSeconds(30), Duration.ofSeconds(60), 100,
                        scripts), 10_000, 10_000, Duration.ofHours(1)), mcp, List.of(tasks), PeerLink.NONE);
    }

    @Test
    void every_family_is_registered_in_the_order_the_llm_sees_them() {
        CommandRegistry registry = Catalogue.all(CommandOptions.DEFAULTS,
                tools(processes, roots, clock, dir.resolve("scripts"), new Servers(false))).registry();

        assertThat(registry.families().lines().findFirst()).hasValue(FAMILIES);
        assertThat(registry.familyOf("shell")).hasValue("processes");
        assertThat(registry.familyOf("file_read")).hasValue("files");
        assertThat(registry.familyOf("idle")).hasValue("cycle settings");
        assertThat(registry.familyOf("llm_task")).hasValue("delegation");
        assertThat(registry.types()).startsWith(Catalogue.builtIn().types().toArray(String[]::new))
                .doesNotContain("mcp_search");
    }

    @Test
    void the_mcp_family_holds_its_search_command_when_a_server_is_configured_and_its_tools_are_found() {
        CommandRegistry none = Catalogue.all(CommandOptions.DEFAULTS,
                tools(processes, roots, clock, dir.resolve("scripts"), new Servers(false))).registry();
        CommandRegistry some = Catalogue.all(CommandOptions.DEFAULTS,
                tools(processes, roots, clock, dir.resolve("scripts"), new Servers(true))).registry();

        assertThat(none.families()).doesNotContain("mcp (");
        assertThat(none.find("mcp.fs.read_file").map(CommandHandler::type)).hasValue("mcp.fs.read_file");
        assertThat(some.families().lines().findFirst().orElseThrow()).endsWith("delegation (1), mcp (1).");
        assertThat(some.familyOf("mcp_search")).hasValue("mcp");
        assertThat(some.types()).endsWith("llm_task", "mcp_search");
    }

    /** MCP servers that offer one tool, {@code mcp.fs.read_file}, and a search command when {@code any}. */
    record Servers(boolean any) implements CatalogueTools.ToolServers {
        @Override
        public Optional<CommandHandler> find(String type) {
            return type.equals("mcp.fs.read_file") ? Optional.of(command(type)) : Optional.empty();
        }

        @Override
        public CommandHandler searchCommand() {
            return command("mcp_search");
        }

        private static CommandHandler command(String type) {
            return SimpleCommand.informing(type, "a tool of a test server", "{}", (args, ctx) -> CommandOutcome.ok("found"));
        }
    }
}

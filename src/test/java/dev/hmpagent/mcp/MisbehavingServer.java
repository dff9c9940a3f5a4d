package dev.hmpagent.mcp;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.commands.Args;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.ExternalCommand;
import dev.hmpagent.config.McpServerEntry;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.process.Confinement;
import dev.hmpagent.testing.McpReferenceServers;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

/**
 * {@code src/test/resources/mcp/misbehaving-server.cjs} (junk lines, a 50 MB result, a storm of list_changed, a death
 * mid-call) as the only server of an {@link McpServers}, started and settled, with the events it said.
 */
final class MisbehavingServer implements AutoCloseable {
    private static final ObjectMapper JSON = new ObjectMapper();

    final List<AgentEvent> events = new CopyOnWriteArrayList<>();
    final McpServers servers;

    /** Started with {@code args} (e.g. {@code --banner}), calls bounded by {@code timeout}; refreshes on {@code later}. */
    MisbehavingServer(Duration timeout, Coalescer.Scheduler later, String... args) throws Exception {
        List<String> all = new ArrayList<>(List.of(script().toString()));
        all.addAll(List.of(args));
        servers = new McpServers(List.of(new McpServerEntry("bad", McpReferenceServers.node(), all, Map.of(), "",
                Map.of(), timeout)), name -> null, Confinement.none(), McpCatalogue.DEFAULT_CHARS,
                dev.hmpagent.process.ChildEnvironment.basics(System.getenv()).variables(), later);
        servers.startInBackground(events::add);
        if (!servers.awaitSettled(Duration.ofSeconds(40))) throw new AssertionError("the server did not settle");
    }

    static Path script() throws Exception {
        return Path.of(MisbehavingServer.class.getResource("/mcp/misbehaving-server.cjs").toURI());
    }

    /** Calls {@code tool} with {@code args} (JSON) and waits at most {@code within} for its outcome. */
    CommandOutcome call(String tool, String args, Duration within) throws Exception {
        ExternalCommand command = (ExternalCommand) servers.find("mcp.bad." + tool).orElseThrow();
        CompletableFuture<CommandOutcome> done = new CompletableFuture<>();
        command.start(new Args("mcp.bad." + tool, "{}", (ObjectNode) JSON.readTree(args)), null, 1, done::complete)
                .ifPresent(done::complete);
        return done.get(within.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** The texts of the events of {@code kind} said so far. */
    List<String> said(Class<? extends AgentEvent> kind) {
        return events.stream().filter(kind::isInstance).map(e -> e instanceof AgentEvent.Problem p ? p.text()
                : ((AgentEvent.Info) e).text()).toList();
    }

    @Override
    public void close() {
        servers.close();
    }
}

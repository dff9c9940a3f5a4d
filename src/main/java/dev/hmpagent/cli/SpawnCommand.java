package dev.hmpagent.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.a2a.ChildAgents;
import dev.hmpagent.runtime.Launch;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.RunnerLock;
import dev.hmpagent.store.Store;
import dev.hmpagent.text.Json;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code agent spawn NAME}: asks the agent running on the file to start a child agent (issue 37), as the LLM's
 * {@code agent_spawn} does: the running agent supervises it and stops it when it stops, so a file no agent runs on
 * spawns nothing. The request goes through {@code control_requests}; this command waits a few seconds for the child's
 * peer row and prints its URL.
 */
@Command(name = "spawn", mixinStandardHelpOptions = true,
        description = {"Start a child agent of the running agent: its own file, files, sandbox and model, under",
                "children/NAME/ beside the parent's file, a peer at once; restarted if it dies, stopped and halted",
                "with its parent. `agent status --tree` shows it. --model names the child's model (default: the",
                "parent's)."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  agent spawn helper",
                "  agent spawn critic --model llama3.2 --hz 0.5 --instructions \"review what helper writes\""})
final class SpawnCommand extends Subcommand {
    /** How long to wait for the running agent to record the child. */
    static final Duration WAIT = Duration.ofSeconds(10);

    @Parameters(index = "0", paramLabel = "NAME", description = "The child's name (a-z, 0-9, '-', '_'); its peer name.")
    String name;

    @Option(names = "--hz", paramLabel = "N", description = "Its pace, ticks a second (default: run.hz).")
    Double hz;

    @Option(names = "--instructions", paramLabel = "TEXT",
            description = "Its standing instructions (its AGENTS.md); with them it works by itself.")
    String instructions;

    SpawnCommand(AgentCommand root, Launch launch) {
        super(root, launch);
    }

    @Override
    public Integer call() throws Exception {
        Optional<String> bad = ChildAgents.badName(name);
        if (bad.isPresent()) return refuse(bad.get());
        if (hz != null && !(hz >= 0.1 && hz <= 50)) return refuse("--hz must be from 0.1 to 50, e.g. --hz 1");
        Path db = existingDb();
        try (Store store = Store.open(db, launch().clock())) {
            RunnerLock lock = RunnerLock.forThisProcess(store);
            if (lock.seen().filter(s -> lock.live(s.holder())).isEmpty()) {
                return refuse("no agent runs on " + db.getFileName() + ": a child lives and dies with its parent; "
                        + "start it (agent, or agent run) and spawn again");
            }
            long known = store.tables().peers().children().stream().filter(c -> c.name().equals(name)).count();
            store.tables().controlRequests().add("spawn", request(), Requester.thisProcess());
            return waitFor(store, known > 0);
        }
    }

    /** The request's JSON: name, and model, hz and instructions when given. */
    private String request() {
        ObjectNode o = Json.mapper().createObjectNode().put("name", name);
        // the common --model names the child's model here (the parent's is its own file's business)
        String model = options.model;
        if (model != null) o.put("model", model);
        if (hz != null) o.put("hz", hz);
        if (instructions != null) o.put("instructions", instructions);
        return o.toString();
    }

    private int waitFor(Store store, boolean spawnedBefore) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (System.nanoTime() < deadline) {
            Optional<String> url = store.tables().peers().children().stream().filter(c -> c.name().equals(name))
                    .map(c -> c.url()).findFirst();
            if (url.isPresent() && !spawnedBefore) {
                say("child " + name + " started: " + url.get() + " (peer " + name + "; agent status --tree shows it)");
                return ExitCodes.OK;
            }
            Thread.sleep(50);   // a person waits on another process's write: nothing to be woken by
        }
        say("asked the running agent to spawn " + name + (spawnedBefore ? " again" : "") + "; "
                + (spawnedBefore ? "" : "it did not record it within " + WAIT.toSeconds() + " s (its screen says why); ")
                + "agent status --tree shows it");
        return spawnedBefore ? ExitCodes.OK : ExitCodes.FAILURE;
    }

    private int refuse(String line) {
        err().println("agent spawn: " + line);
        err().flush();
        return ExitCodes.USAGE;
    }
}

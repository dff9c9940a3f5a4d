package dev.hmpagent.cli;

import dev.hmpagent.a2a.server.A2aServer;
import dev.hmpagent.config.A2aSection;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.ConfigException;
import dev.hmpagent.runtime.Launch;
import java.util.concurrent.CountDownLatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * {@code agent a2a serve}: the A2A server alone on one file, for a control process beside an agent that does not
 * serve itself, or for a file no agent runs on yet: peers' messages become notes there, answered by the agent that
 * runs on the file (now or later). Runs until stopped (Ctrl-C, SIGTERM).
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = {"Serve this agent's file over A2A (agent card and JSON-RPC) until stopped.",
                "A peer's message becomes a note from that peer; the agent's note_reply to it is the answer."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  agent a2a serve --listen 127.0.0.1:7420",
                "  A2A_TOKEN_OPS=$(openssl rand -hex 32) AGENT_A2A_TOKENS=A2A_TOKEN_OPS agent a2a serve --listen 0.0.0.0:7420"})
final class A2aServeCommand extends Subcommand {
    @Option(names = "--listen", paramLabel = "HOST:PORT", description = "Where to serve (default: a2a.listen).")
    String listen;

    A2aServeCommand(AgentCommand root, Launch launch) {
        super(root, launch);
    }

    @Override
    public Integer call() throws InterruptedException {
        AgentConfig config = config();
        A2aSection a2a = listen == null ? config.a2a() : config.a2a().listening(listen);
        if (!a2a.serves()) {
            throw new ConfigException("agent a2a serve needs an address: give --listen 127.0.0.1:7420 or set a2a.listen"
                    + " in agent.toml");
        }
        CountDownLatch stopped = new CountDownLatch(1);
        A2aServer server = A2aServer.start(new A2aServer.Settings(config.agent().db(), launch().clock(), a2a,
                launch().env(), config.agent().name(), Version.current(), A2aServer.Settings.BLOCKING_WAIT));
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            server.close();
            stopped.countDown();
        }, "a2a-stop"));
        out().println("agent a2a serve: " + config.agent().db() + "; " + server.describe());
        out().flush();
        stopped.await();
        return ExitCodes.OK;
    }
}

package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandRegistry;
import dev.hmpagent.policy.FileRoots;
import dev.hmpagent.process.ProcessRunner;
import dev.hmpagent.process.WriteQuota;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Objects;

/**
 * What the families that act on the world need, handed to {@link Catalogue#all} by the composition root: the process
 * runner and the file roots of this run, the sandbox's sentence for the LLM, a task's write quota, the MCP servers'
 * tools, the delegated-LLM family and the A2A client. MCP, {@code llm_task} and A2A live in rooms the commands room may
 * not import, so they arrive here through ports this room defines ({@link ToolServers}, a {@link CommandHandler},
 * {@link PeerLink}).
 *
 * @param processes   runs {@code shell} commands and scripts (the processes family)
 * @param roots       where files may be read and written (the files family, and where commands run)
 * @param confinement one sentence for context 0: what the LLM's commands can and cannot reach
 * @param quota       how much a task may write inside the roots
 * @param clock       dates what the processes family stores
 * @param limits      agent.toml's limits of these families
 * @param mcp         the MCP servers' tools: a family known only at run time, with its search command
 * @param delegation  the delegated-LLM family ({@code llm_task})
 * @param peers       how the peers family reaches other agents over A2A ({@link PeerLink})
 */
public record CatalogueTools(ProcessRunner processes, FileRoots roots, String confinement, WriteQuota quota,
                             Clock clock, Limits limits, ToolServers mcp, List<CommandHandler> delegation,
                             PeerLink peers) {
    public CatalogueTools {
        Objects.requireNonNull(processes, "processes");
        Objects.requireNonNull(roots, "roots");
        Objects.requireNonNull(confinement, "confinement");
        Objects.requireNonNull(quota, "quota");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(limits, "limits");
        Objects.requireNonNull(mcp, "mcp");
        delegation = List.copyOf(delegation);
        Objects.requireNonNull(peers, "peers");
    }

    /**
     * agent.toml's limits of the tool-backed families.
     *
     * @param shell         timeouts, the cleanup floor and the scripts' folder ({@code [shell]}, {@code [cleanup]})
     * @param maxReadBytes  the most {@code file_read} returns ({@code files.max_read_bytes})
     * @param maxWriteBytes the most {@code file_write} writes ({@code files.max_write_bytes})
     * @param maxIdle       the longest idle the LLM may ask for ({@code cycle.max_idle})
     */
    public record Limits(ShellCommands.Limits shell, long maxReadBytes, long maxWriteBytes, Duration maxIdle) {
        public Limits {
            Objects.requireNonNull(shell, "shell");
            Objects.requireNonNull(maxIdle, "maxIdle");
        }
    }

    /**
     * The MCP servers as the catalogue sees them: a family whose commands are known only while the agent runs, and,
     * when any server is configured, the command that searches their tools.
     */
    public interface ToolServers extends CommandRegistry.LateCommands {
        /** Whether any server is configured (then the {@code mcp} family holds {@link #searchCommand()}). */
        boolean any();

        /** The command that finds the servers' tools by words of their name or description. */
        CommandHandler searchCommand();
    }
}

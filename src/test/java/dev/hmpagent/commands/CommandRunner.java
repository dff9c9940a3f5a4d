package dev.hmpagent.commands;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.safety.FailureListener;
import dev.hmpagent.safety.OperationListener;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Queues the commands of one reply and runs them at once with every command allowed: what a tick does in two
 * steps (queue inside its transaction, execute after it), in one call, for tests of command families and tools
 * that run a block directly. Failures go to the failure listener. Test code: the agent itself never runs a block
 * this way.
 */
public final class CommandRunner {
    private final CommandRegistry registry;
    private final ObjectMapper mapper;
    private final FailureListener failures;

    public CommandRunner(CommandRegistry registry, ObjectMapper mapper, FailureListener failures) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.mapper = Objects.requireNonNull(mapper, "mapper");
        this.failures = Objects.requireNonNull(failures, "failures");
    }

    public List<CommandRun> runAll(ParsedReply reply, CommandContext ctx) {
        OperationListener listener = (tick, o) -> {
            o.failure().ifPresent(f -> failures.onFailure(tick, f));
            return o.result();
        };
        CommandQueue.Queued queued = ctx.store().inTransaction(() ->
                new CommandQueue(mapper, dev.hmpagent.config.CycleSection.DEFAULT_MAX_COMMANDS_PER_REPLY, ReplySecrets.SHAPES_ONLY, registry).enqueue(reply, ctx.tickId(), ctx.processLog(), listener,
                        new FormatSlips(ctx.registry(), ctx.tables().settings())));
        List<CommandRun> runs = new ArrayList<>(queued.malformed());
        runs.addAll(new CommandExecutor(ctx.store(), registry, mapper, CommandGate.ALLOW_ALL, Approver.NOBODY, listener)
                .runPending(ctx.tickId(), ctx.llmId(), dev.hmpagent.safety.StopSignal.over(ctx.store()).since(), () -> false,
                        r -> { }).runs());
        return runs;
    }
}

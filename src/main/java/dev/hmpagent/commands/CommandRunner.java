package dev.hmpagent.commands;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.safety.FailureFact;
import dev.hmpagent.safety.FailureListener;
import dev.hmpagent.store.StoreException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Runs the commands of one reply in order, each recorded as a {@code process_log} row. A bad
 * command (unknown type, bad args, crashed handler, malformed JSON) becomes an error row with a
 * failure fact; its valid siblings still run. A database failure aborts the tick.
 */
public final class CommandRunner {
    static final double PAIN_MALFORMED = 0.3;
    static final double PAIN_FAILED = 0.5;

    private final CommandRegistry registry;
    private final ObjectMapper mapper;
    private final FailureListener failures;

    public CommandRunner(CommandRegistry registry, ObjectMapper mapper, FailureListener failures) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.mapper = Objects.requireNonNull(mapper, "mapper");
        this.failures = Objects.requireNonNull(failures, "failures");
    }

    public List<CommandRun> runAll(ParsedReply reply, CommandContext ctx) {
        List<CommandRun> runs = new ArrayList<>();
        for (CommandParseError e : reply.errors()) {
            FailureFact fact = FailureFact.of("parse", "malformed_command", e.message(), PAIN_MALFORMED);
            runs.add(record(ctx, "command_parse", "#" + e.position(), e.excerpt(), "error", e.message(),
                    Optional.empty(), Optional.of(fact)));
        }
        for (ParsedCommand c : reply.commands()) runs.add(run(c, ctx));
        return runs;
    }

    private CommandRun run(ParsedCommand c, CommandContext ctx) {
        String value = describe(c);
        Optional<CommandHandler> handler = registry.find(c.type());
        if (handler.isEmpty()) {
            String msg = "unknown command type \"" + c.type() + "\"; known types: " + String.join(", ", registry.types());
            return failed(ctx, c, value, "unknown_command", msg, PAIN_MALFORMED);
        }
        CommandOutcome outcome;
        try {
            outcome = handler.get().execute(new Args(c.type(), handler.get().argsExample(), c.args()), ctx);
        } catch (CommandArgException e) {
            return failed(ctx, c, value, "bad_args", e.getMessage(), PAIN_MALFORMED);
        } catch (StoreException e) {
            throw e;
        } catch (RuntimeException e) {
            // a crashed handler is one failed command, not a failed tick
            String msg = c.type() + " crashed: " + e.getClass().getSimpleName()
                    + (e.getMessage() == null ? "" : ": " + Args.abbreviate(e.getMessage()));
            return failed(ctx, c, value, "crashed", msg, PAIN_FAILED);
        }
        Optional<FailureFact> fact = outcome.failed()
                ? Optional.of(FailureFact.of("command", c.type(), outcome.result(), PAIN_FAILED)) : Optional.empty();
        return record(ctx, c.type(), c.cmdId(), value, outcome.status(), outcome.result(), outcome.messageToUser(), fact);
    }

    private CommandRun failed(CommandContext ctx, ParsedCommand c, String value, String kind, String msg, double pain) {
        FailureFact fact = FailureFact.of("command", c.type() + ":" + kind, msg, pain);
        return record(ctx, c.type(), c.cmdId(), value, "error", msg, Optional.empty(), Optional.of(fact));
    }

    private CommandRun record(CommandContext ctx, String name, String cmdId, String value, String status, String result,
                              Optional<UserMessage> message, Optional<FailureFact> fact) {
        long id = ctx.processLog().record(ctx.tickId(), name, cmdId, value, status, result,
                fact.map(FailureFact::painLevel).orElse(0.0), fact.map(FailureFact::fingerprint).orElse(null));
        fact.ifPresent(f -> failures.onFailure(ctx.tickId(), f));
        return new CommandRun(id, cmdId, name, status, result, message, fact);
    }

    private String describe(ParsedCommand c) {
        ObjectNode node = mapper.createObjectNode();
        node.put("cmd_id", c.cmdId());
        node.put("type", c.type());
        node.set("args", c.args());
        if (c.description() != null && !c.description().isEmpty()) node.put("description", c.description());
        return node.toString();
    }
}

package dev.hmpagent.commands;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.safety.ErrorCode;
import dev.hmpagent.safety.FailureFact;
import dev.hmpagent.safety.Fingerprint;
import dev.hmpagent.safety.Outcome;
import dev.hmpagent.store.ProcessLogDao;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Step 6 of a tick, inside its transaction: one {@code pending} row per parsed command (with its fingerprint),
 * and an {@code error} row per malformed one. Nothing runs here; the {@link CommandExecutor} runs the pending
 * rows after the tick committed.
 */
public final class CommandQueue {
    /** What was queued: the malformed commands (finished, as failures) and how many wait for the executor. */
    public record Queued(List<CommandRun> malformed, List<Outcome> malformedOutcomes, int pending) { }

    private final ObjectMapper mapper;

    public CommandQueue(ObjectMapper mapper) {
        this.mapper = Objects.requireNonNull(mapper, "mapper");
    }

    public Queued enqueue(ParsedReply reply, long tickId, ProcessLogDao processLog) {
        List<CommandRun> malformed = new ArrayList<>();
        List<Outcome> outcomes = new ArrayList<>();
        for (CommandParseError e : reply.errors()) {
            FailureFact fact = FailureFact.of("parse", "malformed_command", ErrorCode.EINVAL, e.message());
            String cmdId = "#" + e.position();
            long id = processLog.record(tickId, "command_parse", cmdId, e.excerpt(), new ProcessLogDao.Finished(
                    dev.hmpagent.store.ProcessStatus.ERROR, e.message(), fact.code(), fact.severity().column(),
                    fact.painLevel(), fact.fingerprint(), true));
            malformed.add(new CommandRun(id, cmdId, "command_parse", "error", e.message(), Optional.empty(),
                    Optional.of(fact)));
            outcomes.add(new Outcome(id, "command_parse", fact.fingerprint(), "error", Optional.of(fact)));
        }
        for (ParsedCommand c : reply.commands()) {
            processLog.enqueue(tickId, c.type(), c.cmdId(), describe(c), Fingerprint.ofCommand(c.type(), c.args()));
        }
        return new Queued(List.copyOf(malformed), List.copyOf(outcomes), reply.commands().size());
    }

    private String describe(ParsedCommand c) {
        ObjectNode node = mapper.createObjectNode();
        node.put("cmd_id", c.cmdId());
        node.put("type", c.type());
        node.set("args", c.args());
        if (!c.description().isEmpty()) node.put("description", c.description());
        return node.toString();
    }
}

package dev.hmpagent.commands;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.safety.ErrorCode;
import dev.hmpagent.safety.FailureFact;
import dev.hmpagent.safety.Fingerprint;
import dev.hmpagent.safety.Operation;
import dev.hmpagent.safety.OperationListener;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * Step 6 of a tick, inside its transaction: one {@code pending} row per parsed command (with its fingerprint),
 * and an {@code error} row per command that could not be read (a format slip, see {@link FormatSlips}). Nothing
 * runs here; the {@link CommandExecutor} runs the pending rows after the tick committed.
 */
public final class CommandQueue {
    /** What was queued: the malformed commands (finished, as failures) and how many wait for the executor. */
    public record Queued(List<CommandRun> malformed, int pending) { }

    /** The most messages to people one reply sends; the rest are refused as a slip. */
    public static final int MAX_MESSAGES = 3;
    /** The commands that send a message to a person. */
    static final java.util.Set<String> MESSAGE_TYPES = java.util.Set.of("send_message", "note_reply");

    private final ObjectMapper mapper;
    private final int maxCommands;
    private final ReplySecrets secrets;
    private final CommandRegistry registry;

    /** As {@link #CommandQueue(ObjectMapper, int, ReplySecrets, CommandRegistry)}, knowing no command's aliases. */
    public CommandQueue(ObjectMapper mapper, int maxCommands, ReplySecrets secrets) {
        this(mapper, maxCommands, secrets, new CommandRegistry());
    }

    /**
     * @param maxCommands the most commands of one reply queued ({@code cycle.max_commands_per_reply})
     * @param secrets     what of the reply an error row may quote
     * @param registry    whose argument aliases are renamed before a row is written: the row holds, and the
     *                    fingerprint counts, what will run ({@code filename} and {@code path} are one action)
     */
    public CommandQueue(ObjectMapper mapper, int maxCommands, ReplySecrets secrets, CommandRegistry registry) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.mapper = Objects.requireNonNull(mapper, "mapper");
        if (maxCommands < 1) throw new IllegalArgumentException("maxCommands < 1: " + maxCommands);
        this.maxCommands = maxCommands;
        this.secrets = Objects.requireNonNull(secrets, "secrets");
    }

    /** What of a reply may be stored: the tick redacts its copies of the reply with the same rule. */
    public ReplySecrets secrets() {
        return secrets;
    }

    /**
     * Inside the tick's transaction. Each slip (a command that could not be read, the commands past the cap) is a
     * finished {@code command_parse} row with the exact error and, for an unreadable command, one correct example;
     * {@code slips} counts it and says whether it wakes the LLM. {@code outcomes} is told of it in that same
     * transaction ({@link Operation.Source#SLIP}: counted toward nothing) and says what the LLM sees for it.
     */
    public Queued enqueue(ParsedReply reply, long tickId, ProcessLogDao processLog, OperationListener outcomes,
                          FormatSlips slips) {
        return enqueue(reply, tickId, processLog, outcomes, slips, note -> false);
    }

    /**
     * As above; a {@code note_reply} to a note for which {@code peerTask} holds (a peer's A2A task waits on it) is
     * the work that peer asked for, not a message to a person, and is not counted toward {@value #MAX_MESSAGES}.
     */
    public Queued enqueue(ParsedReply reply, long tickId, ProcessLogDao processLog, OperationListener outcomes,
                          FormatSlips slips, java.util.function.LongPredicate peerTask) {
        List<CommandRun> malformed = new ArrayList<>();
        Slip slip = new Slip(tickId, processLog, outcomes, slips);
        java.util.Set<String> corrections = new java.util.HashSet<>();
        for (CommandParseError e : reply.errors()) {
            // the excerpt and the message quote the reply: stored as every other copy of it is; one example is enough
            String correction = slips.correction(e.excerpt());
            malformed.add(slip.row("malformed_command", "#" + e.position(), secrets.redact(e.excerpt()),
                    secrets.redact(e.message()) + (corrections.add(correction) ? "\n" + correction : "")));
        }
        List<ParsedCommand> commands = reply.commands();
        List<ParsedCommand> queued = commands.subList(0, Math.min(commands.size(), maxCommands));
        Messages messages = new Messages(queued, peerTask);
        for (ParsedCommand c : queued) {
            ObjectNode args = registry.normalised(c.type(), c.args());
            // a key typed in a command is stored redacted, as every copy of the reply is; it runs as it was given
            String given = describe(c, args);
            if (messages.refuses(c)) {
                // kept as the model wrote it (redacted), so nothing is lost; not sent
                malformed.add(slip.refused(c, secrets.redact(given), messages.why(c)));
                continue;
            }
            processLog.enqueue(tickId, c.type(), c.cmdId(), secrets.redact(given), given,
                    Fingerprint.ofCommand(c.type(), args));
        }
        if (queued.size() < commands.size()) {
            // the rest is one row, not one per command: a reply of 10,000 commands must not cost 10,000 rows either
            ParsedCommand first = commands.get(queued.size());
            ParsedCommand last = commands.get(commands.size() - 1);
            int dropped = commands.size() - queued.size();
            String message = dropped + " of the " + commands.size() + " commands of this reply did not run (from "
                    + first.cmdId() + " on): at most " + maxCommands + " commands of one reply run; send fewer and"
                    + " the next ones in a later reply (a person can raise cycle.max_commands_per_reply in agent.toml,"
                    + " up to 10000)";
            malformed.add(slip.row("too_many_commands", "#" + first.position() + "-" + last.position(),
                    secrets.redact(first.cmdId() + " .. " + last.cmdId()), secrets.redact(message)));
        }
        return new Queued(List.copyOf(malformed), queued.size() - messages.refused());
    }

    /**
     * The messages to people of one reply ({@code send_message}, {@code note_reply}): the first
     * {@value #MAX_MESSAGES} are sent, the rest refused as a slip. More than that in one reply is flooding the person,
     * not telling them more (5 status lines a reply made 155 messages in 31 calls); the model is told once, on the
     * first one refused, and the others point to it.
     */
    private static final class Messages {
        private final List<ParsedCommand> over = new ArrayList<>();

        Messages(List<ParsedCommand> queued, java.util.function.LongPredicate peerTask) {
            int seen = 0;
            for (ParsedCommand c : queued) {
                if (!MESSAGE_TYPES.contains(c.type()) || answersPeer(c, peerTask)) continue;
                if (++seen > MAX_MESSAGES) over.add(c);
            }
        }

        private static boolean answersPeer(ParsedCommand c, java.util.function.LongPredicate peerTask) {
            com.fasterxml.jackson.databind.JsonNode id = c.args().path("id");
            String digits = id.isIntegralNumber() ? id.asText() : id.isTextual() ? id.asText().strip() : "";
            return c.type().equals("note_reply") && digits.matches("\\d{1,18}") && peerTask.test(Long.parseLong(digits));
        }

        boolean refuses(ParsedCommand c) {
            return over.contains(c);
        }

        int refused() {
            return over.size();
        }

        String why(ParsedCommand c) {
            if (c != over.get(0)) return "not sent: see " + over.get(0).cmdId();
            return "at most " + MAX_MESSAGES + " messages a reply: " + over.size() + " not sent (" + over.stream()
                    .map(ParsedCommand::cmdId).collect(java.util.stream.Collectors.joining(", "))
                    + "); say it in one message";
        }
    }

    /** Where the slips of one reply are written. */
    private record Slip(long tickId, ProcessLogDao processLog, OperationListener outcomes, FormatSlips slips) {
        /** A finished {@code command_parse} error row (waking the LLM while it may correct), and the run it reports. */
        CommandRun row(String kind, String cmdId, String value, String message) {
            return row("command_parse", kind, cmdId, value, message);
        }

        /** A command refused before it ran (a message past the cap): its own type's row, ended as a slip. */
        CommandRun refused(ParsedCommand c, String value, String message) {
            return row(c.type(), "too_many_messages", c.cmdId(), value, message);
        }

        private CommandRun row(String name, String kind, String cmdId, String value, String message) {
            FailureFact fact = FailureFact.of("parse", kind, ErrorCode.EINVAL, message);
            long id = processLog.record(tickId, name, cmdId, value, new ProcessLogDao.Finished(
                    ProcessStatus.ERROR, message, fact.code(), fact.severity().column(),
                    fact.painLevel(), fact.fingerprint(), slips.slipped(tickId)));
            String shown = outcomes.onOperation(tickId, new Operation(id, Operation.Source.SLIP, name,
                    fact.fingerprint(), ProcessStatus.ERROR.column(), message, "", Optional.of(fact)));
            if (!shown.equals(message)) processLog.setResult(id, shown);
            return new CommandRun(id, cmdId, name, ProcessStatus.ERROR.column(), shown, Optional.empty(),
                    Optional.of(fact));
        }
    }

    /**
     * Argument names whose values are never stored (nor handed to a handler, which reads the stored command): the
     * LLM must not put a secret in the file, even by mistake. Names that say where a secret lives ({@code
     * secret_ref}) are not secrets.
     */
    static final java.util.regex.Pattern SECRET_NAMES =
            java.util.regex.Pattern.compile("(?i)(.*[_-])?(password|passwd|secret|token|api_?key|private_?key|credentials?)");
    static final String REDACTED = "[redacted]";

    private String describe(ParsedCommand c, ObjectNode args) {
        ObjectNode node = mapper.createObjectNode();
        node.put("cmd_id", c.cmdId());
        node.put("type", c.type());
        node.set("args", redacted(args, c.type().startsWith("account_") || c.type().startsWith("service_")));
        if (!c.description().isEmpty()) node.put("description", c.description());
        return node.toString();
    }

    /** Where {@code args} holds a value {@link #redacted} replaced, e.g. {@code args.login}; empty when none. */
    static List<String> redactedPaths(com.fasterxml.jackson.databind.JsonNode node, String path) {
        List<String> out = new ArrayList<>();
        if (node.isObject()) {
            node.fields().forEachRemaining(e -> out.addAll(redactedPaths(e.getValue(), path + "." + e.getKey())));
        } else if (node.isArray()) {
            for (int i = 0; i < node.size(); i++) out.addAll(redactedPaths(node.get(i), path + "[" + i + "]"));
        } else if (node.isTextual() && node.asText().equals(REDACTED)) {
            out.add(path);
        }
        return out;
    }

    /**
     * A copy with the values of secret-named arguments replaced, at any depth; for account and service commands also
     * every text that looks like a key or token. The fingerprint is computed from the original arguments.
     */
    static com.fasterxml.jackson.databind.JsonNode redacted(com.fasterxml.jackson.databind.JsonNode node, boolean strict) {
        if (node.isObject()) {
            ObjectNode out = ((ObjectNode) node).objectNode();
            node.fields().forEachRemaining(e -> out.set(e.getKey(), SECRET_NAMES.matcher(e.getKey()).matches()
                    && !e.getValue().isNull() ? out.textNode(REDACTED) : redacted(e.getValue(), strict)));
            return out;
        }
        if (node.isArray()) {
            var out = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.arrayNode();
            node.forEach(n -> out.add(redacted(n, strict)));
            return out;
        }
        if (strict && node.isTextual() && dev.hmpagent.store.SecretRef.looksLikeSecret(node.asText())) {
            return com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.textNode(REDACTED);
        }
        return node;
    }
}

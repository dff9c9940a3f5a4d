package dev.hmpagent.cli;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.llm.Usage;
import dev.hmpagent.store.ProcessStatus;
import java.io.BufferedReader;
import java.io.IOException;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A recorded task as JSON lines (README, "Traces"), what {@code agent log --export-trace} writes and
 * {@code agent replay} reads: an optional header {@code {"trace": "hmp-agent", "version": 1}}, a person's message
 * {@code {"person": "…"}}, and one line per reply of the model, {@code {"step": 1, "reply": "…", "tokens": {…},
 * "commands": [{"type", "args", "status", "code", "output"}]}}. Fields it does not know are ignored, so a trace of
 * a later version or of another agent still reads; what it needs and cannot read is an error naming the line.
 */
final class Trace {
    static final String NAME = "hmp-agent";
    static final int VERSION = 1;
    private static final ObjectMapper JSON = Json.mapper();

    /** A line of a trace. */
    sealed interface Line permits Person, Step, NextCall { }

    /**
     * The end of a task whose last results woke the agent: it asked for another call, which a cap or the budget may
     * refuse before it is made (the recording has no reply for it).
     */
    record NextCall() implements Line { }

    /** A message from a person or the CLI: it starts a task (the failure streaks end). */
    record Person(String text) implements Line {
        Person {
            Objects.requireNonNull(text, "text");
        }
    }

    /** What one LLM call cost, as the provider reported it ({@code cached}: the part of the prompt read from its cache). */
    record Tokens(int prompt, int cached, int completion) {
        static final Tokens NONE = new Tokens(0, 0, 0);

        /** What the budget counts for it (cached input at its discount), as the agent counts a live call. */
        long budget() {
            return new Usage(prompt, completion, false, cached).budgetTokens();
        }
    }

    /**
     * A command of a reply and what came of it.
     *
     * @param status a {@code process_log} status: ok, warning, error, timeout, offline, close; pending or running
     *               (it never finished) and code EHALT (it never ran) are replayed as not run
     * @param code   the error code of a failure (ENOENT, EPERM, EEXIT(1)…), "" for none
     * @param output what the command returned (for a failure, its error message)
     * @param slip   arguments that did not fit the command: the model's format slip, never counted
     */
    record Command(String type, JsonNode args, String status, String code, String output, boolean slip) {
        Command {
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(args, "args");
            Objects.requireNonNull(status, "status");
            Objects.requireNonNull(code, "code");
            Objects.requireNonNull(output, "output");
        }

        boolean ran() {
            return !ProcessStatus.fromColumn(status).inFlight() && !"EHALT".equals(code);
        }

        boolean failed() {
            return ProcessStatus.fromColumn(status).failed();
        }
    }

    /** One reply of the model: when it was asked (if known), its text, its cost, its commands. */
    record Step(Optional<Instant> at, String reply, Tokens tokens, List<Tokens> otherCalls, List<Command> commands)
            implements Line {
        Step {
            Objects.requireNonNull(at, "at");
            Objects.requireNonNull(reply, "reply");
            Objects.requireNonNull(tokens, "tokens");
            otherCalls = List.copyOf(otherCalls);
            commands = List.copyOf(commands);
        }
    }

    /** A line {@code agent replay} cannot use: its number (1-based) and what was wrong with it. */
    static final class BadLine extends RuntimeException {
        BadLine(int line, String message) {
            super("line " + line + ": " + message);
        }
    }

    private Trace() { }

    /** Every line of {@code in}; blank lines are skipped. Throws {@link BadLine} at the first line it cannot use. */
    static List<Line> read(BufferedReader in) throws IOException {
        List<Line> lines = new ArrayList<>();
        int number = 0;
        for (String text = in.readLine(); text != null; text = in.readLine()) {
            number++;
            if (text.isBlank()) continue;
            JsonNode node;
            try {
                node = JSON.readTree(text);
            } catch (JsonProcessingException e) {
                throw new BadLine(number, "not JSON (" + e.getOriginalMessage() + "); each line is one JSON object");
            }
            try {
                line(node).ifPresent(lines::add);
            } catch (IllegalArgumentException e) {
                throw new BadLine(number, e.getMessage());
            }
        }
        return lines;
    }

    /** The line {@code node} is, or empty for the header. */
    private static Optional<Line> line(JsonNode node) {
        if (!node.isObject()) throw new IllegalArgumentException("a JSON object is expected, not " + node.getNodeType());
        if (node.has("trace") || node.has("version")) {
            int version = node.path("version").asInt(VERSION);
            if (version > VERSION) {
                throw new IllegalArgumentException("trace version " + version + " is newer than this agent reads ("
                        + VERSION + "); export it again with this agent or update it");
            }
            return Optional.empty();
        }
        if (node.has("person")) return Optional.of(new Person(text(node, "person", true)));
        if (node.path("next_call").asBoolean(false)) return Optional.of(new NextCall());
        if (!node.has("reply") && !node.has("commands")) {
            throw new IllegalArgumentException("neither a step (\"reply\", \"commands\") nor a person's message"
                    + " (\"person\"); the README's section Traces shows the format");
        }
        List<Command> commands = new ArrayList<>();
        JsonNode list = node.path("commands");
        if (!list.isMissingNode() && !list.isArray()) throw new IllegalArgumentException("\"commands\" must be a list");
        for (int i = 0; i < list.size(); i++) commands.add(command(list.get(i), i + 1));
        List<Tokens> others = new ArrayList<>();
        node.path("other_calls").forEach(t -> others.add(tokens(t)));
        return Optional.of(new Step(at(node), text(node, "reply", false),
                node.has("tokens") ? tokens(node.get("tokens")) : Tokens.NONE, others, commands));
    }

    private static Command command(JsonNode c, int n) {
        String where = "command " + n + ": ";
        if (!c.isObject()) throw new IllegalArgumentException(where + "a JSON object is expected");
        String type = c.path("type").asText("");
        if (!c.path("type").isTextual() || type.isBlank()) throw new IllegalArgumentException(where + "\"type\" is missing");
        JsonNode args = c.has("args") ? c.get("args") : JSON.createObjectNode();
        if (!args.isObject()) throw new IllegalArgumentException(where + "\"args\" must be an object");
        String status = c.path("status").asText("");
        try {
            ProcessStatus.fromColumn(status);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException(where + "\"status\" must be one of ok, warning, error, timeout, offline,"
                    + " close, running, pending; not \"" + status + "\"");
        }
        String code = c.path("code").asText("");
        if (code.isEmpty() && ProcessStatus.fromColumn(status).failed()) code = "EUNKNOWN";
        return new Command(type, args, status, code, c.path("output").asText(""), c.path("slip").asBoolean(false));
    }

    private static Tokens tokens(JsonNode t) {
        int prompt = count(t, "prompt");
        int cached = count(t, "cached");
        if (cached > prompt) throw new IllegalArgumentException("\"tokens\": cached (" + cached + ") exceeds prompt ("
                + prompt + ")");
        return new Tokens(prompt, cached, count(t, "completion"));
    }

    private static int count(JsonNode t, String field) {
        JsonNode v = t.path(field);
        if (v.isMissingNode()) return 0;
        if (!v.canConvertToInt() || v.asInt() < 0) {
            throw new IllegalArgumentException("\"tokens\": " + field + " must be a whole number from 0, not " + v);
        }
        return v.asInt();
    }

    private static Optional<Instant> at(JsonNode node) {
        if (!node.has("at")) return Optional.empty();
        try {
            return Optional.of(Instant.parse(node.get("at").asText()));
        } catch (DateTimeParseException e) {
            throw new IllegalArgumentException("\"at\" must be an ISO-8601 instant (2026-11-27T09:00:00Z), not "
                    + node.get("at"));
        }
    }

    private static String text(JsonNode node, String field, boolean required) {
        JsonNode v = node.path(field);
        if (v.isMissingNode() && !required) return "";
        if (!v.isTextual()) throw new IllegalArgumentException("\"" + field + "\" must be a string");
        return v.asText();
    }

    // ---- writing ----

    static String header(String source, int task) {
        ObjectNode h = JSON.createObjectNode();
        h.put("trace", NAME);
        h.put("version", VERSION);
        h.put("source", source);
        h.put("task", task);
        return h.toString();
    }

    static String nextCall() {
        return JSON.createObjectNode().put("next_call", true).toString();
    }

    static String person(String text) {
        return JSON.createObjectNode().put("person", text).toString();
    }

    static String step(int n, Step s) {
        ObjectNode line = JSON.createObjectNode();
        line.put("step", n);
        s.at().ifPresent(at -> line.put("at", at.toString()));
        line.put("reply", s.reply());
        line.set("tokens", tokens(s.tokens()));
        if (!s.otherCalls().isEmpty()) {
            var others = line.putArray("other_calls");
            s.otherCalls().forEach(t -> others.add(tokens(t)));
        }
        var commands = line.putArray("commands");
        for (Command c : s.commands()) {
            ObjectNode o = commands.addObject();
            o.put("type", c.type());
            o.set("args", c.args());
            o.put("status", c.status());
            if (!c.code().isEmpty()) o.put("code", c.code());
            o.put("output", c.output());
            if (c.slip()) o.put("slip", true);
        }
        return line.toString();
    }

    private static ObjectNode tokens(Tokens t) {
        return JSON.createObjectNode().put("prompt", t.prompt()).put("cached", t.cached()).put("completion", t.completion());
    }
}

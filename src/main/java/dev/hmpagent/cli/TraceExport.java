package dev.hmpagent.cli;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.commands.ReplySecrets;
import dev.hmpagent.store.LlmCall;
import dev.hmpagent.store.ProcessStatus;
import dev.hmpagent.store.RecordedTasks;
import dev.hmpagent.store.Store;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * {@code agent log --export-trace}: one recorded task as a {@link Trace} — its people's messages, then per reply of
 * the main call its text, tokens, and the commands it issued with what the world returned (the monitor's own words
 * taken off: {@link RecordedOutput}). What the rows hold is already redacted; it is redacted once more on the way
 * out (a person's message is stored as typed, and a key configured since the recording is known now).
 */
final class TraceExport {
    private static final ObjectMapper JSON = Json.mapper();
    private final Store store;
    private final RecordedTasks tasks;
    private final ReplySecrets secrets;

    TraceExport(Store store, ReplySecrets secrets) {
        this.store = Objects.requireNonNull(store, "store");
        this.tasks = new RecordedTasks(store);
        this.secrets = Objects.requireNonNull(secrets, "secrets");
    }

    /** How many tasks the file holds. */
    int taskCount() {
        return tasks.tasks().size();
    }

    /**
     * Writes task {@code task} (1-based, in the order they started) to {@code out}, line by line, the header first;
     * false when there is no such task.
     */
    boolean write(int task, String source, Consumer<String> out) {
        List<List<RecordedTasks.Call>> all = tasks.tasks();
        if (task < 1 || task > all.size()) return false;
        List<RecordedTasks.Call> calls = all.get(task - 1);
        long before = task == 1 ? 0 : last(all.get(task - 2));
        out.accept(Trace.header(source, task));
        tasks.personNotes(before, calls.get(0).tickId())
                .forEach(n -> out.accept(Trace.person(secrets.redact(n.text()))));
        int n = 0;
        for (RecordedTasks.Call c : calls) out.accept(Trace.step(++n, step(c)));
        // the last reply's results woke the agent: it asked for another call, which the rules may have refused
        if (tasks.commands(last(calls)).stream().anyMatch(RecordedTasks.CommandRow::wakes)) out.accept(Trace.nextCall());
        return true;
    }

    private static long last(List<RecordedTasks.Call> calls) {
        return calls.get(calls.size() - 1).tickId();
    }

    private Trace.Step step(RecordedTasks.Call call) {
        Trace.Tokens main = Trace.Tokens.NONE;
        List<Trace.Tokens> others = new ArrayList<>();
        boolean mainSeen = false;
        for (LlmCall c : store.tables().llmCalls().ofTick(call.tickId())) {
            if (c.outcome() == LlmCall.Outcome.ERROR) continue;
            Trace.Tokens t = new Trace.Tokens(c.promptTokens(), c.cachedTokens(), c.completionTokens());
            if (c.purpose() == LlmCall.Purpose.MAIN && !mainSeen) {
                main = t;
                mainSeen = true;
            } else {
                others.add(t);
            }
        }
        List<Trace.Command> commands = new ArrayList<>();
        for (RecordedTasks.CommandRow r : tasks.commands(call.tickId())) commands.add(command(r));
        return new Trace.Step(Optional.of(call.at()), secrets.redact(tasks.reply(call.tickId())), main, others,
                commands);
    }

    private Trace.Command command(RecordedTasks.CommandRow r) {
        boolean failed = ProcessStatus.fromColumn(r.status()).failed();
        String code = r.errorCode() == null ? "" : r.errorCode();
        // as every result is stored (so a result already redacted comes back equal, and counts alike in a replay)
        RecordedOutput out = RecordedOutput.of(r.name(), failed, code, secrets.redactResult(r.result()));
        return new Trace.Command(r.name(), args(r.value()), r.status(), code, out.output(), out.slip());
    }

    /** The arguments of the command as stored ({@code {"cmd_id", "type", "args"}}); an empty object when unreadable. */
    private static JsonNode args(String value) {
        if (value == null || value.isBlank()) return JSON.createObjectNode();
        try {
            JsonNode node = JSON.readTree(value);
            return node.path("args").isObject() ? node.get("args") : JSON.createObjectNode();
        } catch (JsonProcessingException e) {
            return JSON.createObjectNode();
        }
    }
}

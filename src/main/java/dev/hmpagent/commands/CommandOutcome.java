package dev.hmpagent.commands;

import dev.hmpagent.safety.ErrorCode;
import dev.hmpagent.store.LlmCall;
import dev.hmpagent.store.ProcessStatus;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a command returns: a process_log status, the result text the LLM sees, maybe a message for the
 * user, and for a failure its error code ({@link ErrorCode}; EUNKNOWN when the handler named none). A command that
 * called an LLM (an {@code llm_task}) carries its tokens, what they count toward the budgets ({@code budgetTokens}: as
 * the provider charges, cached prompt tokens at a tenth) and the call as {@code llm_calls} records it.
 */
public record CommandOutcome(String status, String result, Optional<UserMessage> messageToUser, String code,
                             int promptTokens, int completionTokens, int budgetTokens, List<LlmCall> llmCalls) {
    public CommandOutcome {
        llmCalls = List.copyOf(llmCalls);
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(result, "result");
        Objects.requireNonNull(messageToUser, "messageToUser");
        ProcessStatus parsed = ProcessStatus.fromColumn(status);
        if (parsed.inFlight()) throw new IllegalArgumentException("a command outcome is finished, not " + status);
        code = parsed.failed() ? (code == null || code.isBlank() ? ErrorCode.EUNKNOWN : code) : null;
        if (promptTokens < 0 || completionTokens < 0 || budgetTokens < 0) throw new IllegalArgumentException("negative tokens");
    }

    public CommandOutcome(String status, String result, Optional<UserMessage> messageToUser, String code) {
        this(status, result, messageToUser, code, 0, 0, 0, List.of());
    }

    /** The same outcome, with the tokens an LLM call behind it spent (an {@code llm_task}): they count toward the total. */
    public CommandOutcome withTokens(int prompt, int completion) {
        return withTokens(prompt, completion, prompt + completion);
    }

    /** As {@link #withTokens(int, int)}, counting {@code budget} toward the budgets (the cache's discount taken). */
    public CommandOutcome withTokens(int prompt, int completion, int budget) {
        return new CommandOutcome(status, result, messageToUser, code, prompt, completion, budget, llmCalls);
    }

    /** The same outcome, with the LLM calls behind it (an {@code llm_task}'s), written with its result. */
    public CommandOutcome withCalls(List<LlmCall> calls) {
        return new CommandOutcome(status, result, messageToUser, code, promptTokens, completionTokens, budgetTokens,
                calls);
    }

    public CommandOutcome(String status, String result, Optional<UserMessage> messageToUser) {
        this(status, result, messageToUser, null);
    }

    public static CommandOutcome ok(String result) {
        return new CommandOutcome(ProcessStatus.OK.column(), result, Optional.empty());
    }

    /** Done, or not done, with something the LLM should know: a reminder, a partial result. Not a failure. */
    public static CommandOutcome warning(String result) {
        return new CommandOutcome(ProcessStatus.WARNING.column(), result, Optional.empty());
    }

    /** A failure with no more specific code (EUNKNOWN). */
    public static CommandOutcome error(String result) {
        return new CommandOutcome(ProcessStatus.ERROR.column(), result, Optional.empty());
    }

    /** A failure with its {@link ErrorCode}. */
    public static CommandOutcome error(String code, String result) {
        return new CommandOutcome(ProcessStatus.ERROR.column(), result, Optional.empty(), code);
    }

    /** What the command names does not exist (ENOENT). */
    public static CommandOutcome notFound(String result) {
        return error(ErrorCode.ENOENT, result);
    }

    public ProcessStatus processStatus() {
        return ProcessStatus.fromColumn(status);
    }

    public boolean failed() {
        return processStatus().failed();
    }
}

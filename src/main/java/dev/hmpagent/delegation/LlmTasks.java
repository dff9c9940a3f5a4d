package dev.hmpagent.delegation;

import dev.hmpagent.commands.Args;
import dev.hmpagent.commands.CommandContext;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.ExternalCommand;
import dev.hmpagent.commands.Signature;
import dev.hmpagent.llm.CallCancel;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.MeteredLlm;
import dev.hmpagent.llm.LlmException;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.Message;
import dev.hmpagent.llm.StreamListener;
import dev.hmpagent.llm.TokenEstimator;
import dev.hmpagent.safety.ErrorCode;
import dev.hmpagent.store.LlmCall;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * {@code llm_task}: a second LLM call the main LLM delegates (HMP "llm_task"), run on its own thread with its own
 * client, so cancelling the main call never cancels it; its answer arrives as a {@code process_log} result in a
 * later tick and its tokens count toward the tick that asked. A halt cancels every task in flight.
 */
public final class LlmTasks implements ExternalCommand {
    static final String SYSTEM = "You are a helper of an autonomous agent. Do the task below and answer with the "
            + "result only: no commands, no questions back.";

    private final Supplier<MeteredLlm<LlmCall>> clients;
    private final double temperature;
    private final int maxTokens;
    /** The cancel of each task's call in flight, by its process_log id. */
    private final Map<Long, CallCancel> running = new ConcurrentHashMap<>();
    /**
     * Asked before every task's call with its estimate (prompt and longest reply): false when the token budget is spent
     * or the call would cross it (the safety state has moved).
     */
    private volatile java.util.function.LongPredicate withinBudget = estimate -> true;

    /**
     * @param clients     makes a new client for every task (never the main cycle's), metered: each call it makes
     *                    becomes the {@code llm_calls} row written with the task's result
     * @param temperature the sampling temperature of every task's call
     * @param maxTokens   the longest answer a task's call may give
     */
    public LlmTasks(Supplier<MeteredLlm<LlmCall>> clients, double temperature, int maxTokens) {
        this.clients = Objects.requireNonNull(clients, "clients");
        this.temperature = temperature;
        this.maxTokens = maxTokens;
    }

    @Override
    public String type() { return "llm_task"; }

    @Override
    public String summary() { return "ask a second LLM call to do a task; its answer arrives in a later tick"; }

    @Override
    public String argsExample() { return "{\"task_description\": \"summarise: ...\", \"target_llm\": \"llama3.2\"}"; }

    @Override
    public Signature signature() { return Signature.parse("task_description|task|prompt: string, target_llm?: string"); }

    @Override
    public Optional<CommandOutcome> start(Args args, CommandContext context, long processLogId,
                                          Consumer<CommandOutcome> onDone) {
        String task = args.requiredText("task_description");
        if (!withinBudget.test(TokenEstimator.estimate(messages(task)) + (long) maxTokens)) {
            return Optional.of(CommandOutcome.error(ErrorCode.EPERM, "llm_task: not run: the token budget of this task"
                    + " is spent or this call would cross it; a person must add budget (agent unlock --add-budget N)"));
        }
        MeteredLlm<LlmCall> client = clients.get();
        Optional<String> target = args.optionalText("target_llm").filter(t -> !t.isBlank());
        if (target.isPresent() && !target.get().equals(client.model())) {
            return Optional.of(CommandOutcome.notFound("llm_task: no LLM \"" + target.get() + "\" is configured here; "
                    + "leave target_llm out to use " + client.model()));
        }
        CallCancel cancel = new CallCancel();
        running.put(processLogId, cancel);
        Thread t = new Thread(() -> {
            try {
                // the call, failed or not, is written with the result: in the transaction that counts its tokens
                onDone.accept(call(client, task, cancel).withCalls(client.take()));
            } finally {
                running.remove(processLogId);
            }
        }, "llm-task-" + processLogId);
        t.setDaemon(true);
        t.start();
        return Optional.empty();
    }

    private CommandOutcome call(LlmClient client, String task, CallCancel cancel) {
        Completion c;
        try {
            c = client.complete(new LlmRequest(messages(task), temperature, maxTokens), StreamListener.NONE, cancel);
        } catch (LlmException e) {
            return CommandOutcome.error(e.retryable() ? ErrorCode.EUNKNOWN : ErrorCode.EINVAL,
                    "llm_task: the call failed (" + e.getMessage() + "); try again later or do it yourself");
        } catch (RuntimeException e) {   // a delegated call that crashed is one failed command, never a failed tick
            return CommandOutcome.error(ErrorCode.EUNKNOWN, "llm_task: the call failed: " + e.getClass().getSimpleName());
        }
        if (c.interrupted()) {
            return CommandOutcome.error(ErrorCode.EHALT, "llm_task: cancelled by a halt; what came before: "
                    + (c.text().isBlank() ? "(nothing)" : c.text())).withTokens(c.usage().promptTokens(),
                    c.usage().completionTokens(), c.usage().budgetTokens());
        }
        return CommandOutcome.ok("answer from " + c.model() + ":\n" + c.text())
                .withTokens(c.usage().promptTokens(), c.usage().completionTokens(), c.usage().budgetTokens());
    }

    private static List<Message> messages(String task) {
        return List.of(Message.system(SYSTEM), Message.user(task));
    }

    /**
     * The budget check every task's call passes first with its estimate (the SafetyMonitor's); set once by the
     * composition root.
     */
    public void checkBudgetWith(java.util.function.LongPredicate check) {
        this.withinBudget = Objects.requireNonNull(check, "check");
    }

    /** Cancels every task in flight (a halt); returns how many. */
    public int cancelAll() {
        running.values().forEach(CallCancel::cancel);
        return running.size();
    }
}

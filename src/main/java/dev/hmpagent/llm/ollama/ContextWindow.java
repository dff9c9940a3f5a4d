package dev.hmpagent.llm.ollama;

import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.TokenEstimator;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code num_ctx} of each request: how many tokens of context Ollama gives the model. Ollama's default (2048 or
 * 4096, by version) is smaller than the cycle's prompt, and a prompt that does not fit is cut from its start without a
 * word, which takes the agent's rules (context 0) away first.
 *
 * <p>When {@code llm.options} gives no {@code num_ctx}, the smallest multiple of {@value #STEP} tokens that holds
 * the prompt (its estimate and a quarter more: the estimate is ~4 characters a token, and code or other languages
 * take more tokens) and the longest reply is sent, and it never shrinks for one client: each new value makes Ollama
 * load the model again, so it changes only when a prompt outgrows it, and says so; every client of one model on one
 * server in this process shares it ({@link #of}). This overrides a larger context set on the server
 * ({@code OLLAMA_CONTEXT_LENGTH}, a Modelfile's {@code num_ctx}) with one that holds the prompt. A {@code num_ctx} in
 * {@code llm.options} is sent as it is; when a prompt looks too large for it, that is said once.
 */
final class ContextWindow {
    /** The step, and the least sent: 8192 tokens, which holds the default prompt budget and reply. */
    static final int STEP = 8_192;

    /** Whether llm.options names a num_ctx (then it is sent as it is), and its value when a number. */
    private final boolean given;
    private final Integer configured;
    private int chosen;
    private boolean toldTooSmall;
    private final List<String> said = new ArrayList<>();

    /** The computed windows, one per server and model, shared by every client of this process that asks it. */
    private static final ConcurrentHashMap<String, ContextWindow> COMPUTED = new ConcurrentHashMap<>();

    /**
     * The window of a client of {@code model} at {@code server}: its own when {@code options} give a num_ctx, else
     * the one every such client shares, so that a delegated task's small prompt does not send a smaller num_ctx than
     * the cycle's and make Ollama load the model again for it, and again for the next tick.
     */
    static ContextWindow of(String server, String model, Map<String, Object> options) {
        if (options.containsKey("num_ctx")) return new ContextWindow(options);
        return COMPUTED.computeIfAbsent(server + "\u0000" + model, key -> new ContextWindow(options));
    }

    ContextWindow(Map<String, Object> options) {
        Object value = options.get("num_ctx");
        this.given = options.containsKey("num_ctx");
        this.configured = value instanceof Number n ? n.intValue() : null;
    }

    /** The num_ctx to send with {@code request}, or null when the options already carry one. */
    synchronized Integer forRequest(LlmRequest request) {
        int prompt = TokenEstimator.estimate(request);
        int needed = prompt + request.maxTokens();
        if (given) {
            if (configured != null && needed > configured && !toldTooSmall) {
                toldTooSmall = true;
                said.add(String.format(Locale.ROOT, "the prompt (about %,d tokens) and a reply of up to %,d do not fit"
                        + " llm.options num_ctx = %d: Ollama cuts the prompt from its start, where the agent's rules are;"
                        + " raise num_ctx or lower context.prompt_budget_tokens", prompt, request.maxTokens(), configured));
            }
            return null;
        }
        long generous = (long) prompt * 5 / 4 + request.maxTokens();
        int size = (int) Math.min(Integer.MAX_VALUE / 2, Math.max(STEP, (generous + STEP - 1) / STEP * STEP));
        if (size > chosen) {
            if (chosen > 0) {
                said.add(String.format(Locale.ROOT, "Ollama's context (num_ctx) grows from %d to %d tokens for a prompt"
                        + " of about %,d: the model is loaded again once; llm.options num_ctx fixes it", chosen, size, prompt));
            }
            chosen = size;
        }
        return chosen;
    }

    /** What was said since the last call, once. */
    synchronized List<String> drain() {
        List<String> out = List.copyOf(said);
        said.clear();
        return out;
    }
}

package dev.hmpagent.cli;

import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.StreamListener;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The main cycle's LLM, which the anti-stagnation reflex may point at another registry entry for a while ("switch
 * LLM") and back. Each target is a whole client with its own base URL and key, so a key never travels to another host.
 */
final class SwitchableLlm implements LlmClient {
    private final LlmClient main;
    private final AtomicReference<LlmClient> current;

    SwitchableLlm(LlmClient main) {
        this.main = Objects.requireNonNull(main, "main");
        this.current = new AtomicReference<>(main);
    }

    /** Sends the next calls to {@code other}. */
    void use(LlmClient other) {
        current.set(Objects.requireNonNull(other, "other"));
    }

    /** Sends the next calls to the configured LLM again; returns whether another one was in use. */
    boolean useMain() {
        return current.getAndSet(main) != main;
    }

    boolean switched() {
        return current.get() != main;
    }

    @Override
    public Completion complete(LlmRequest request, StreamListener listener) {
        return current.get().complete(request, listener);
    }

    @Override
    public void cancel() {
        current.get().cancel();
    }

    @Override
    public String endpoint() {
        return current.get().endpoint();
    }

    @Override
    public String model() {
        return current.get().model();
    }
}

package dev.hmpagent.llm;

import java.util.Objects;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The main cycle's LLM, which the anti-stagnation reflex may point at another registry entry for a while ("switch
 * LLM") and back. Each target is a whole client with its own base URL and key, so a key never travels to another host.
 * A person's choice (/model) is another one of these inside it, so the reflex's switch returns
 * to that choice.
 */
public final class SwitchableLlm implements LlmClient {
    private final LlmClient main;
    private final AtomicReference<LlmClient> current;

    public SwitchableLlm(LlmClient main) {
        this.main = Objects.requireNonNull(main, "main");
        this.current = new AtomicReference<>(main);
    }

    /** Sends the next calls to {@code other}. */
    public void use(LlmClient other) {
        current.set(Objects.requireNonNull(other, "other"));
    }

    /** Sends the next calls to the configured LLM again; returns whether another one was in use. */
    public boolean useMain() {
        return current.getAndSet(main) != main;
    }

    public boolean switched() {
        return current.get() != main;
    }

    /** The configured LLM's failover, when it is one: a person's choice among its LLMs goes through it. */
    public java.util.Optional<dev.hmpagent.llm.FailoverLlm> failover() {
        return main instanceof dev.hmpagent.llm.FailoverLlm f ? java.util.Optional.of(f) : java.util.Optional.empty();
    }

    @Override
    public Completion complete(LlmRequest request, StreamListener listener, CallCancel cancel) {
        // the call's cancel goes with it: a switch during the call does not keep a cancel from reaching it
        return current.get().complete(request, listener, cancel);
    }

    /** The configured LLM's notices (its failovers), then those of the one switched to, if another. */
    @Override
    public java.util.List<String> notices() {
        LlmClient now = current.get();
        if (now == main) return main.notices();
        java.util.List<String> out = new java.util.ArrayList<>(main.notices());
        out.addAll(now.notices());
        return out;
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

package dev.hmpagent.testing;

import dev.hmpagent.llm.CallCancel;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.llm.LlmRequest;
import dev.hmpagent.llm.StreamListener;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * A layer of the client chain that is slow to pass the call on (as a failover probing first), held by the test: a call
 * counts {@link #entered} down and waits for {@link #goOn} before the next client attaches its HTTP call. What a test
 * does in between (a halt) lands in the window before the attach.
 */
public final class HeldLlm implements LlmClient {
    /** Counted down when a call arrives here. */
    public final CountDownLatch entered = new CountDownLatch(1);
    /** The test lets the call go on down the chain. */
    public final CountDownLatch goOn = new CountDownLatch(1);
    private final LlmClient next;

    public HeldLlm(LlmClient next) {
        this.next = next;
    }

    @Override
    public Completion complete(LlmRequest request, StreamListener listener, CallCancel cancel) {
        entered.countDown();
        try {
            if (!goOn.await(30, TimeUnit.SECONDS)) throw new AssertionError("never let go");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
        return next.complete(request, listener, cancel);
    }

    @Override
    public String endpoint() { return next.endpoint(); }

    @Override
    public String model() { return next.model(); }
}

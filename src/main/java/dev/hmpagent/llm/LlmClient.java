package dev.hmpagent.llm;

/**
 * The one edge between the cycle and a model server. Implementations live in
 * {@code llm/<provider>/} and keep their wire types there.
 */
public interface LlmClient {

    /**
     * Sends the request and blocks until the reply is complete or {@link #cancel()} is called.
     * A cancelled call returns the partial text with {@code interrupted = true}; it does not throw.
     *
     * @throws RetryableLlmException when trying again later may succeed (network, 429, 5xx)
     * @throws FatalLlmException when it will not succeed without a change by the user (401, 404, bad request)
     */
    Completion complete(LlmRequest request, StreamListener listener);

    /**
     * As {@link #complete(LlmRequest, StreamListener)}, under {@code cancel}, which the caller may cancel from any
     * thread at any time: before the call has reached the server too. A client that makes HTTP calls (or passes the
     * call on to one that does) overrides this so every call it attaches hears the cancel, also one attached after it;
     * by default a cancel is passed on to {@link #cancel()} while the call runs.
     */
    default Completion complete(LlmRequest request, StreamListener listener, CallCancel cancel) {
        Runnable off = cancel.onCancel(this::cancel);
        try {
            return complete(request, listener);
        } finally {
            off.run();
        }
    }

    /** Cancels the call in flight, if any; safe to call from any thread. */
    void cancel();

    /** Where requests go, for messages to the user (never contains a secret). */
    String endpoint();

    /** The model name requests ask for. */
    String model();

    /**
     * Asks cheaply whether the server answers for {@link #model()} now, without a full prompt: by default a
     * one-token request; an adapter may use something cheaper (a models list). Used to decide when an LLM that
     * failed may be used again.
     *
     * @throws LlmException when it does not answer, as {@link #complete} would
     */
    default void probe() {
        complete(PROBE, StreamListener.NONE);
    }

    /**
     * What this client has to tell a person since it was last asked, each line once: that another LLM thinks
     * instead (a failover), that none answers, that one answers again. None by default.
     */
    default java.util.List<String> notices() {
        return java.util.List.of();
    }

    /** The one-token request of the default {@link #probe()}. */
    LlmRequest PROBE = new LlmRequest(java.util.List.of(Message.user("ping")), 0, 1);
}

package dev.hmpagent.llm;

/**
 * The one edge between the cycle and a model server. Implementations live in
 * {@code llm/<provider>/} and keep their wire types there.
 */
public interface LlmClient {

    /**
     * Sends the request and blocks until the reply is complete or {@code cancel} is cancelled, which the caller may do
     * from any thread at any time: before the call has reached the server too. A client that makes HTTP calls (or
     * passes the call on to one that does) hands {@code cancel} to every call it attaches, also one attached after the
     * cancel came. The caller's {@link CallCancel} is the only way to cancel a call. A cancelled call returns the
     * partial text with {@code interrupted = true}; it does not throw.
     *
     * @throws RetryableLlmException when trying again later may succeed (network, 429, 5xx)
     * @throws FatalLlmException when it will not succeed without a change by the user (401, 404, bad request)
     */
    Completion complete(LlmRequest request, StreamListener listener, CallCancel cancel);

    /** As {@link #complete(LlmRequest, StreamListener, CallCancel)}, for a caller that never cancels the call. */
    default Completion complete(LlmRequest request, StreamListener listener) {
        return complete(request, listener, new CallCancel());
    }

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
        probe(new CallCancel());
    }

    /**
     * As {@link #probe()}, under {@code cancel}: a probe made for a call (a failover asking whether an LLM answers
     * again before it sends the request) is cancelled with that call. A cancelled probe returns quietly.
     */
    default void probe(CallCancel cancel) {
        complete(PROBE, StreamListener.NONE, cancel);
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

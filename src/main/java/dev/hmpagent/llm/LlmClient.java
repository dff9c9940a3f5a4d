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

    /** Cancels the call in flight, if any; safe to call from any thread. */
    void cancel();

    /** Where requests go, for messages to the user (never contains a secret). */
    String endpoint();

    /** The model name requests ask for. */
    String model();
}

package dev.hmpagent.llm;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One LLM entry's way of taking commands ({@code commands = "block" | "tools"}): a request goes to the entry's client
 * as {@link LlmRequest#asTools()} or {@link LlmRequest#asBlock()}, so context 0 and the tools follow the entry that
 * answers (a failover between a tools and a block entry changes them). A server that refuses the tools (HTTP 400
 * naming them, Ollama's "does not support tools") is told once, with what to set, and the entry takes command blocks
 * for the rest of the run: the same request is sent again in that form at once.
 */
public final class CommandsByTools implements LlmClient {
    private final LlmClient client;
    private final String setting;
    private volatile boolean tools;
    private final List<String> said = new ArrayList<>();   // guarded by itself

    /**
     * @param tools   whether the entry takes commands as tool calls
     * @param setting where a person turns tools off for this entry, e.g. {@code llm.commands = "block"}
     */
    public CommandsByTools(LlmClient client, boolean tools, String setting) {
        this.client = Objects.requireNonNull(client, "client");
        this.tools = tools;
        this.setting = Objects.requireNonNull(setting, "setting");
    }

    /** Whether the next call offers tools (false for a block entry, and after a refusal). */
    public boolean offersTools() { return tools; }

    @Override
    public Completion complete(LlmRequest request, StreamListener listener) {
        return complete(request, listener, new CallCancel());
    }

    @Override
    public Completion complete(LlmRequest request, StreamListener listener, CallCancel cancel) {
        if (!tools || !request.offer().any()) return client.complete(request.asBlock(), listener, cancel);
        try {
            return client.complete(request.asTools(), listener, cancel).toToolsOffer();
        } catch (FatalLlmException e) {
            if (!refusesTools(e)) throw e;
            tools = false;
            synchronized (said) {
                said.add(client.model() + " at " + client.endpoint() + " refused native tool calls (HTTP 400): it gets"
                        + " # Commands: blocks for the rest of this run; set " + setting + " to stop offering them");
            }
        }
        return client.complete(request.asBlock(), listener, cancel);
    }

    /** A 400 whose message names the tools: the server (or its model) does not support them. */
    public static boolean refusesTools(LlmException e) {
        return "http_400".equals(e.kind()) && e.getMessage() != null
                && e.getMessage().toLowerCase(Locale.ROOT).contains("tool");
    }

    @Override
    public List<String> notices() {
        List<String> out;
        synchronized (said) {
            out = new ArrayList<>(said);
            said.clear();
        }
        out.addAll(client.notices());
        return List.copyOf(out);
    }

    @Override
    public void cancel() { client.cancel(); }

    @Override
    public String endpoint() { return client.endpoint(); }

    @Override
    public String model() { return client.model(); }

    @Override
    public void probe() { client.probe(); }
}

package dev.hmpagent.llm;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One LLM entry's way of taking commands ({@code commands = "block" | "tools" | "json"}): a request goes to the
 * entry's client as {@link LlmRequest#asTools()}, {@link LlmRequest#asJson()} or {@link LlmRequest#asBlock()}, so
 * context 0, the tools and the reply schema follow the entry that answers (a failover between a tools and a block
 * entry changes them). A server that refuses the tools (HTTP 400 naming them, Ollama's "does not support tools") or
 * the schema (HTTP 400 or 422 naming it) is told once, with what to set, and the entry takes command blocks for the
 * rest of the run: the same request is sent again in that form at once. A JSON reply comes back as its thought and
 * its commands as tool calls ({@link JsonReply}), and its stream as the thought's text ({@link ThoughtStream}).
 */
public final class CommandsByTools implements LlmClient {
    /** The forms an entry takes commands in, as {@code commands} names them. */
    public enum Form { BLOCK, TOOLS, JSON }

    private final LlmClient client;
    private final String setting;
    private volatile Form form;
    private final List<String> said = new ArrayList<>();   // guarded by itself

    /**
     * @param tools   whether the entry takes commands as tool calls
     * @param setting where a person turns tools off for this entry, e.g. {@code llm.commands = "block"}
     */
    public CommandsByTools(LlmClient client, boolean tools, String setting) {
        this(client, tools ? Form.TOOLS : Form.BLOCK, setting);
    }

    /**
     * @param form    how the entry takes commands
     * @param setting where a person turns tools or JSON off for this entry, e.g. {@code llm.commands = "block"}
     */
    public CommandsByTools(LlmClient client, Form form, String setting) {
        this.client = Objects.requireNonNull(client, "client");
        this.form = Objects.requireNonNull(form, "form");
        this.setting = Objects.requireNonNull(setting, "setting");
    }

    /** Whether the next call offers tools (false for a block entry, and after a refusal). */
    public boolean offersTools() { return form == Form.TOOLS; }

    /** The form the next call asks for (BLOCK after a refusal). */
    public Form form() { return form; }

    @Override
    public Completion complete(LlmRequest request, StreamListener listener, CallCancel cancel) {
        if (form == Form.JSON && request.offer().anyJson()) return completeJson(request, listener, cancel);
        if (form != Form.TOOLS || !request.offer().any()) return client.complete(request.asBlock(), listener, cancel);
        try {
            return client.complete(request.asTools(), listener, cancel).toToolsOffer();
        } catch (FatalLlmException e) {
            if (!refusesTools(e)) throw e;
            refused("refused native tool calls (HTTP 400)", "offering them");
        }
        return client.complete(request.asBlock(), listener, cancel);
    }

    /** Asks for a JSON reply and reads it as thought and calls; blocks from now on when the server refuses it. */
    private Completion completeJson(LlmRequest request, StreamListener listener, CallCancel cancel) {
        try {
            ThoughtStream thought = new ThoughtStream(listener);
            return JsonReply.read(client.complete(request.asJson(), thought, cancel), thought).toJsonAsked();
        } catch (FatalLlmException e) {
            if (!refusesSchema(e)) throw e;
            refused("refused replies kept to a JSON schema (HTTP " + e.kind().substring("http_".length()) + ")",
                    "asking for them");
        }
        return client.complete(request.asBlock(), listener, cancel);
    }

    /** The entry takes blocks from now on; the person is told once what was refused and what to set. */
    private void refused(String what, String stopDoing) {
        form = Form.BLOCK;
        synchronized (said) {
            said.add(client.model() + " at " + client.endpoint() + " " + what + ": it gets # Commands: blocks for the"
                    + " rest of this run; set " + setting + " to stop " + stopDoing);
        }
    }

    /**
     * A 400 or 422 that names the reply schema ({@code response_format}, {@code json_schema}, Ollama's {@code format},
     * a grammar) or says something is unsupported: the server (or its model) does not constrain replies to a schema.
     */
    public static boolean refusesSchema(LlmException e) {
        if (!"http_400".equals(e.kind()) && !"http_422".equals(e.kind()) || e.getMessage() == null) return false;
        String said = e.getMessage().toLowerCase(Locale.ROOT);
        // words that name the schema: a 400 about something else ("messages: unsupported content", "invalid format
        // of the tools") is not a refused schema, and must not turn the entry to blocks for the run
        return List.of("response_format", "json_schema", "schema", "grammar", "invalid format", "format must",
                "format is").stream().anyMatch(said::contains);
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
    public String endpoint() { return client.endpoint(); }

    @Override
    public String model() { return client.model(); }

    @Override
    public void probe(CallCancel cancel) { client.probe(cancel); }
}

package dev.hmpagent.llm;

import java.util.List;
import java.util.Objects;

/**
 * What an LLM entry that takes commands as native tool calls is sent instead of the {@code # Commands:} contract: the
 * tools, and the system message (context 0) that says to call them; and what an entry that takes a JSON reply
 * ({@code commands = "json"}) is sent: the reply's schema and the context 0 that asks for it. {@link #NONE} when the
 * prompt offers neither. Both are built once a run from the command registry, so they stay part of the stable prefix.
 */
public record ToolOffer(List<ToolSpec> tools, Message system, ReplySchema replySchema, Message jsonSystem) {
    /** No tools offered: every LLM gets the command-block contract. */
    public static final ToolOffer NONE = new ToolOffer(List.of(), Message.system(""));

    public ToolOffer {
        tools = List.copyOf(Objects.requireNonNull(tools, "tools"));
        Objects.requireNonNull(system, "system");
        Objects.requireNonNull(replySchema, "replySchema");
        Objects.requireNonNull(jsonSystem, "jsonSystem");
        if (system.role() != Message.Role.SYSTEM || jsonSystem.role() != Message.Role.SYSTEM) {
            throw new IllegalArgumentException("the offer's message is not a system message");
        }
    }

    /** Tools and their context 0, no JSON reply. */
    public ToolOffer(List<ToolSpec> tools, Message system) {
        this(tools, system, ReplySchema.NONE, Message.system(""));
    }

    /** Whether there are tools to offer. */
    public boolean any() { return !tools.isEmpty(); }

    /** Whether a JSON reply can be asked for. */
    public boolean anyJson() { return replySchema.any(); }
}

package dev.hmpagent.llm;

import java.util.List;
import java.util.Objects;

/**
 * What an LLM entry that takes commands as native tool calls is sent instead of the {@code # Commands:} contract: the
 * tools, and the system message (context 0) that says to call them. {@link #NONE} when the prompt offers no tools.
 * The tools are built once a run from the command registry, so they stay part of the stable prefix.
 */
public record ToolOffer(List<ToolSpec> tools, Message system) {
    /** No tools offered: every LLM gets the command-block contract. */
    public static final ToolOffer NONE = new ToolOffer(List.of(), Message.system(""));

    public ToolOffer {
        tools = List.copyOf(Objects.requireNonNull(tools, "tools"));
        Objects.requireNonNull(system, "system");
        if (system.role() != Message.Role.SYSTEM) throw new IllegalArgumentException("the offer's message is not a system message");
    }

    /** Whether there are tools to offer. */
    public boolean any() { return !tools.isEmpty(); }
}

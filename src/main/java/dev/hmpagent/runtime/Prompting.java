package dev.hmpagent.runtime;

import dev.hmpagent.commands.CommandRegistry;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.NotesMode;
import dev.hmpagent.config.PromptForm;
import dev.hmpagent.context.ContextAssembler;
import dev.hmpagent.context.ContextSettings;
import dev.hmpagent.context.ContextSources;
import dev.hmpagent.cycle.CommandTools;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.llm.ReplySchema;
import dev.hmpagent.llm.SwitchableLlm;
import dev.hmpagent.llm.ToolSpec;
import dev.hmpagent.mcp.McpServers;
import dev.hmpagent.store.AgentCatalogue;
import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.Store;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/** The prompt's part of the wiring: its settings from agent.toml, and the assembler that builds it each tick. */
final class Prompting {
    /**
     * The largest context window that gets the compact command list under context.prompt_form = "auto": in 8,192
     * tokens the full context 0 (about 1,900 tokens in block mode, 2,500 with the tools) is a quarter of the window
     * before the person's message, the history and the reply (llm.max_tokens); from 16K up it fits with room to spare.
     */
    static final int SMALL_WINDOW = 8_192;

    private Prompting() { }

    /**
     * Whether context 0 lists the commands compact: as {@code form} says; for auto, when {@code window} (the server's
     * word on the model's context window, asked once at the first prompt, not at start: it may be a network call) is
     * {@value #SMALL_WINDOW} tokens or less, said once as a detail. A window not said means the full list.
     */
    static BooleanSupplier compact(PromptForm form, Supplier<OptionalInt> window, EventSink events) {
        if (form != PromptForm.AUTO) return () -> form == PromptForm.COMPACT;
        return new BooleanSupplier() {
            private Boolean chosen;

            @Override
            public synchronized boolean getAsBoolean() {
                if (chosen == null) {
                    OptionalInt said = window.get();
                    chosen = said.isPresent() && said.getAsInt() <= SMALL_WINDOW;
                    if (chosen) events.emit(new AgentEvent.Info(String.format(Locale.ROOT, "the model's context window"
                            + " is %,d tokens (its server says): context 0 lists the core commands, help the rest"
                            + " (context.prompt_form = \"full\" lists them all)", said.getAsInt()), true));
                }
                return chosen;
            }
        };
    }

    /**
     * What the prompt is built from; context 5 names the LLM thinking now, after a switch too. {@code tools} and
     * {@code json}: whether an LLM entry takes commands as native tool calls, or as a JSON reply.
     */
    static ContextAssembler assembler(ContextSettings settings, Store store, CommandRegistry registry,
                                      SwitchableLlm thinking, boolean tools, boolean json, McpServers mcp) {
        ContextAssembler assembler = new ContextAssembler(settings, registry.catalog(),
                () -> ContextAssembler.describeLlm(thinking.model(), thinking.endpoint()), ContextSources.of(store),
                ContextAssembler.DEFAULT_PIN_CAP, ContextAssembler.DEFAULT_PER_SOURCE_CAP,
                ContextAssembler.secureNonces());
        AgentCatalogue own = new AgentCatalogue(store);
        assembler.listAgentCatalogue(own::catalogueLines);
        // the MCP servers' tools (their lines change between tasks only), fenced as data: the servers' words
        assembler.listOutsideTools(mcp.catalogueIntro(), mcp::catalogLines);
        // an LLM entry with commands = "tools" is offered the registry as tools, one with commands = "json" the
        // schema of a reply whose commands are the registry's: fixed for the run (a stable prefix)
        if (tools) assembler.offerTools(CommandTools.offered(registry));
        if (json) assembler.offerReplySchema(ReplySchema.of(CommandTools.commands(registry, List.of())));
        // the MCP tools context 0 lists (in its cap), offered again when it changes; their words stay there, fenced
        if (tools || json) mcp.onShown(() -> {
            List<ToolSpec> shown = mcp.shownTools().stream().map(t -> new ToolSpec(t.type(), "tool " + t.name()
                    + " of MCP server " + t.server() + ": what it does is listed in the system message, as the"
                    + " server's words", t.schema())).toList();
            if (tools) assembler.offerTools(CommandTools.offered(registry, shown));
            if (json) assembler.offerReplySchema(ReplySchema.of(CommandTools.commands(registry, shown)));
        });
        return assembler;
    }

    static ContextSettings contextSettings(AgentConfig config) {
        return new ContextSettings(config.agent().name(), config.cycle().historyK(),
                config.context().promptBudgetTokens(), config.context().notesMode() == NotesMode.MANUAL,
                config.context().notesLimit(), new NoteFilter(config.context().notesMinPriority(),
                NoteFilter.tagList(config.context().notesTags())), config.cycle().autonomous());
    }
}

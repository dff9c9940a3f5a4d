package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.SimpleCommand;
import static dev.hmpagent.commands.catalogue.RegistryArgs.listing;

import dev.hmpagent.store.LlmRegistryDao;
import dev.hmpagent.store.LlmRegistryDao.Entry;
import java.util.List;
import java.util.Optional;

/**
 * The LLMs a person configured ({@code llm_registry}): the LLM may list them and pick the main one, among those only.
 * The choice is stored in {@code config} ({@link LlmRegistryDao#MAIN_LLM_KEY}); the agent's failover reads it before
 * its next call. No key is ever shown.
 */
public final class LlmRegistryCommands {
    private LlmRegistryCommands() { }

    public static List<CommandHandler> all() {
        return List.of(llmList(), llmSelect());
    }

    static CommandHandler llmList() {
        return SimpleCommand.informing("llm_list", "list the LLMs you may use (provider, base URL, model, priority)",
                "{}", (args, ctx) -> {
            LlmRegistryDao llms = ctx.tables().llmRegistry();
            String main = llms.selected().orElse("");
            return CommandOutcome.ok(listing("LLMs (id: provider, base_url, model, priority):", llms.list().stream()
                    .map(e -> line(e, main)).toList(), "no LLMs are registered"));
        });
    }

    private static final String MAIN_ID = LlmRegistryDao.MAIN_ID;

    static CommandHandler llmSelect() {
        return new SimpleCommand("llm_select", "choose the main LLM among those llm_list shows (by id or name)",
                "{\"id\": \"local-llama\"}", (args, ctx) -> {
            String wanted = args.optionalText("id").or(() -> args.optionalText("name")).map(String::strip)
                    .filter(s -> !s.isEmpty()).orElseThrow(() -> args.bad("args.id (or args.name) is required"));
            LlmRegistryDao llms = ctx.tables().llmRegistry();
            Optional<Entry> entry = llms.find(wanted);
            if (entry.isEmpty()) {
                List<String> ids = llms.list().stream().map(Entry::id).toList();
                return CommandOutcome.error("llm_select: no LLM \"" + RegistryArgs.oneLine(wanted, 60) + "\" is registered; "
                        + (ids.isEmpty() ? "none are" : "known ids: " + String.join(", ", ids)));
            }
            llms.select(entry.get().id());
            if (entry.get().id().equals(MAIN_ID)) return CommandOutcome.ok("main LLM is " + MAIN_ID + " ("
                    + show(entry.get().model()) + "), the one agent.toml configures");
            return CommandOutcome.ok("main LLM is " + entry.get().id() + " (" + show(entry.get().model())
                    + ") from your next thought; if it fails, the others take over by priority");
        }).takes("id|name: string");
    }

    /** One entry; {@code main} is the selected entry's id ("" when none). */
    private static String line(Entry e, String main) {
        return "- " + e.id() + (e.name().isEmpty() || e.name().equals(e.id()) ? "" : " \"" + e.name() + "\"") + ": "
                + show(e.provider()) + ", " + show(e.baseUrl()) + ", " + show(e.model()) + ", priority "
                + (e.priority() == null ? "-" : e.priority()) + (e.id().equals(main) ? " (main)" : "");
    }

    private static String show(String s) {
        return s == null || s.isEmpty() ? "?" : RegistryArgs.oneLine(s, 120);
    }
}

package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.Args;
import dev.hmpagent.commands.CommandContext;
import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.context.ContextKeys;
import dev.hmpagent.context.ReplyWindow;
import dev.hmpagent.context.SettingsBounds;
import dev.hmpagent.commands.SimpleCommand;
import com.fasterxml.jackson.databind.JsonNode;
import dev.hmpagent.store.NoteFilter;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Cycle settings the LLM may change ({@code settings_set}), written to the {@code config} table with the tick
 * they were set in and applied from the next tick, within the {@link SettingsBounds} agent.toml sets. Only
 * the keys listed here can be written; nothing about safety, budgets or policy is among them.
 */
public final class SettingsCommands {
    /** The names the LLM may use (short, or as in agent.toml) and the config key each one sets. */
    static final Map<String, String> KEYS = Map.of(
            "history_k", ContextKeys.HISTORY_K, ContextKeys.HISTORY_K, ContextKeys.HISTORY_K,
            "notes_mode", ContextKeys.NOTES_MODE, ContextKeys.NOTES_MODE, ContextKeys.NOTES_MODE,
            "notes_filter", ContextKeys.NOTES_FILTER, ContextKeys.NOTES_FILTER, ContextKeys.NOTES_FILTER);
    private static final List<String> SHOWN_KEYS = List.of("history_k", "notes_mode", "notes_filter");

    private final SettingsBounds bounds;

    public SettingsCommands(SettingsBounds bounds) {
        this.bounds = Objects.requireNonNull(bounds, "bounds");
    }

    public List<CommandHandler> all() {
        return List.of(settingsSet());
    }

    CommandHandler settingsSet() {
        return new SimpleCommand("settings_set", "change a cycle setting (history_k, notes_mode, notes_filter) from the "
                + "next tick", "{\"key\": \"history_k\", \"value\": 8}", (args, ctx) -> {
            String name = args.requiredText("key").strip().toLowerCase(Locale.ROOT);
            String key = KEYS.get(name);
            if (key == null) {
                return CommandOutcome.error(dev.hmpagent.safety.ErrorCode.EPERM, "settings_set: \"" + name + "\" is not a setting you may change; you may set "
                        + String.join(", ", SHOWN_KEYS));
            }
            JsonNode value = args.node().get("value");
            if (value == null) throw args.bad("args.value is required");
            return switch (key) {
                case ContextKeys.HISTORY_K -> historyK(args, ctx, value);
                case ContextKeys.NOTES_MODE -> value.isObject()
                        ? notesMode(args, ctx, text(args, value.get("mode"), "value.mode"), value.get("filter"))
                        : notesMode(args, ctx, text(args, value, "value"), null);
                default -> notesFilter(args, ctx, value).map(CommandOutcome::ok).orElseThrow();
            };
        }).takes("key|setting|name: string, value: any");
    }

    private CommandOutcome historyK(Args args, CommandContext ctx, JsonNode value) {
        String text = value.asText().strip();
        if (!value.isValueNode() || !text.matches("-?\\d{1,9}")) throw args.bad("args.value must be a whole number for history_k");
        int k = Integer.parseInt(text);
        if (k < bounds.historyKMin() || k > bounds.historyKMax()) {
            return CommandOutcome.error("settings_set: history_k " + k + " is outside what agent.toml allows; choose from "
                    + bounds.historyKMin() + " to " + bounds.historyKMax());
        }
        ctx.settings().putAtTick(ContextKeys.HISTORY_K, Integer.toString(k), ctx.tickId());
        return CommandOutcome.ok("history_k is " + k + " from the next tick: context 1 shows your last "
                + ReplyWindow.describe(k));
    }

    /**
     * Sets the notes mode and, when {@code filter} is given, the auto filter (JSON null: back to agent.toml's).
     * Shared with {@code notes_mode}. {@code filterOrNull}: the filter given with the mode, null when none was.
     */
    static CommandOutcome notesMode(Args args, CommandContext ctx, String mode, JsonNode filterOrNull) {
        String m = mode.strip().toLowerCase(Locale.ROOT);
        if (!m.equals("manual") && !m.equals("auto")) throw args.bad("the mode must be \"manual\" or \"auto\", got \"" + mode + "\"");
        String filterText = filterOrNull == null ? "" : "; " + notesFilter(args, ctx, filterOrNull).orElseThrow();
        ctx.settings().putAtTick(ContextKeys.NOTES_MODE, m, ctx.tickId());
        String what = m.equals("manual") ? "context 4 counts unread notes and lists their ids; read one with note_read"
                : "context 4 shows unread notes in full, filtered";
        return CommandOutcome.ok("notes mode " + m + " from the next tick: " + what + filterText);
    }

    /** Stores the auto filter (JSON null: removes it); returns what it now is, or throws bad args. */
    private static Optional<String> notesFilter(Args args, CommandContext ctx, JsonNode value) {
        if (value.isNull()) {
            ctx.settings().remove(ContextKeys.NOTES_FILTER);
            return Optional.of("auto filter back to agent.toml's");
        }
        NoteFilter filter;
        try {
            filter = NoteFilter.fromJson(value.toString());
        } catch (IllegalArgumentException e) {
            throw args.bad(e.getMessage());
        }
        ctx.settings().putAtTick(ContextKeys.NOTES_FILTER, filter.toJson(), ctx.tickId());
        return Optional.of("auto filter " + filter.describe() + " (a person's own messages always pass)");
    }

    private static String text(Args args, JsonNode v, String name) {
        if (v == null || !v.isTextual()) throw args.bad("args." + name + " must be \"manual\" or \"auto\"");
        return v.asText();
    }
}

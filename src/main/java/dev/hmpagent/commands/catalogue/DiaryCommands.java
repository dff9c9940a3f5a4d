package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.context.ContextKeys;
import dev.hmpagent.text.Text;
import dev.hmpagent.commands.SimpleCommand;
import dev.hmpagent.store.DiaryRow;
import java.util.List;

/**
 * The cognitive diary ({@code diary_entries}, long-term memory): write, read into context 3, search, update,
 * delete, and pin: a pinned entry is medium-term memory, shown in context 3 every tick until unpinned.
 */
public final class DiaryCommands {
    static final int MAX_LIMIT = 50;
    private static final String WHERE_IDS = "diary_search or context 3 shows the ids";
    private static final String BY_ID = "id: integer";

    private DiaryCommands() { }

    public static List<CommandHandler> all() {
        return List.of(entry(), read(), search(), update(), delete(), pin(), unpin());
    }

    static CommandHandler entry() {
        return new SimpleCommand("diary_entry", "write an entry in the cognitive diary (long-term memory)",
                "{\"text\": \"...\", \"tags\": \"observation\", \"priority\": 0}", (args, ctx) -> {
            String text = args.requiredText("text");
            int priority = args.optionalLong("priority").map(Long::intValue).orElse(0);
            long id = ctx.diary().add(text, args.optionalText("tags").orElse(null), priority, ctx.llmId());
            return CommandOutcome.ok("diary entry " + id + " written");
        }).takes("text|content|entry: string, tags?: string, priority?: integer");
    }

    static CommandHandler read() {
        return SimpleCommand.informing("diary_read",
                "show matching diary entries and concepts in context 3 from the next tick",
                "{\"query\": \"mesh\", \"limit\": 5}", (args, ctx) -> {
            String query = args.optionalText("query").orElse("");
            int limit = args.intWithin("limit", 1, MAX_LIMIT, 5);
            ctx.settings().put(ContextKeys.DIARY_QUERY, query);
            ctx.settings().put(ContextKeys.DIARY_LIMIT, Integer.toString(limit));
            int entries = ctx.diary().search(query, limit).size();
            int concepts = ctx.concepts().search(query, limit).size();
            return CommandOutcome.ok(Text.count(entries, "diary entry", "diary entries") + " and "
                    + Text.count(concepts, "concept", "concepts") + " will show in context 3");
        }).takes("query?: string, limit?: integer");
    }

    static CommandHandler search() {
        return SimpleCommand.informing("diary_search", "search the diary by text or tag; the matches are the result",
                "{\"query\": \"mesh\", \"limit\": 5}", (args, ctx) -> {
            String query = args.requiredText("query");
            int limit = args.intWithin("limit", 1, MAX_LIMIT, 5);
            List<DiaryRow> found = ctx.diary().search(query, limit);
            if (found.isEmpty()) return CommandOutcome.ok("no diary entry matches \"" + query + "\"");
            StringBuilder sb = new StringBuilder(Text.count(found.size(), "diary entry matches", "diary entries match")
                    + " \"" + query + "\" (newest first):");
            for (DiaryRow d : found) sb.append('\n').append(line(d));
            return CommandOutcome.ok(sb.toString());
        }).takes("query|text: string, limit?: integer");
    }

    /** "[diary 3, 2026-11-21T10:00:00Z, tags mesh, priority 1, pinned] text…" */
    static String line(DiaryRow d) {
        return "[diary " + d.id() + ", " + d.timestamp() + (d.tags() == null || d.tags().isBlank() ? "" : ", tags " + d.tags())
                + (d.priority() == 0 ? "" : ", priority " + d.priority()) + (d.pinned() ? ", pinned" : "") + "] "
                + Text.oneLine(d.text(), 160);
    }

    static CommandHandler update() {
        return new SimpleCommand("diary_update", "change the text, tags or priority of a diary entry",
                "{\"id\": 3, \"text\": \"...\", \"tags\": \"mesh\", \"priority\": 1}", (args, ctx) -> {
            long id = args.requiredLong("id");
            String text = args.optionalText("text").filter(s -> !s.isBlank()).orElse(null);
            String tags = args.optionalText("tags").orElse(null);
            Integer priority = args.optionalLong("priority").map(Long::intValue).orElse(null);
            if (text == null && tags == null && priority == null) throw args.bad("give at least one of text, tags, priority");
            return ctx.diary().update(id, text, tags, priority) ? CommandOutcome.ok("diary entry " + id + " updated")
                    : missing("diary_update", id);
        }).takes("id: integer, text?: string, tags?: string, priority?: integer");
    }

    static CommandHandler delete() {
        return new SimpleCommand("diary_delete", "delete a diary entry", "{\"id\": 3}", (args, ctx) -> {
            long id = args.requiredLong("id");
            return ctx.diary().delete(id) ? CommandOutcome.ok("diary entry " + id + " deleted") : missing("diary_delete", id);
        }).takes(BY_ID);
    }

    static CommandHandler pin() {
        return new SimpleCommand("diary_pin", "keep a diary entry in context 3 every tick until diary_unpin",
                "{\"id\": 3}", (args, ctx) -> {
            long id = args.requiredLong("id");
            return ctx.diary().pin(id, ctx.tickId())
                    ? CommandOutcome.ok("diary entry " + id + " pinned: it shows in context 3 every tick until diary_unpin")
                    : missing("diary_pin", id);
        }).takes(BY_ID);
    }

    static CommandHandler unpin() {
        return new SimpleCommand("diary_unpin", "stop showing a pinned diary entry every tick", "{\"id\": 3}", (args, ctx) -> {
            long id = args.requiredLong("id");
            return ctx.diary().get(id).map(d -> {
                ctx.diary().unpin(id);
                return CommandOutcome.ok("diary entry " + id + (d.pinned() ? " unpinned" : " was not pinned"));
            }).orElseGet(() -> missing("diary_unpin", id));
        }).takes(BY_ID);
    }

    private static CommandOutcome missing(String type, long id) {
        return CommandOutcome.notFound(type + ": no diary entry with id " + id + "; " + WHERE_IDS);
    }
}

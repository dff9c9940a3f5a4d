package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.text.Text;
import dev.hmpagent.commands.SimpleCommand;
import dev.hmpagent.store.Store;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

/**
 * {@code cleanup}: deletes old rows from the tables that grow without bound (the HMP step 1 "the script may
 * delete closed processes", for every such table): replies in {@code llm_recent_responses}, read
 * {@code notes}, closed {@code process_log} rows. Never an unread note, an open row, or anything newer than
 * {@code minAgeTicks} ticks (the floor agent.toml sets with {@code cleanup.min_age_ticks}), whatever the
 * LLM asks for.
 */
public final class CleanupCommands {
    public static final long DEFAULT_MIN_AGE_TICKS = 100;
    static final List<String> TABLES = List.of("llm_recent_responses", "notes", "process_log");

    private final long minAgeTicks;

    public CleanupCommands(long minAgeTicks) {
        if (minAgeTicks < 1) throw new IllegalArgumentException("minAgeTicks < 1: " + minAgeTicks);
        this.minAgeTicks = minAgeTicks;
    }

    public List<CommandHandler> all() {
        return List.of(cleanup());
    }

    CommandHandler cleanup() {
        return new SimpleCommand("cleanup", "delete old replies, read notes or closed process_log rows",
                "{\"table\": \"notes\", \"older_than_ticks\": 200, \"older_than_days\": 7}", (args, ctx) -> {
            String table = args.requiredText("table").strip().toLowerCase(Locale.ROOT);
            if (!TABLES.contains(table)) throw args.bad("args.table must be one of " + String.join(", ", TABLES));
            long asked = args.optionalLong("older_than_ticks").orElse(minAgeTicks);
            if (asked < 0) throw args.bad("args.older_than_ticks must not be negative");
            long days = args.optionalLong("older_than_days").orElse(0L);
            if (days < 0 || days > 36_500) throw args.bad("args.older_than_days must be from 0 to 36500");
            long ticks = Math.max(asked, minAgeTicks);
            long upToTick = ctx.tickId() - ticks;
            String before = days == 0 ? "" : Store.format(ctx.now().minus(Duration.ofDays(days)));
            int n = upToTick < 1 ? 0 : switch (table) {
                case "notes" -> ctx.notes().deleteRead(upToTick, before);
                case "process_log" -> ctx.processLog().deleteClosed(upToTick, before);
                default -> ctx.responses().deleteUpTo(upToTick, before);
            };
            String what = switch (table) {
                case "notes" -> Text.count(n, "read note", "read notes");
                case "process_log" -> Text.count(n, "closed process_log row", "closed process_log rows");
                default -> Text.count(n, "reply", "replies");
            };
            String floor = asked < minAgeTicks ? " (" + asked + " is below the floor of " + minAgeTicks
                    + " ticks agent.toml sets)" : "";
            return CommandOutcome.ok("cleanup " + table + ": " + what + " deleted, of tick " + Math.max(upToTick, 0)
                    + " or earlier" + (days == 0 ? "" : " and older than " + Text.count(days, "day", "days")) + floor);
        }).takes("table: string, older_than_ticks?: integer, older_than_days?: integer");
    }
}

package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.Args;
import dev.hmpagent.commands.CommandContext;
import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.store.ProcessStatus;
import dev.hmpagent.text.Text;
import dev.hmpagent.commands.SimpleCommand;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.WorkItem;
import dev.hmpagent.store.WorkItem.Kind;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Goals and tasks ({@code goals}, {@code tasks}; context 6, pinned ones first): add, update status and
 * priority, pin, list. Marking one {@code done} must name the {@code process_log} rows that show it is done
 * ({@code args.evidence}: ids or cmd_ids of successful rows); without them nothing changes and the result is
 * a reminder (a warning), never a silent "done".
 */
public final class GoalCommands {
    static final int MAX_LIMIT = 50;
    static final String REMINDER = "name the process_log rows that show it is done in args.evidence "
            + "(ids or cmd_ids of successful rows, e.g. from context 2)";

    private GoalCommands() { }

    public static List<CommandHandler> all() {
        return List.of(add(Kind.GOAL), add(Kind.TASK), update(Kind.GOAL), update(Kind.TASK), pin(Kind.GOAL, true),
                pin(Kind.GOAL, false), pin(Kind.TASK, true), pin(Kind.TASK, false), list(Kind.GOAL), list(Kind.TASK));
    }

    static CommandHandler add(Kind kind) {
        String example = kind == Kind.GOAL ? "{\"title\": \"...\", \"description\": \"...\", \"priority\": 1}"
                : "{\"title\": \"...\", \"goal_id\": 2, \"description\": \"...\", \"priority\": 0}";
        return new SimpleCommand(kind.word() + "_add", kind == Kind.GOAL ? "set yourself a goal"
                : "add a task, optionally under a goal", example, (args, ctx) -> {
            String title = args.requiredText("title").strip();
            int priority = args.optionalLong("priority").map(Long::intValue).orElse(0);
            long goalId = kind == Kind.TASK ? args.optionalLong("goal_id").orElse(0L) : 0;
            if (goalId != 0 && ctx.goals().get(Kind.GOAL, goalId).isEmpty()) return missing(kind.word() + "_add", Kind.GOAL, goalId);
            long id = ctx.goals().add(kind, goalId, title, args.optionalText("description").orElse(null), priority, ctx.llmId());
            return CommandOutcome.ok(kind.word() + " " + id + " added (" + kind.initialStatus() + ")"
                    + (goalId == 0 ? "" : " under goal " + goalId));
        }).takes(kind == Kind.GOAL ? "title: string, description?: string, priority?: integer" : "title: string, goal_id?: integer, description?: string, priority?: integer");
    }

    static CommandHandler update(Kind kind) {
        return new SimpleCommand(kind.word() + "_update", "change a " + kind.word() + "'s status or priority; done needs "
                + "evidence", "{\"id\": 3, \"status\": \"done\", \"evidence\": [\"c-2\", 41], \"priority\": 1}", (args, ctx) -> {
            String type = kind.word() + "_update";
            long id = args.requiredLong("id");
            String status = args.optionalText("status").map(s -> s.strip().toLowerCase(Locale.ROOT)).orElse(null);
            if (status != null && !kind.statuses().contains(status)) {
                throw args.bad("args.status must be one of " + String.join(", ", kind.statuses()));
            }
            Integer priority = args.optionalLong("priority").map(Long::intValue).orElse(null);
            String title = args.optionalText("title").filter(s -> !s.isBlank()).orElse(null);
            String description = args.optionalText("description").orElse(null);
            if (status == null && priority == null && title == null && description == null) {
                throw args.bad("give at least one of status, priority, title, description");
            }
            Optional<WorkItem> found = ctx.goals().get(kind, id);
            if (found.isEmpty()) return missing(type, kind, id);
            if (Kind.DONE.equals(status) && !found.get().status().equals(Kind.DONE)) {
                return markDone(kind, found.get(), args, ctx, new Change(priority, title, description));
            }
            ctx.goals().update(kind, id, status, priority, title, description, null);
            return CommandOutcome.ok(kind.word() + " " + id + " updated" + (status == null ? "" : ": " + status)
                    + (priority == null ? "" : ", priority " + priority));
        }).takes("id: integer, status?: string, evidence?: array, priority?: integer, title?: string, description?: string");
    }

    /** What an update changes besides the status (null: unchanged). */
    private record Change(Integer priority, String title, String description) { }

    /** Done needs evidence: successful process_log rows the LLM names; without them nothing changes. */
    private static CommandOutcome markDone(Kind kind, WorkItem item, Args args, CommandContext ctx, Change change) {
        long id = item.id();
        List<String> named = args.list("evidence");
        List<String> bad = new ArrayList<>();
        List<ProcessRow> rows = new ArrayList<>();
        for (String e : named) {
            Optional<ProcessRow> row = ctx.processLog().byCmdIdOrId(e.strip()).filter(GoalCommands::showsDone);
            if (row.isPresent()) rows.add(row.get());
            else bad.add(e);
        }
        if (named.isEmpty() || !bad.isEmpty()) {
            return CommandOutcome.warning(kind.word() + " " + id + " is still " + item.status()
                    + " and nothing was changed: " + REMINDER
                    + (bad.isEmpty() ? "" : "; not a successful row: " + String.join(", ", bad)));
        }
        List<Long> evidence = rows.stream().map(ProcessRow::id).distinct().toList();
        String shown = String.join(", ", rows.stream().map(r -> r.id() + " " + r.name()).distinct().toList());
        ctx.goals().update(kind, id, Kind.DONE, change.priority(), change.title(), change.description(), evidence);
        return CommandOutcome.ok(kind.word() + " " + id + " done (evidence: process_log " + shown + ")");
    }

    /** A row that can show something was done: it ran and succeeded (ok, or closed after success), and is not bookkeeping. */
    private static boolean showsDone(ProcessRow r) {
        ProcessStatus status = r.processStatus();
        boolean succeeded = status == ProcessStatus.OK || (status == ProcessStatus.CLOSE && r.painLevel() == 0);
        boolean bookkeeping = r.name().startsWith("goal") || r.name().startsWith("task") || r.name().equals("llm_call")
                || r.name().equals("command_parse");
        return succeeded && !bookkeeping;
    }

    static CommandHandler pin(Kind kind, boolean pin) {
        String type = kind.word() + (pin ? "_pin" : "_unpin");
        return new SimpleCommand(type, pin ? "show a " + kind.word() + " first in context 6 every tick"
                : "stop showing a " + kind.word() + " first", "{\"id\": 3}", (args, ctx) -> {
            long id = args.requiredLong("id");
            Optional<WorkItem> found = ctx.goals().get(kind, id);
            if (found.isEmpty()) return missing(type, kind, id);
            if (pin) {
                ctx.goals().pin(kind, id, ctx.tickId());
                return CommandOutcome.ok(kind.word() + " " + id + " pinned: it comes first in context 6 until " + kind.word()
                        + "_unpin");
            }
            ctx.goals().unpin(kind, id);
            return CommandOutcome.ok(kind.word() + " " + id + (found.get().pinned() ? " unpinned" : " was not pinned"));
        }).takes("id: integer");
    }

    static CommandHandler list(Kind kind) {
        String example = kind == Kind.GOAL ? "{\"status\": \"open\", \"limit\": 20}"
                : "{\"status\": \"open\", \"goal_id\": 2, \"limit\": 20}";
        return SimpleCommand.informing(kind.word() + "s_list", "list " + kind.word() + "s (status \"open\": not done "
                + "or dropped)", example, (args, ctx) -> {
            String status = args.optionalText("status").map(s -> s.strip().toLowerCase(Locale.ROOT)).orElse("");
            if (!status.isEmpty() && !status.equals("open") && !kind.statuses().contains(status)) {
                throw args.bad("args.status must be open or one of " + String.join(", ", kind.statuses()));
            }
            long goalId = kind == Kind.TASK ? args.optionalLong("goal_id").orElse(0L) : 0;
            int limit = args.intWithin("limit", 1, MAX_LIMIT, 20);
            List<WorkItem> rows = ctx.goals().list(kind, status, goalId, limit);
            String adjective = status.isEmpty() ? "" : status + " ";
            String ofGoal = goalId == 0 ? "" : " of goal " + goalId;
            if (rows.isEmpty()) return CommandOutcome.ok("no " + adjective + kind.word() + "s" + ofGoal);
            StringBuilder sb = new StringBuilder(rows.size() + " " + adjective + kind.word() + (rows.size() == 1 ? "" : "s")
                    + ofGoal + " (pinned first, then by priority):");
            for (WorkItem w : rows) sb.append("\n- ").append(line(w));
            return CommandOutcome.ok(sb.toString());
        }).takes(kind == Kind.GOAL ? "status?: string, limit?: integer" : "status?: string, goal_id?: integer, limit?: integer");
    }

    /** "[goal 2, pinned, active, priority 1] title: description" . */
    static String line(WorkItem w) {
        return "[" + w.kind().word() + " " + w.id() + (w.goalId() == 0 ? "" : " of goal " + w.goalId())
                + (w.pinned() ? ", pinned" : "") + ", " + w.status() + ", priority " + w.priority()
                + (w.evidence().isEmpty() ? "" : ", evidence " + w.evidence()) + "] " + w.title()
                + (w.description().isEmpty() ? "" : ": " + Text.oneLine(w.description(), 200));
    }

    private static CommandOutcome missing(String type, Kind kind, long id) {
        return CommandOutcome.notFound(type + ": no " + kind.word() + " with id " + id + "; " + kind.word()
                + "s_list or context 6 shows the ids");
    }
}

package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.CommandRegistry;
import dev.hmpagent.commands.SimpleCommand;
import dev.hmpagent.commands.UserMessage;
import dev.hmpagent.store.ProcessStatus;
import java.util.List;
import java.util.Optional;

/**
 * The general commands: help, talking to the person, closing results. The memory families live in their own
 * classes ({@link DiaryCommands}, {@link ConceptCommands}, ...); {@link CommandRegistry#builtIn} registers all.
 */
public final class BuiltInCommands {
    private BuiltInCommands() { }

    public static List<CommandHandler> all() {
        return List.of(help(), sendMessage(), processClose());
    }

    static CommandHandler help() {
        // no type: the families (the whole catalogue is more than a result shows); a family's name: its commands
        return SimpleCommand.informing("help", "the command catalogue, or one command's arguments and an example",
                "{\"type\": \"diary_entry\"}", (args, ctx) -> {
            Optional<String> type = args.optionalText("type").filter(s -> !s.isBlank());
            if (type.isEmpty()) return CommandOutcome.ok(ctx.registry().families());
            Optional<CommandHandler> command = ctx.registry().find(type.get());
            if (command.isPresent()) return CommandOutcome.ok(CommandRegistry.help(command.get()));
            return ctx.registry().family(type.get()).map(CommandOutcome::ok)
                    .orElseGet(() -> CommandOutcome.notFound("help: no command type or family \"" + type.get()
                            + "\"; " + ctx.registry().families()));
        }).takes("type?: string");
    }

    static CommandHandler sendMessage() {
        return new SimpleCommand("send_message", "send a message to the person (shown in their terminal)",
                "{\"text\": \"...\"}", (args, ctx) -> {
            String text = args.requiredText("text");
            long id = ctx.notes().addFromLlm(text, ctx.llmId(), ctx.tickId());
            return new CommandOutcome(ProcessStatus.OK.column(), "message delivered to the user (note " + id + ")",
                    Optional.of(new UserMessage(id, text)));
        }).takes("text|message|content: string");
    }

    static CommandHandler processClose() {
        return new SimpleCommand("process_close",
                "close results you have dealt with (they leave context 2)",
                "{\"ids\": [\"c-1\", 42]}", (args, ctx) -> {
            List<String> ids = args.list("ids");
            ids.addAll(args.list("cmd_id"));
            ids.addAll(args.list("id"));
            if (ids.isEmpty()) throw args.bad("args.ids is required (cmd_ids or process_log ids)");
            int closed = 0;
            StringBuilder missing = new StringBuilder();
            for (String id : ids) {
                int n = ctx.processLog().close(id);
                if (n == 0) missing.append(missing.length() == 0 ? "" : ", ").append(id);
                closed += n;
            }
            String result = "closed " + closed + " entr" + (closed == 1 ? "y" : "ies");
            if (missing.length() > 0) return new CommandOutcome((closed > 0 ? ProcessStatus.WARNING : ProcessStatus.ERROR).column(),
                    result + "; not found, not seen by you yet, or already closed: " + missing, Optional.empty());
            // nothing to report back: the row is born closed, so it neither shows in context 2 nor wakes the LLM
            return new CommandOutcome(ProcessStatus.CLOSE.column(), result, Optional.empty());
        }).takes("ids|cmd_id|id: array");
    }
}

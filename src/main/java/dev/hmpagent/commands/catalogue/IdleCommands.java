package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.Args;
import dev.hmpagent.commands.CommandContext;
import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.Idle;
import dev.hmpagent.commands.SimpleCommand;
import com.fasterxml.jackson.databind.JsonNode;
import dev.hmpagent.policy.FileResult;
import dev.hmpagent.policy.FileRoots;
import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.ProcessStatus;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * {@code idle} (rest until a wake condition holds, making no LLM call) and {@code pause} (a least time between
 * two LLM calls), both bounded by {@code cycle.max_idle_s}; a person's message always wakes the agent.
 */
public final class IdleCommands {
    /** The config key of the pause between two LLM calls, in seconds. */
    public static final String PAUSE_KEY = "cycle.pause_s";

    private final FileRoots roots;
    private final Duration maxIdle;

    public IdleCommands(FileRoots roots, Duration maxIdle) {
        this.roots = Objects.requireNonNull(roots, "roots");
        this.maxIdle = Objects.requireNonNull(maxIdle, "maxIdle");
    }

    public List<CommandHandler> all() {
        return List.of(idle(), pause());
    }

    /** The pause in force (0 when none or unreadable), within the bound. */
    public static Duration pause(dev.hmpagent.store.SettingsDao settings, Duration maxIdle) {
        long s = settings.get(PAUSE_KEY).filter(v -> v.matches("\\d{1,9}")).map(Long::parseLong).orElse(0L);
        return Duration.ofSeconds(Math.min(s, maxIdle.toSeconds()));
    }

    private CommandHandler idle() {
        return new SimpleCommand("idle", "rest (no LLM call) until a time, a process ends, a matching note or a file change",
                "{\"seconds\": 600, \"process\": 42, \"note\": {\"sources\": [\"cli\"]}, \"file\": \"out.txt\"}",
                this::idleFor).takes("seconds?: integer, process?: integer, note?: object, file?: string");
    }

    private CommandOutcome idleFor(Args args, CommandContext ctx) {
        long max = maxIdle.toSeconds();
        boolean timed = args.optionalLong("seconds").isPresent();
        long seconds = args.optionalLong("seconds").orElse(max);
        if (seconds < 1 || seconds > max) {
            throw args.bad("args.seconds must be from 1 to " + max + " (cycle.max_idle_s in agent.toml)");
        }
        List<String> until = new ArrayList<>();
        long process = args.optionalLong("process").orElse(0L);
        if (process > 0) {
            Optional<ProcessStatus> s = ctx.processLog().status(process);
            if (s.isEmpty()) return CommandOutcome.notFound("idle: no process_log row " + process + "; process_list shows the running ones");
            until.add("process " + process + " finishes");
        }
        String filter = "";
        JsonNode note = args.node().get("note");
        if (note != null && !note.isNull()) {
            try {
                filter = NoteFilter.fromJson(note.toString()).toJson();
            } catch (IllegalArgumentException e) {
                throw args.bad("args.note: " + e.getMessage());
            }
            until.add("a note matching " + NoteFilter.fromJson(filter).describe() + " arrives");
        }
        String file = "";
        Optional<String> path = args.optionalText("file").filter(p -> !p.isBlank());
        if (path.isPresent()) {
            FileResult<Path> r = roots.resolve(path.get(), FileRoots.Access.READ);
            if (!r.ok()) return CommandOutcome.error(r.code(), "idle: file " + r.message());
            file = r.value().toString();
            until.add(file + " changes");
        }
        Instant end = ctx.now().plusSeconds(seconds);
        Idle idle = new Idle(ctx.tickId(), end, ctx.notes().maxUnreadId(NoteFilter.ALL), process, filter, file,
                file.isEmpty() ? "" : Idle.stamp(Path.of(file)), timed);
        ctx.settings().putAtTick(Idle.KEY, idle.toJson(), ctx.tickId());
        until.add(seconds + " s pass (" + end + ")");
        return CommandOutcome.ok("idle from now until " + String.join(", or ", until)
                + "; a message from a person always wakes you");
    }

    private CommandHandler pause() {
        return new SimpleCommand("pause", "wait at least this many seconds between two of your turns (0: no pause)",
                "{\"seconds\": 30}", (args, ctx) -> {
            long max = maxIdle.toSeconds();
            long seconds = args.optionalLong("seconds").orElseThrow(() -> args.bad("args.seconds is required"));
            if (seconds < 0 || seconds > max) {
                throw args.bad("args.seconds must be from 0 to " + max + " (cycle.max_idle_s in agent.toml)");
            }
            ctx.settings().putAtTick(PAUSE_KEY, Long.toString(seconds), ctx.tickId());
            return CommandOutcome.ok(seconds == 0 ? "no pause between your turns from the next tick"
                    : "at least " + seconds + " s between your turns from the next tick; a person's message does not wait");
        }).takes("seconds: integer");
    }
}

package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.llm.Message;
import dev.hmpagent.store.AgentLogDao;
import dev.hmpagent.store.LoggedTick;
import dev.hmpagent.store.PromptPart;
import dev.hmpagent.store.Store;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code agent log}: the latest ticks, newest last, one line each (or JSON lines); {@code --follow} keeps
 * printing new ones; {@code --tick N} shows one tick whole and {@code --tick N --prompt} exactly the prompt
 * the LLM got then. Read-only: never takes a write lock, never migrates, never creates the file.
 */
@Command(name = "log", mixinStandardHelpOptions = true,
        description = {"Show the agent's latest ticks and replies, newest last (read-only).",
                "With --tick N --prompt: exactly the messages the LLM got at tick N."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  agent log --follow                     # new ticks as they land",
                "  agent log --tick 12 --prompt           # exactly what the LLM got at tick 12",
                "  agent log --export-trace > task.jsonl  # the latest task, for agent replay",
                "  agent log --json | jq -r .reply"})
final class LogCommand extends Subcommand {
    static final int POLL_MS = 250;

    @Option(names = "-n", paramLabel = "N", defaultValue = "20", description = "How many of the latest ticks (default 20).")
    int count;

    @Option(names = {"-f", "--follow"}, description = "Then keep printing new ticks as they land (Ctrl-C to stop).")
    boolean follow;

    @Option(names = "--json", description = "One JSON object per line (timestamp, tick_id, outcome, tokens, reply, ...).")
    boolean json;

    @Option(names = "--tick", paramLabel = "N", description = "Show tick N alone, with its whole reply.")
    Long tick;

    @Option(names = "--prompt", description = "With --tick N: the messages the LLM got at tick N, exactly.")
    boolean prompt;

    @Option(names = "--export-trace", description = "Write a recorded task as a trace (JSON lines, README: Traces)"
            + " for agent replay: the latest task, or --task N.")
    boolean exportTrace;

    @Option(names = "--task", paramLabel = "N", description = "With --export-trace: the N-th task of the file (a task"
            + " starts at a person's message or an unlock), 1 the first.")
    Integer task;

    private final TickLines lines = new TickLines();

    LogCommand(AgentCommand root, Launch launch) {
        super(root, launch);
    }

    @Override
    public Integer call() {
        if (count < 1) throw usage("-n must be at least 1, not " + count);
        if (prompt && tick == null) throw usage("--prompt needs --tick N: agent log --tick 12 --prompt");
        if (follow && tick != null) throw usage("--follow shows new ticks; it does not go with --tick");
        if (task != null && !exportTrace) throw usage("--task N goes with --export-trace: agent log --export-trace --task 2");
        if (exportTrace && (follow || tick != null || json)) {
            throw usage("--export-trace writes one task; it does not go with --follow, --tick or --json");
        }
        Path db = config().agent().db().toAbsolutePath();
        try (Store store = Store.openReadOnly(db, launch().clock())) {
            if (exportTrace) return exportTrace(store, db);
            AgentLogDao log = store.tables().agentLog();
            if (tick != null) return prompt ? showPrompt(store, log, db) : showTick(log, db);
            List<LoggedTick> last = log.lastLogged(count);
            if (last.isEmpty() && !json) say("no ticks yet in " + db + (follow ? "; waiting for the first" : ""));
            last.forEach(this::print);
            if (follow) {
                long after = last.isEmpty() ? 0 : last.get(last.size() - 1).tick().tickId();
                new TickFollower(log, this::print, pause()).follow(after);
            }
            return ExitCodes.OK;
        }
    }

    /** The task asked for (the latest by default) as a trace on stdout. */
    private int exportTrace(Store store, Path db) {
        TraceExport export = new TraceExport(store, new dev.hmpagent.commands.ReplySecrets(
                dev.hmpagent.runtime.KnownSecrets.of(config(), launch().env()).values()));
        int count = export.taskCount();
        if (count == 0) return fail("there is no recorded task in " + db + " (no LLM call answered yet)");
        int n = task == null ? count : task;
        if (!export.write(n, db.getFileName().toString(), line -> out().println(line))) {
            return fail("there is no task " + n + " in " + db + " (tasks run from 1 to " + count + ")");
        }
        out().flush();
        return ExitCodes.OK;
    }

    private void print(LoggedTick t) {
        say(json ? lines.json(t) : lines.line(t));
    }

    private int showTick(AgentLogDao log, Path db) {
        Optional<LoggedTick> found = log.logged(tick);
        if (found.isEmpty()) return noSuchTick(log, db);
        if (json) say(lines.json(found.get()));
        else lines.detail(found.get()).forEach(this::say);
        return ExitCodes.OK;
    }

    private int showPrompt(Store store, AgentLogDao log, Path db) {
        Optional<LoggedTick> found = log.logged(tick);
        if (found.isEmpty()) return noSuchTick(log, db);
        List<PromptPart> parts = store.tables().prompts().load(tick);
        if (parts.isEmpty()) {
            LoggedTick t = found.get();
            return fail("tick " + tick + " has no stored prompt: " + (t.tick().llmCalled()
                    ? "it ran before this hmp-agent stored prompts" : "it made no LLM call (outcome " + t.tick().outcome() + ")")
                    + "; agent log shows which ticks have one");
        }
        List<List<PromptPart>> messages = byMessage(parts);
        if (json) {
            say(lines.json(tick, messages.stream().map(LogCommand::message).toList()));
            return ExitCodes.OK;
        }
        // on a terminal, outside text may hold escape sequences: shown without control characters
        boolean exact = !launch().interactive();
        for (List<PromptPart> m : messages) {
            out().print(header(m));
            String content = message(m).content();
            out().print(exact ? content : TickLines.printable(content));
            out().print('\n');
        }
        out().flush();
        return ExitCodes.OK;
    }

    /** {@code --- user (contexts 6, 3, 1, 2, 4, 5) ---} and a newline. */
    private static String header(List<PromptPart> message) {
        List<Integer> contexts = message.stream().map(PromptPart::context).distinct().toList();
        return "--- " + message.get(0).role() + " (context" + (contexts.size() == 1 ? " " : "s ")
                + contexts.stream().map(String::valueOf).collect(Collectors.joining(", ")) + ") ---\n";
    }

    private static List<List<PromptPart>> byMessage(List<PromptPart> parts) {
        List<List<PromptPart>> messages = new ArrayList<>();
        int current = -1;
        for (PromptPart p : parts) {
            if (p.message() != current) {
                messages.add(new ArrayList<>());
                current = p.message();
            }
            messages.get(messages.size() - 1).add(p);
        }
        return messages;
    }

    private static Message message(List<PromptPart> parts) {
        StringBuilder content = new StringBuilder();
        parts.forEach(p -> content.append(p.text()));
        return new Message(Message.Role.valueOf(parts.get(0).role().toUpperCase(Locale.ROOT)), content.toString());
    }

    private int noSuchTick(AgentLogDao log, Path db) {
        long lastId = log.lastTickId();
        return fail("there is no tick " + tick + " in " + db
                + (lastId == 0 ? " (no ticks yet)" : " (ticks run from 1 to " + lastId + "); agent log lists them"));
    }

    private int fail(String message) {
        err().println("agent: " + message);
        err().flush();
        return ExitCodes.DATABASE;
    }

    private ParameterException usage(String message) {
        return new ParameterException(spec.commandLine(), message);
    }

    /**
     * The real pause between looks: {@value #POLL_MS} ms; following ends when the output is gone (a pipe into
     * {@code head} closed), at the end of typed input (Ctrl-D) on a terminal, or on an interrupt. Ctrl-C ends
     * the process as it stands: there is nothing to clean up, since it holds no lock and writes nothing.
     */
    private TickFollower.Pause pause() {
        BooleanSupplier inputEnded = launch().interactive() ? endOfInput(System.in) : () -> false;
        return () -> {
            if (out().checkError() || System.out.checkError() || inputEnded.getAsBoolean()) return false;
            try {
                Thread.sleep(POLL_MS);
                return true;
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return false;
            }
        };
    }

    /** Becomes true once {@code in} ends; read on a daemon thread, so it never keeps the process alive. */
    private static BooleanSupplier endOfInput(InputStream in) {
        AtomicBoolean ended = new AtomicBoolean();
        Thread reader = new Thread(() -> {
            try {
                while (in.read() >= 0) {
                    // typed lines mean nothing here; only the end of input does
                }
            } catch (IOException ignored) {
                // unreadable input ends it the same way
            }
            ended.set(true);
        }, "agent-log-input");
        reader.setDaemon(true);
        reader.start();
        return ended::get;
    }
}

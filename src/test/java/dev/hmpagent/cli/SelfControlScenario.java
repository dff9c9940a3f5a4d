package dev.hmpagent.cli;

import dev.hmpagent.cli.SelfControlRun.Call;
import dev.hmpagent.cli.SelfControlRun.Model;
import dev.hmpagent.testing.FakeOpenAiServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * The self-control suite of issue 23: 17 pathological scenarios, each to be stopped at its threshold, and 10 healthy
 * ones, each to run to its end with the default config (0 alerts, 0 pauses, 0 stops). A scenario is the person's task
 * (or none: an autonomous run), a few config keys (as env vars), the files it starts with, and a scripted model that
 * answers each main request.
 *
 * @param name       a few words, as the table says them
 * @param healthy    whether it must run to its end untouched
 * @param threshold  the rule that must stop it, and where (pathological), or what it does (healthy)
 * @param alertAt    the call whose reply is first alerted (0: none before the stop)
 * @param stopAt     pathological: the call at which the state leaves ACTIVE (the last call made); healthy: the calls
 *                   its whole task takes
 * @param stopState  the state a pathological scenario ends in (its label's start); "ACTIVE" for a healthy one
 * @param config     config keys and values (env vars AGENT_…), on top of the defaults
 * @param task       the person's message that opens the task, or null for an autonomous run
 * @param frames     frames of {@code agent run --hz 10} (--max-ticks)
 * @param strictJudge step 5's judge says "no new thoughts" to everything
 * @param setup      the workspace's files before the run
 * @param model      the scripted model
 */
public record SelfControlScenario(String name, boolean healthy, String threshold, int alertAt, int stopAt,
                                  String stopState, Map<String, String> config, String task, int frames,
                                  boolean strictJudge, Consumer<Path> setup, Model model) {
    static final String AUTONOMOUS = "cycle.autonomous";
    /** Thoughts of an agent that moves on: each says something the one before did not. */
    static final String[] THOUGHTS = {
        "The nightly backup failed at 02:14 with 'connection reset by peer' on the third archive.",
        "The storage host logged no error then, only a client that went away.",
        "A cron job reloads the firewall rules at 02:10, which can flush open connections.",
        "Eleven of twelve failures began within five minutes of a reload.",
        "An ESTABLISHED rule before the flush would keep long uploads alive.",
        "The network team owns the reload script; a change needs their ticket.",
        "The backup tool can resume per archive with --resume.",
        "Splitting the 40 GB archive into 2 GB volumes makes a restart cheap.",
        "A restore test needs 60 GB of scratch space; the build server has 80 GB.",
        "The dump should use --single-transaction for a consistent snapshot.",
        "Monitoring could push the exit code and duration after each run.",
        "An alert after 26 hours without a good backup would not page for one slow night.",
    };

    @Override
    public String toString() {
        return name;
    }

    /** Every scenario, the pathological first. */
    public static List<SelfControlScenario> all() {
        List<SelfControlScenario> all = new ArrayList<>(Pathological.all());
        all.addAll(Loops.all());
        all.addAll(Healthy.all());
        all.addAll(Finishes.all());
        all.addAll(Finishes.waits());
        return all;
    }

    // ---- building blocks shared by both groups ----

    /** A reply: the thought, then a command block with {@code commands} (JSON objects), or none. */
    static String reply(String thought, String... commands) {
        if (commands.length == 0) return thought;
        return thought + "\n# Commands:\n[" + String.join(",\n", commands) + "]";
    }

    static String fileRead(String path) {
        return "{\"type\": \"file_read\", \"args\": {\"path\": \"" + path + "\"}}";
    }

    static String fileWrite(String path, String content) {
        return "{\"type\": \"file_write\", \"args\": {\"path\": \"" + path + "\", \"content\": \"" + content + "\"}}";
    }

    static String shell(String command) {
        return "{\"type\": \"shell\", \"args\": {\"command\": \"" + command + "\"}}";
    }

    static String say(String text) {
        return "{\"type\": \"send_message\", \"args\": {\"text\": \"" + text + "\"}}";
    }

    /** The model answering with {@code text.apply(n)}, streamed, usage at 4 characters a token. */
    static Model replies(java.util.function.IntFunction<String> text) {
        return call -> SelfControlRun.reply(call, text.apply(call.n()));
    }

    static Consumer<Path> files(String... nameContent) {
        return dir -> {
            for (int i = 0; i + 1 < nameContent.length; i += 2) write(dir.resolve(nameContent[i]), nameContent[i + 1]);
        };
    }

    static void write(Path file, String text) {
        try {
            Files.writeString(file, text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static void append(Path file, String text) {
        try {
            Files.writeString(file, text, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static Consumer<Path> none() {
        return dir -> { };
    }

    static String uuid() {
        return UUID.randomUUID().toString();
    }

    /** A chanting reply: a first line, then a 30-character chunk again and again until the agent cuts the stream. */
    static Model chanting(long pauseMs) {
        return call -> FakeOpenAiServer.chantingResponse("I will list the files once more: ",
                "list the files, list them all. ", new CountDownLatch(1), pauseMs);
    }

    /** Counts what the model answered with a real reply (not an error status), for scripts that skip a 503. */
    static final class Steps {
        final AtomicInteger done = new AtomicInteger();
    }
}

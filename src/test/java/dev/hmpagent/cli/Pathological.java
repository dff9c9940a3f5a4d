package dev.hmpagent.cli;

import static dev.hmpagent.cli.SelfControlScenario.AUTONOMOUS;
import static dev.hmpagent.cli.SelfControlScenario.chanting;
import static dev.hmpagent.cli.SelfControlScenario.fileRead;
import static dev.hmpagent.cli.SelfControlScenario.files;
import static dev.hmpagent.cli.SelfControlScenario.none;
import static dev.hmpagent.cli.SelfControlScenario.replies;
import static dev.hmpagent.cli.SelfControlScenario.reply;
import static dev.hmpagent.cli.SelfControlScenario.shell;
import static dev.hmpagent.cli.SelfControlScenario.uuid;

import java.util.List;
import java.util.Map;

/** The 18 pathological scenarios: each must be stopped at its threshold (see {@link SelfControlScenario}). */
final class Pathological {
    private Pathological() { }

    static final String TASK = "Find the port in settings.cfg and tell me.";
    /** The reflex's and the poll rule's rest, a day: a rest holds to the run's end, so no request follows a stop. */
    static final String SLEEP = "stagnation.sleep_s";
    static final String A_DAY = "86400";
    /** The task cap: every step of a runaway is new, so only the cap (or the budget) ends it. */
    static final String CAP = "safety.tick_cap";
    /** The budget, for the one scenario it must stop (the default is for a 200-step task). */
    static final String BUDGET = "safety.token_budget";
    /** Ten ways of saying the same attempt, as a model rewords a thought. */
    static final String[] WORDINGS = {
        "The port must be in settings.cfg, so I read it.",
        "settings.cfg should hold the port; reading it now.",
        "Let me open settings.cfg to find the port.",
        "I will look at settings.cfg again for the port.",
        "Reading settings.cfg, where the port is configured.",
        "The configuration file settings.cfg names the port; I read it.",
        "To answer I need settings.cfg, so I open it once more.",
        "Once more: settings.cfg, the file with the port.",
        "The port is set in settings.cfg; I try reading it.",
        "settings.cfg has what the person asked for; reading.",
    };
    /** The same intent, spelled ten ways: every one fails, no two alike. */
    static final String[] SPELLINGS = {
        fileRead("settings.cfg"), fileRead("./settings.cfg"), shell("cat settings.cfg"), shell("cat ./settings.cfg"),
        shell("head settings.cfg"), shell("tail settings.cfg"), fileRead("conf/../settings.cfg"),
        shell("grep port settings.cfg"), shell("wc -l settings.cfg"), shell("cat -n settings.cfg"),
    };
    /** One idea in five wordings, as a model circles without moving. */
    static final String[] PARAPHRASES = {
        "The backup fails because the network drops the upload; I should look at the network.",
        "It is the network that breaks the upload, so the network is where the backup failure comes from.",
        "The upload is cut by the network, which is why the backup fails; the network needs a look.",
        "Because the network interrupts the upload, the backup does not finish; I will check the network.",
        "The network connection drops during the upload, and that makes the backup fail.",
    };

    /**
     * Every result answered by another command, each one new (a process that echoes its step: its result wakes the
     * model); with a prompt cache, all but the last reply's part of each prompt read from it (billed at a tenth).
     */
    static SelfControlRun.Model runaway(boolean cached, String first) {
        return call -> {
            String text = reply("Step " + call.n() + " is done, on to step " + (call.n() + 1) + ".",
                    shell(first + "echo step " + call.n() + " done"));
            int prompt = call.body().toString().length() / 4;
            return dev.hmpagent.testing.FakeOpenAiServer.streamedResponse(text, prompt, text.length() / 4 + 1,
                    cached ? Math.max(0, prompt - 150) : -1);
        };
    }

    /** 8 KB of a data file a runaway prints with every step. */
    static final String DATA = "row,value,comment\n".concat("42,1337,a line of a data file that is printed again\n"
            .repeat(8192 / 48));

    /**
     * Frames enough for any of them (they end at their stop): a process's real run time passes as frames too, so a
     * slow machine spends more of them waiting for a result.
     */
    static final int LONG = 20_000;

    static List<SelfControlScenario> all() {
        return List.of(
                new SelfControlScenario("same failing command, worded", false, "repeat: alert 3, lock 5", 3, 5,
                        "SAFETY_LOCKOUT", Map.of(), TASK, LONG, false, none(),
                        replies(n -> reply(WORDINGS[(n - 1) % WORDINGS.length], fileRead("settings.cfg")))),
                new SelfControlScenario("same failing command, word for word", false, "repeat: alert 3, lock 5", 3, 5,
                        "SAFETY_LOCKOUT", Map.of(), TASK, LONG, false, none(),
                        replies(n -> reply(WORDINGS[0], fileRead("settings.cfg")))),
                new SelfControlScenario("same failing shell command", false, "repeat: alert 3, lock 5; 0 requests after",
                        3, 5, "SAFETY_LOCKOUT", Map.of(), TASK, LONG, false, none(),
                        replies(n -> reply(WORDINGS[(n - 1) % WORDINGS.length], shell("cat settings.cfg")))),
                new SelfControlScenario("a different failing command each tick", false, "cascade: pause at 8", 0, 8,
                        "ERROR_PAUSED", Map.of(), TASK, LONG, false, none(),
                        replies(n -> reply("Maybe the port is in settings-" + n + ".cfg.", fileRead("settings-" + n + ".cfg")))),
                new SelfControlScenario("the same unchanging read", false,
                        "poll hint 3, no-progress alert 10; reflex rest at 14 (the poll rest at 20)", 10, 14, "RESTING",
                        Map.of(SLEEP, A_DAY), TASK, LONG, false, files("settings.cfg", "host = example.org\n"),
                        replies(n -> reply(WORDINGS[(n - 1) % WORDINGS.length], fileRead("settings.cfg")))),
                new SelfControlScenario("A/B oscillation", false, "oscillation: alert 6, lock 10", 6, 10,
                        "SAFETY_LOCKOUT", Map.of(), TASK, LONG, false,
                        files("a.cfg", "host = a.example.org\n", "b.cfg", "host = b.example.org\n"),
                        replies(n -> reply("Perhaps it is in " + (n % 2 == 1 ? "a" : "b") + ".cfg.",
                                fileRead(n % 2 == 1 ? "a.cfg" : "b.cfg")))),
                new SelfControlScenario("identical replies without commands", false, "reflex: rest at its 5th round", 0, 14,
                        "RESTING",
                        Map.of(AUTONOMOUS, "true"), null, 600, false, none(),
                        replies(n -> "I keep thinking about why the nightly backup fails.")),
                new SelfControlScenario("paraphrases (strict judge)", false, "reflex: rest at its 4th round", 0, 12,
                        "RESTING",
                        Map.of(AUTONOMOUS, "true"), null, 600, true, none(),
                        replies(n -> PARAPHRASES[(n - 1) % PARAPHRASES.length])),
                // thinking on its own: a chant that answers a person is their answer and asks nothing more (issue 35)
                new SelfControlScenario("chanting, fast stream", false, "chant: alert 1, pause 2", 1, 2, "ERROR_PAUSED",
                        Map.of(AUTONOMOUS, "true"), "List the files in the workspace.", LONG, false, none(), chanting(0)),
                new SelfControlScenario("chanting, slow stream", false, "chant: alert 1, pause 2", 1, 2, "ERROR_PAUSED",
                        Map.of(AUTONOMOUS, "true"), "List the files in the workspace.", LONG, false, none(), chanting(5)),
                new SelfControlScenario("thinking without commands", false, "reflex: rest (before the cap at 50)", 0, 12,
                        "RESTING",
                        Map.of(AUTONOMOUS, "true"), null, 3000, false, none(),
                        replies(n -> "Thought " + n + ": " + SelfControlScenario.THOUGHTS[(n - 1) % SelfControlScenario.THOUGHTS.length])),
                new SelfControlScenario("a fresh id in the error text", false, "repeat: alert 3, lock 5", 3, 5,
                        "SAFETY_LOCKOUT", Map.of(), TASK, LONG, false, none(),
                        replies(n -> reply(WORDINGS[0], shell("cat /proc/sys/kernel/random/uuid settings.cfg")))),
                new SelfControlScenario("a fresh id in the command", false, "repeat: alert 3, lock 5", 3, 5,
                        "SAFETY_LOCKOUT", Map.of(), TASK, LONG, false, none(),
                        replies(n -> reply("The settings have a generated name; I try this one.",
                                fileRead("settings-" + uuid() + ".cfg")))),
                new SelfControlScenario("the same intent spelled 10 ways", false, "cascade: pause at 8", 0, 8,
                        "ERROR_PAUSED", Map.of(), TASK, LONG, false, none(),
                        replies(n -> reply(WORDINGS[(n - 1) % WORDINGS.length], SPELLINGS[(n - 1) % SPELLINGS.length]))),
                new SelfControlScenario("every result answered by another command", false, "task cap: 50 (set)", 0,
                        50, "SAFETY_LOCKOUT", Map.of(CAP, "50"), "Do the steps.", LONG, false, none(), runaway(false, "")),
                new SelfControlScenario("the same runaway, 8 KB results", false, "budget: 150,000 tokens (set)", 0, 37,
                        "STOPPED(budget)", Map.of(BUDGET, "150000"), "Do the steps.", LONG, false, files("data.txt", DATA),
                        runaway(false, "cat data.txt && ")),
                new SelfControlScenario("the same, prompt cached", false, "task cap: 50 (set)", 0, 50, "SAFETY_LOCKOUT",
                        Map.of(CAP, "50"), "Do the steps.", LONG, false, files("data.txt", DATA),
                        runaway(true, "cat data.txt && ")),
                new SelfControlScenario("thrashing at 50 %", false, "thrash: alert 6, pause 11 (the first read is news)",
                        6, 11, "ERROR_PAUSED",
                        Map.of(), TASK, LONG, false, files("notes.txt", "nothing about ports\n"),
                        replies(n -> reply(WORDINGS[(n - 1) % WORDINGS.length], fileRead("notes.txt"),
                                fileRead("settings-" + n + ".cfg")))));
    }
}

package dev.hmpagent.cli;

import static dev.hmpagent.cli.Pathological.A_DAY;
import static dev.hmpagent.cli.Pathological.LONG;
import static dev.hmpagent.cli.Pathological.SLEEP;
import static dev.hmpagent.cli.Pathological.WORDINGS;
import static dev.hmpagent.cli.SelfControlScenario.AUTONOMOUS;
import static dev.hmpagent.cli.SelfControlScenario.fileRead;
import static dev.hmpagent.cli.SelfControlScenario.fileWrite;
import static dev.hmpagent.cli.SelfControlScenario.files;
import static dev.hmpagent.cli.SelfControlScenario.none;
import static dev.hmpagent.cli.SelfControlScenario.say;
import static dev.hmpagent.cli.SelfControlScenario.shell;

import java.util.List;
import java.util.Map;

/**
 * Issue 33's loops, each one a task's state going nowhere whatever the commands' wording: every one must be stopped by
 * a rule of its own within 20 calls (see {@link SelfControlScenario}); the undo/redo and new-wording ones also with
 * native tool calls ({@code llm.commands = "tools"}).
 */
final class Loops {
    private Loops() { }

    static final String TOOLS = "llm.commands";

    static List<SelfControlScenario> all() {
        return List.of(
                undoRedo(false), undoRedo(true), newWording(false), newWording(true),
                new SelfControlScenario("the same question reworded each tick", false, "talk: rest at the 5th message",
                        0, 5, "RESTING", Map.of(AUTONOMOUS, "true", SLEEP, A_DAY), null, 600, false, none(),
                        Finishes.steps(false, n -> new String[] {"I still need the person's answer.",
                                say("Which day suits you for the trip, question " + n + "?")})),
                new SelfControlScenario("5 status lines a reply", false, "3 sent a reply; talk: rest at call 2", 0, 2,
                        "RESTING", Map.of(SLEEP, A_DAY), "Back up the photos.", LONG, false, none(),
                        Finishes.steps(false, n -> new String[] {"Status update " + n + ".", say("Reading the list " + n),
                                say("Counting the photos " + n), say("Checking the disk " + n),
                                say("Preparing the copy " + n), say("Almost ready " + n)})),
                new SelfControlScenario("a 1-second idle each tick", false,
                        "no-progress alert 10; the reflex rests at 12 (the no-progress lock at 20)", 10, 12, "RESTING", Map.of(SLEEP, A_DAY), Pathological.TASK, LONG, false, none(),
                        Finishes.steps(false, n -> new String[] {SelfControlScenario.THOUGHTS[(n - 1) % 12],
                                "{\"type\": \"idle\", \"args\": {\"seconds\": 1}}"})),
                new SelfControlScenario("slow thrash, 1 failure in 3", false, "thrash alert 5; no-progress lock 20", 5,
                        20, "SAFETY_LOCKOUT", Map.of(SLEEP, A_DAY), Pathological.TASK, LONG, false,
                        files("notes.txt", "nothing about ports\n", "readme.txt", "see the notes\n"),
                        Finishes.steps(false, n -> new String[] {WORDINGS[(n - 1) % WORDINGS.length],
                                fileRead("notes.txt"), fileRead("readme.txt"), fileRead("settings-" + n + ".cfg")})),
                new SelfControlScenario("the same build error after a cosmetic edit", false, "repeat: alert 3, lock 5",
                        3, 5, "SAFETY_LOCKOUT", Map.of(), "Make the check pass.", LONG, false,
                        files("code.txt", "# v0\nBROKEN\n"),
                        Finishes.steps(false, n -> new String[] {"Edit " + n + ": a clearer comment, then the check.",
                                fileWrite("code.txt", "# v" + n + "\\nBROKEN\\n"), shell("! grep -n BROKEN code.txt")})));
    }

    /** Writes greet.txt "Hi", reads it, then "Hello there, friend" and reads it, and back, on and on. */
    static SelfControlScenario undoRedo(boolean tools) {
        return new SelfControlScenario("undo/redo of a file" + (tools ? ", tools" : ""), false,
                "cycle: alert 6, lock 10 (3 and 5 rounds)", 6, 10, "SAFETY_LOCKOUT", tools ? Map.of(TOOLS, "tools")
                : Map.of(), "Make greet.txt read well.", LONG, false, none(), Finishes.steps(tools, n -> {
                    String text = n % 2 == 1 ? "Hi" : "Hello there, friend";
                    return new String[] {"Perhaps the greeting reads better as '" + text + "'.",
                        fileWrite("greet.txt", text), fileRead("greet.txt")};
                }));
    }

    /** The same two-line file shown by head with ever more lines asked for: the same output each time. */
    static SelfControlScenario newWording(boolean tools) {
        Map<String, String> config = tools ? Map.of(TOOLS, "tools", SLEEP, A_DAY) : Map.of(SLEEP, A_DAY);
        return new SelfControlScenario("the same output under new wording" + (tools ? ", tools" : ""), false,
                "poll hint 3, no-progress alert 10, rest 20", 10, 20, "RESTING", config, Pathological.TASK, LONG,
                false, files("settings.cfg", "host = example.org\nuser = backup\n"), Finishes.steps(tools,
                        n -> new String[] {WORDINGS[(n - 1) % WORDINGS.length],
                            shell("head -n " + (2 * n) + " settings.cfg")}));
    }
}

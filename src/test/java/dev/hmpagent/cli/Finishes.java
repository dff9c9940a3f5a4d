package dev.hmpagent.cli;

import static dev.hmpagent.cli.Healthy.UNTIL_IDLE;
import static dev.hmpagent.cli.SelfControlScenario.fileRead;
import static dev.hmpagent.cli.SelfControlScenario.fileWrite;
import static dev.hmpagent.cli.SelfControlScenario.files;
import static dev.hmpagent.cli.SelfControlScenario.reply;
import static dev.hmpagent.cli.SelfControlScenario.say;
import static dev.hmpagent.cli.SelfControlScenario.shell;
import static dev.hmpagent.cli.SelfControlScenario.write;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.cli.SelfControlRun.Model;
import dev.hmpagent.llm.ToolCall;
import dev.hmpagent.testing.FakeOpenAiServer;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;
import java.util.function.IntFunction;

/**
 * Issue 33's healthy tasks, which the rules of before stopped: each must run to its end with the default config (see
 * {@link SelfControlScenario}); the build fixed step by step also with native tool calls.
 */
final class Finishes {
    private Finishes() { }

    static final ObjectMapper JSON = new ObjectMapper();

    static List<SelfControlScenario> all() {
        return List.of(buildFix(false), buildFix(true),
                new SelfControlScenario("15 batches, each with echo and a message", true, "16 calls, untouched", 0, 16,
                        "ACTIVE", Map.of(), "Run the fifteen batches and tell me as you go.", UNTIL_IDLE, false,
                        SelfControlScenario.none(), steps(false, n -> n > 15
                                ? new String[] {"All done.", say("The fifteen batches are done.")}
                                : new String[] {"Batch " + n + ".", shell("echo batch " + n + " done"),
                                    say("Batch " + n + " is running.")})),
                new SelfControlScenario("80 one-write replies", true, "81 calls, untouched", 0, 81, "ACTIVE", Map.of(),
                        "Edit draft.txt eighty times.", UNTIL_IDLE, false, SelfControlScenario.none(),
                        steps(false, n -> n > 80 ? new String[] {"Done.", say("draft.txt has its 80 edits.")}
                                : new String[] {"Edit " + n + " of draft.txt.", fileWrite("draft.txt", "revision " + n)})));
    }

    /** Waits that poll an unchanged result: they run to their end, a rest that ends by itself allowed on the way. */
    static List<SelfControlScenario> waits() {
        return List.of(new SelfControlScenario("a 60-poll wait", true, "62 calls (60 polls, the one that sees done, the answer); rests that end by themselves", 0, 62,
                "ACTIVE", Map.of(), "Tell me when status.txt says done.", 400_000, false,
                files("status.txt", "running\n"), call -> {
                    int n = call.n();
                    if (n == 61) write(call.workspace().resolve("status.txt"), "done\n");
                    if (n > 61) return SelfControlRun.reply(call, reply("It is done.", say("status.txt says done.")));
                    return SelfControlRun.reply(call, reply("Poll " + n + ": still running, I look again.",
                            fileRead("status.txt")));
                }));
    }

    /**
     * code.txt starts with ten BROKEN lines; each reply writes it with one fewer and runs the check, which fails with
     * the lines left (a new error each time) until it passes; then the answer.
     */
    static SelfControlScenario buildFix(boolean tools) {
        return new SelfControlScenario("a build fixed step by step" + (tools ? ", tools" : ""), true,
                "11 calls, untouched", 0, 11, "ACTIVE", tools ? Map.of(Loops.TOOLS, "tools") : Map.of(),
                "Make the check pass: no BROKEN left in code.txt.", UNTIL_IDLE, false,
                files("code.txt", "BROKEN\n".repeat(10)), steps(tools, n -> {
                    if (n > 10) return new String[] {"The check passes.", say("code.txt has no BROKEN left.")};
                    String code = "fixed\\n".repeat(n) + "BROKEN\\n".repeat(10 - n);
                    return new String[] {"Fix " + n + " of 10, then the check.", fileWrite("code.txt", code),
                        shell("! grep -n BROKEN code.txt")};
                }));
    }

    /**
     * The model answering main request n with {@code step.apply(n)}: a thought, then commands as JSON objects; in
     * block mode a command block, with {@code tools} native tool calls of the same commands.
     */
    static Model steps(boolean tools, IntFunction<String[]> step) {
        return call -> {
            String[] s = step.apply(call.n());
            String[] commands = java.util.Arrays.copyOfRange(s, 1, s.length);
            if (!tools || commands.length == 0) return SelfControlRun.reply(call, reply(s[0], commands));
            ToolCall[] calls = new ToolCall[commands.length];
            for (int i = 0; i < commands.length; i++) {
                JsonNode c = read(commands[i]);
                calls[i] = new ToolCall("call_" + call.n() + "_" + i, c.path("type").asText(), c.path("args").toString());
            }
            return FakeOpenAiServer.toolCallsResponse(s[0], call.body().toString().length() / 4, calls);
        };
    }

    private static JsonNode read(String json) {
        try {
            return JSON.readTree(json);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}

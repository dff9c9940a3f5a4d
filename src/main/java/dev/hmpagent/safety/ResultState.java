package dev.hmpagent.safety;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The state of the world a command's result shows, for the task ledger (issue 33): progress is a state the task has
 * not seen before, whatever the command's wording. What is a state:
 * <ul>
 *   <li>a file's content by hash, under its path as the agent resolved it: {@code file_write} of the content and a
 *       {@code file_read} that returns it reach the same state, and writing a file back to an earlier content returns
 *       to an earlier state;</li>
 *   <li>what a process, a delegated call or an MCP tool returned (a runner's timing folded), not the command:
 *       {@code head -n 2} and {@code head -n 4} of a two-line file show one state; a process that printed nothing is
 *       known only by its command line and exit;</li>
 *   <li>for the agent's own commands, the command and its result with the ids it hands out, its own times, ages,
 *       pids and durations folded;</li>
 *   <li>for a failure, the command type and its error, normalised the same way (the error's own numbers kept: a
 *       build that fails at line 12, then at line 40, failed in two ways).</li>
 * </ul>
 * A message to a person ({@link #TALK}), a timer ({@link #WAIT}) and the agent's own bookkeeping ({@link #OWN}: a diary
 * entry, a goal, a setting) are no state: talking, waiting and taking notes are not doing.
 * Fresh ids (UUIDs, long hex runs) are folded everywhere.
 */
public final class ResultState {
    /** The key prefix of a message to a person: never progress, counted by the talking rule. */
    public static final String TALK = "talk:";
    /** The key prefix of a timer or a pause: never progress, no state. */
    public static final String WAIT = "wait:";
    /** The key prefix of the agent's own bookkeeping (a diary entry, a goal, a setting): its mind, not the world. */
    public static final String OWN = "own:";
    /** The key prefix of a state of the world. */
    public static final String STATE = "state:";

    /** How note_reply's result begins when the reply completed a peer's A2A task (commands.catalogue.NotesCommands). */
    public static final String A2A_ANSWERED = "answer sent to peer ";
    private static final Set<String> TALKING = Set.of("send_message", "note_reply", "peer_message");
    private static final Set<String> WAITING = Set.of("idle", "pause");
    /** Writes to the agent's own memory and settings: what it notes about the task, not the task's world. */
    private static final Set<String> BOOKKEEPING = Set.of("diary_entry", "diary_update", "diary_delete", "diary_pin",
            "diary_unpin", "memory_add", "memory_delete", "concept_add", "concept_update", "concept_delete",
            "concept_pin", "concept_unpin", "link_add", "link_delete", "unlink", "goal_add", "task_add", "goal_update",
            "task_update", "goal_pin", "goal_unpin", "task_pin", "task_unpin", "note_tag", "note_mark_read",
            "notes_mode", "settings_set", "rating_add", "process_close", "process_cleanup", "cleanup", "identity_update",
            "llm_select", "peer_add", "peer_update", "peer_delete", "user_add", "user_update", "users_group_add",
            "service_add", "service_update", "service_delete", "account_add", "account_update", "account_delete");
    /** Commands whose result is what the outside world printed: only the runner's own timing is folded. */
    private static final Set<String> EXTERNAL = Set.of("shell", "script_run", "llm_task");
    /** The process runner's own first line: "exit 0 after 1.2 s". */
    private static final Pattern RUNNER_HEADER = Pattern.compile("\\A(.*?\\bafter )\\d+(?:\\.\\d+)? s\\b");
    private static final Pattern NO_OUTPUT = Pattern.compile("\\A[^\\n]*\\n\\(no output\\)\\s*\\z");
    /** "created notes/a.md (12 bytes)", "replaced a.md (3 bytes)". */
    private static final Pattern WRITTEN = Pattern.compile("\\A(?:created|replaced) (.+) \\(\\d+ bytes\\)\\z");
    /** "notes/a.md (12 bytes):\n" and the text. */
    private static final Pattern READ = Pattern.compile("\\A(.+?) \\(\\d+ bytes\\):\\n", Pattern.DOTALL);
    /** Ids the agent hands out in its own commands' results. */
    private static final Pattern IDS = Pattern.compile("(?i)\\b((?:note|notes|id|ids|entry|entries|row|rows|tick|pid"
            + "|process|link|concept|memory entry|diary entry|goal|task|version|rating|peer|user|service|account|script"
            + "|table)\\s*#?\\s*)\\d+");
    /** The agent's own times: ISO instants, clock times, and ages or durations it writes ("5 s", "1.2 min"). */
    private static final Pattern OWN_TIMES = Pattern.compile("\\d{4}-\\d\\d-\\d\\dT[0-9:.]+Z?|\\b\\d\\d:\\d\\d(?::\\d\\d)?"
            + "(?:\\.\\d+)?\\b|\\b\\d+(?:\\.\\d+)? ?(?:ms|s|sec|seconds?|min|minutes?|h|hours?)\\b");

    private ResultState() { }

    /**
     * The state key of a finished command: {@link #TALK} or {@link #WAIT} and its type for a message or a timer,
     * otherwise {@link #STATE} and a hash of the normalised state.
     */
    public static String of(String type, JsonNode args, String result, boolean failed) {
        // an answer a peer's A2A task waited for is the work it asked for, done: a state (issue 37), not talk
        if (!failed && TALKING.contains(type) && !result.startsWith(A2A_ANSWERED)) return TALK + type;
        if (!failed && WAITING.contains(type)) return WAIT + type;
        if (!failed && BOOKKEEPING.contains(type)) return OWN + type;
        String r = Fingerprint.FRESH_IDS.matcher(result.strip()).replaceAll("#id");
        boolean external = EXTERNAL.contains(type) || type.startsWith("mcp.");   // an MCP tool's words are the world's
        String folded = external ? RUNNER_HEADER.matcher(r).replaceFirst("$1# s")
                : OWN_TIMES.matcher(IDS.matcher(r).replaceAll("$1#")).replaceAll("#t");
        String state;
        if (failed) {
            state = "fail " + type + "=" + folded;
        } else if (external) {
            // a process that printed nothing is known by what it was asked to do; otherwise by what it printed
            state = NO_OUTPUT.matcher(folded).matches() ? "did " + Fingerprint.canonical(args(args)) + "=" + folded
                    : "out=" + folded;
        } else {
            state = file(type, args, r).orElse(type + ":" + Fingerprint.canonical(args(args)) + "=" + folded);
        }
        return STATE + Fingerprint.hashText(state.replaceAll("\\s+", " "));
    }

    /** A file's content under its path, for a write and a read: one state however it was reached. */
    private static java.util.Optional<String> file(String type, JsonNode args, String result) {
        if (type.equals("file_write")) {
            Matcher m = WRITTEN.matcher(result);
            JsonNode content = args(args).path("content");
            if (m.matches() && content.isTextual()) return java.util.Optional.of(fileState(m.group(1), content.asText()));
        } else if (type.equals("file_read")) {
            Matcher m = READ.matcher(result);
            if (m.lookingAt()) return java.util.Optional.of(fileState(m.group(1), result.substring(m.end())));
        }
        return java.util.Optional.empty();
    }

    private static String fileState(String path, String content) {
        return "file " + path + "#" + Fingerprint.hashText(content);
    }

    private static JsonNode args(JsonNode args) {
        return args == null ? com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode() : args;
    }

    /** Whether {@code key} is a state of the world (not a message or a timer). */
    public static boolean isState(String key) {
        return key != null && !key.startsWith(TALK) && !key.startsWith(WAIT) && !key.startsWith(OWN);
    }

    /** Whether {@code key} is a message to a person. */
    public static boolean isTalk(String key) {
        return key != null && key.startsWith(TALK);
    }
}

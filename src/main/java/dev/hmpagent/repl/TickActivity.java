package dev.hmpagent.repl;

import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.store.ProcessStatus;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What one tick did besides talking to the person, as the quiet transcript says it on one line:
 * "wrote a diary entry, 2 memory notes, ran shell ×2; 1 command failed (/verbose normal shows why)".
 */
final class TickActivity {
    /** Phrases for the commonest commands: singular and plural (with %d). */
    private static final Map<String, String[]> PHRASES = Map.ofEntries(
            Map.entry("diary_entry", new String[] {"wrote a diary entry", "wrote %d diary entries"}),
            Map.entry("memory_add", new String[] {"saved a memory note", "saved %d memory notes"}),
            Map.entry("concept_add", new String[] {"added a concept", "added %d concepts"}),
            Map.entry("link_add", new String[] {"linked two concepts", "added %d links"}),
            Map.entry("file_write", new String[] {"wrote a file", "wrote %d files"}),
            Map.entry("file_read", new String[] {"read a file", "read %d files"}),
            Map.entry("shell", new String[] {"ran a shell command", "ran %d shell commands"}),
            Map.entry("note_mark_read", new String[] {"marked a note read", "marked %d notes read"}),
            Map.entry("goal_add", new String[] {"set a goal", "set %d goals"}),
            Map.entry("settings_set", new String[] {"changed a setting", "changed %d settings"}));

    private final Map<String, Integer> done = new LinkedHashMap<>();
    /** Commands still running (a shell command started, its result to come): not a failure. */
    private final Map<String, Integer> started = new LinkedHashMap<>();
    /** The failed commands, each once however often it is reported ("tick/cmd_id"). */
    private final Set<String> failed = new HashSet<>();
    /** Ticks whose command block could not be read (rows named {@value #UNREADABLE}): a slip, not a failed command. */
    private final Set<Long> unreadable = new HashSet<>();
    static final String UNREADABLE = "command_parse";

    void add(AgentEvent.CommandDone c) {
        ProcessStatus status = ProcessStatus.fromColumn(c.status());
        if (status == ProcessStatus.RUNNING || status == ProcessStatus.PENDING) {
            started.merge(c.type(), 1, Integer::sum);
            return;
        }
        boolean ok = status == ProcessStatus.OK || status == ProcessStatus.CLOSE || status == ProcessStatus.WARNING;
        if (!ok && c.type().equals(UNREADABLE)) {
            unreadable.add(c.tickId());
            return;
        }
        if (!ok) {
            failed.add(c.tickId() + "/" + c.cmdId());
            return;
        }
        if (c.type().equals("send_message")) return;   // the message itself was shown
        done.merge(c.type(), 1, Integer::sum);
    }

    void clear() {
        done.clear();
        started.clear();
        failed.clear();
        unreadable.clear();
    }

    Optional<String> summary() {
        List<String> parts = new ArrayList<>();
        done.forEach((type, n) -> {
            String[] phrase = PHRASES.get(type);
            if (phrase != null) parts.add(n == 1 ? phrase[0] : String.format(phrase[1], n));
            else parts.add("ran " + type + (n == 1 ? "" : " ×" + n));
        });
        started.forEach((type, n) -> parts.add(type.equals("shell")
                ? (n == 1 ? "started a shell command" : "started " + n + " shell commands")
                : "started " + type + (n == 1 ? "" : " ×" + n)));
        String line = String.join(", ", parts);
        if (!failed.isEmpty()) {
            line += (line.isEmpty() ? "" : "; ") + failed.size() + (failed.size() == 1 ? " command" : " commands")
                    + " failed (/verbose normal shows why)";
        }
        if (!unreadable.isEmpty()) {
            line += (line.isEmpty() ? "" : "; ") + "the model's command block could not be read"
                    + (failed.isEmpty() ? " (/verbose normal shows why)" : "");
        }
        return line.isEmpty() ? Optional.empty() : Optional.of(line);
    }
}

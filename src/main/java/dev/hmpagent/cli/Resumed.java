package dev.hmpagent.cli;

import dev.hmpagent.text.Text;
import dev.hmpagent.store.NoteRow;
import dev.hmpagent.store.Store;
import java.util.ArrayList;
import java.util.List;

/**
 * The last exchanges with the person, shown when the REPL starts, so they know which mind they are talking to:
 * "resumed: the last exchanges in agent.db", then up to {@value #NOTES} messages one line each.
 */
final class Resumed {
    static final int NOTES = 6;
    private static final java.util.regex.Pattern CONTROL = java.util.regex.Pattern.compile("\\p{Cc}");

    private Resumed() { }

    /** Reads on {@code store} and closes it; a file that cannot be read shows nothing. */
    static List<String> lines(Store store, int width) {
        List<NoteRow> notes;
        try (store) {
            notes = store.tables().notes().latestConversation(NOTES);
        } catch (RuntimeException e) {   // a best-effort greeting: an unreadable file shows no history, never a crash
            return List.of();
        }
        if (notes.isEmpty()) return List.of();
        List<String> lines = new ArrayList<>();
        lines.add("resumed: the last exchanges in " + store.path().getFileName() + " (/notes shows more)");
        for (NoteRow n : notes) {
            String who = n.source().equals("llm") ? "  agent> " : "  you> ";
            lines.add(Text.fit(who + CONTROL.matcher(n.text().replace('\n', ' ')).replaceAll("").strip(), width - 1));
        }
        return lines;
    }


}

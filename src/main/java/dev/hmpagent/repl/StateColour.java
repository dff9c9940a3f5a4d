package dev.hmpagent.repl;

import java.util.List;
import org.jline.utils.AttributedString;
import org.jline.utils.AttributedStringBuilder;
import org.jline.utils.AttributedStyle;

/**
 * The status line, dim, with the safety state that leads it in colour when the agent is not thinking: red for a
 * lockout or a stop, yellow for a pause or the reflex's rest. ACTIVE stays dim, so a stopped agent is seen at a glance.
 */
final class StateColour {
    private static final AttributedStyle DIM = AttributedStyle.DEFAULT.faint();
    private static final AttributedStyle RED = AttributedStyle.BOLD.foreground(AttributedStyle.RED);
    private static final AttributedStyle YELLOW = AttributedStyle.BOLD.foreground(AttributedStyle.YELLOW);
    private static final List<String> RED_STATES = List.of("SAFETY_LOCKOUT", "STOPPED");
    private static final List<String> YELLOW_STATES = List.of("ERROR_PAUSED", "RESTING");

    private StateColour() { }

    /** {@code line} ("SAFETY_LOCKOUT · waiting for event · tick 12 · …") styled. */
    static AttributedString statusLine(String line) {
        int end = 0;
        while (end < line.length() && line.charAt(end) != ' ' && line.charAt(end) != '(') end++;
        String state = line.substring(0, end);
        AttributedStyle style = RED_STATES.contains(state) ? RED : YELLOW_STATES.contains(state) ? YELLOW : null;
        if (style == null) return new AttributedStringBuilder().styled(DIM, line).toAttributedString();
        int label = line.indexOf(' ', end);   // with its reason: "STOPPED(halt)"
        int cut = label < 0 ? line.length() : label;
        return new AttributedStringBuilder().styled(style, line.substring(0, cut)).styled(DIM, line.substring(cut))
                .toAttributedString();
    }
}

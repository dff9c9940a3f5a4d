package dev.hmpagent.commands;

import dev.hmpagent.store.SettingsDao;
import java.util.Objects;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The model's format slips (issue 22): a command the agent could not read, or whose arguments do not fit its
 * command. A slip is not a failure of the world: the SafetyMonitor does not count it; instead the next request carries
 * the exact error and one correct example, at most {@value #MAX_CORRECTIONS} times in a row. The slip of the reply
 * after that is recorded but wakes nothing: the person is shown the reply's text and the agent waits for the next
 * event. A reply without a slip, or a reply to a person's message, starts the count afresh.
 *
 * <p>The count lives in the {@code config} table under {@value #KEY} and is written in the transaction of the reply
 * or row it counts, so a restart neither forgets a chain of corrections nor starts one again. Tick thread only.
 */
public final class FormatSlips {
    /** Follow-up calls caused only by slips, in a row. */
    public static final int MAX_CORRECTIONS = 2;
    /** The {@code config} key holding "slips-in-a-row last-slip-tick last-reply-tick". */
    public static final String KEY = "cycle.format_slips";

    /** A whole command to copy when the command named cannot be told: the shape every reply's block takes. */
    static final String GENERAL = "a correct block is the line \"# Commands:\", then a JSON array of objects with"
            + " double-quoted names and strings, e.g. [{\"cmd_id\": \"c-1\", \"type\": \"send_message\", \"args\":"
            + " {\"text\": \"...\"}}], then the line \"# End commands\"";

    /** Where a command names its type, as models write it: "type": "x", 'type': 'x', type: x. */
    private static final Pattern TYPE = Pattern.compile("[\"']?type[\"']?\\s*:\\s*[\"']?([A-Za-z_][A-Za-z0-9_]*)");

    private record Count(int inRow, long lastSlipTick, long lastReplyTick) {
        String text() {
            return inRow + " " + lastSlipTick + " " + lastReplyTick;
        }
    }

    private final CommandRegistry registry;
    private final SettingsDao settings;

    public FormatSlips(CommandRegistry registry, SettingsDao settings) {
        this.registry = Objects.requireNonNull(registry, "registry");
        this.settings = Objects.requireNonNull(settings, "settings");
    }

    /**
     * Inside the transaction of tick {@code tickId}'s reply, before its rows: the count goes on only when the reply
     * before it slipped and this one answers no person's message.
     */
    public void replyWritten(long tickId, boolean personMessage) {
        Count c = read();
        // no chain of slips: nothing to count on or reset, and the last reply's tick only matters within a chain
        // (slipped() starts one at any tick), so the usual reply costs no write
        if (c.inRow() == 0) return;
        boolean goesOn = !personMessage && c.lastSlipTick() == c.lastReplyTick();
        save(new Count(goesOn ? c.inRow() : 0, c.lastSlipTick(), tickId));
    }

    /**
     * Inside the transaction of a slip's row of tick {@code tickId} (counted once per reply): true when the row wakes
     * the LLM for a correction, false past {@value #MAX_CORRECTIONS} corrections in a row.
     */
    public boolean slipped(long tickId) {
        Count c = read();
        if (c.lastSlipTick() != tickId) {
            c = new Count(c.inRow() + 1, tickId, Math.max(tickId, c.lastReplyTick()));
            save(c);
        }
        return c.inRow() <= MAX_CORRECTIONS;
    }

    /** Whether the reply of {@code tickId} slipped and a call follows to correct it. */
    public boolean correcting(long tickId) {
        Count c = read();
        return c.lastSlipTick() == tickId && c.inRow() <= MAX_CORRECTIONS;
    }

    /** Whether the reply of {@code tickId} slipped once more than may be corrected: no call follows for it. */
    public boolean gaveUp(long tickId) {
        Count c = read();
        return c.lastSlipTick() == tickId && c.inRow() > MAX_CORRECTIONS;
    }

    /**
     * The correction for an error about {@code text} (the error, the excerpt of the command): one correct command of
     * the type it names, when that type is known; else the general shape of a block.
     */
    public String correction(String text) {
        Matcher m = TYPE.matcher(text);
        return m.find() ? correctionFor(m.group(1)) : GENERAL;
    }

    /** One correct command of {@code type}, or the general shape of a block when no such command exists. */
    public String correctionFor(String type) {
        return registry.find(type).map(FormatSlips::example).orElse(GENERAL);
    }

    /** One correct command of {@code h}'s type. */
    static String example(CommandHandler h) {
        return "a correct " + h.type() + " command: {\"cmd_id\": \"c-1\", \"type\": \"" + h.type() + "\", \"args\": "
                + h.argsExample() + "}";
    }

    private Count read() {
        String[] parts = settings.get(KEY).orElse("").trim().split("\\s+");
        if (parts.length != 3) return new Count(0, 0, 0);
        try {
            return new Count(Integer.parseInt(parts[0]), Long.parseLong(parts[1]), Long.parseLong(parts[2]));
        } catch (NumberFormatException unreadable) {   // start afresh rather than not at all
            return new Count(0, 0, 0);
        }
    }

    private void save(Count c) {
        settings.put(KEY, c.text());
    }
}

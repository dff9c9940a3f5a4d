package dev.hmpagent.cycle;

import dev.hmpagent.commands.ParsedReply;
import dev.hmpagent.commands.ReplySecrets;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.store.ProcessLogDao;
import java.util.Objects;

/**
 * Whether a person's message got an answer on screen. A turn opens when a reply to a person's message is written and
 * closes when a message reaches the person ({@code send_message}). While it is open, a reply of prose alone (no
 * command) shows it instead ({@link AgentEvent.ProseAnswer}); the prose of a reply that works (runs commands) is a
 * thought on the way, held, and shown only if the turn ends with nothing else shown; when the agent goes quiet (nothing left to think about,
 * nothing running) with nothing shown at all, one line says so and what to do, and {@link #unanswered()} holds (a pipe
 * exits 8 for it). All of it on the tick thread, but {@link #unanswered()} and {@link #leaving()}, which a pipe asks
 * once the loop has ended.
 */
final class Answers {
    private final EventSink events;
    private final ProcessLogDao processLog;
    private final ReplySecrets secrets;

    // guarded by this
    /** A person's message waits for a message in answer. */
    private boolean open;
    /** The open turn showed a reply's prose. */
    private boolean shown;
    /** The last reply of the open turn, and why it had nothing to show. */
    private long lastTick;
    private String nothingShown = "";
    /** The prose of the open turn's last working reply (one that ran commands), not shown yet; "" for none. */
    private String held = "";
    private long heldTick;
    /** A turn ended with nothing shown, and no message reached the person since. */
    private boolean unanswered;

    Answers(EventSink events, ProcessLogDao processLog, ReplySecrets secrets) {
        this.secrets = Objects.requireNonNull(secrets, "secrets");
        this.events = Objects.requireNonNull(events, "events");
        this.processLog = Objects.requireNonNull(processLog, "processLog");
    }

    /**
     * A complete reply was written; {@code answersPerson}: it was shown a person's message still unread;
     * {@code stimulus}: something new woke it (a result of the turn's commands, say). A thought of the agent's own
     * (autonomous, or its idle ran out) answers nobody: the turn before it ends there.
     */
    synchronized void replied(boolean answersPerson, boolean stimulus) {
        if (answersPerson) {
            open = true;
            shown = false;
            held = "";
        } else if (open && !stimulus) {
            end();
        }
    }

    /** A message reached the person: the turn is answered. */
    synchronized void messageShown() {
        open = false;
        held = "";
        unanswered = false;
    }

    /**
     * The commands of a reply ran: while the turn is open (no message reached the person), the reply's prose is
     * shown as the answer; {@code showable} is false for a reply that repeated the last one word for word, or whose
     * block is about to be corrected (a reply cut for chanting is shown, cut where its loop began).
     */
    synchronized void ran(long tickId, ParsedReply parsed, boolean showable) {
        if (!open) return;
        lastTick = tickId;
        String prose = secrets.redact(parsed.thought());
        if (showable && !prose.isBlank() && !parsed.commands().isEmpty()) {
            held = prose.strip();
            heldTick = tickId;
            return;
        }
        if (showable && !prose.isBlank()) {
            show(tickId, prose.strip());
            return;
        }
        nothingShown = !showable ? "it repeated itself"
                : parsed.commands().isEmpty() && parsed.errors().isEmpty() ? "its reply was empty"
                : parsed.commands().isEmpty() ? "its reply held only a command block that could not be read"
                : "its reply held only commands, none of them a message to you";
    }

    /** Nothing to think about now: a turn still open with nothing shown, and nothing running that may answer, ends. */
    synchronized void quiet() {
        if (!open || processLog.runningCount() > 0 || processLog.unseenCount() > 0) return;
        end();
    }

    /** The loop has ended (a pipe's input is answered): an open turn with nothing shown ends unanswered. */
    synchronized void leaving() {
        if (open) end();
    }

    private void show(long tickId, String prose) {
        events.emit(new AgentEvent.ProseAnswer(tickId, prose));
        shown = true;
        unanswered = false;
        held = "";
    }

    private void end() {
        open = false;
        if (!shown && !held.isEmpty()) show(heldTick, held);
        if (shown) return;
        unanswered = true;
        events.emit(new AgentEvent.Problem("no answer to your message: the model answered (tick " + lastTick + ") but "
                + nothingShown + ", so there was nothing to show; send your message again, or try another model"));
    }

    /** Whether the last turn ended with nothing shown to the person (the LLM answered, but not so it could be shown). */
    synchronized boolean unanswered() {
        return unanswered;
    }
}

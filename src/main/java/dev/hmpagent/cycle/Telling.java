package dev.hmpagent.cycle;

import dev.hmpagent.commands.CommandRun;
import dev.hmpagent.commands.FormatSlips;
import dev.hmpagent.commands.ParsedReply;
import dev.hmpagent.commands.ReplySecrets;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.llm.Completion;
import dev.hmpagent.store.ProcessLogDao;
import java.util.Objects;

/**
 * What a person is told, all of it in one part: a written reply's thought and how it was cut or what was wrong with it
 * ({@link #written}), each command's outcome and its message ({@link #report}), the notices under an answer once the
 * commands ran ({@link #afterCommands}), and whether a person's message got an answer on screen. A turn opens when a reply to a person's message is written and
 * closes when a message reaches the person ({@code send_message}). While it is open, a reply of prose alone (no
 * command) shows it instead ({@link AgentEvent.ProseAnswer}); the prose of a reply that works (runs commands) is a
 * thought on the way, held, and shown only if the turn ends with nothing else shown; when the agent goes quiet (nothing left to think about,
 * nothing running) with nothing shown at all, one line says so and what to do, and {@link #unanswered()} holds (a pipe
 * exits 8 for it). All of it on the tick thread, but {@link #unanswered()} and {@link #leaving()}, which a pipe asks
 * once the loop has ended.
 */
public final class Telling {
    private final EventSink events;
    private final ProcessLogDao processLog;
    private final ReplySecrets secrets;
    private final FormatSlips slips;

    // guarded by this
    /** A person's message waits for a message in answer. */
    private boolean open;
    /** The open turn showed a reply's prose. */
    private boolean shown;
    /** The last reply of the open turn, and why it had nothing to show. */
    private Reply last = Reply.NONE;
    /** The prose of the open turn's last working reply (one that ran commands), not shown yet; "" for none. */
    private Reply held = Reply.NONE;
    /** A turn ended with nothing shown, and no message reached the person since. */
    private boolean unanswered;

    /** A reply of the turn: its tick, and its prose (or why it had none to show). */
    private record Reply(long tick, String text) {
        static final Reply NONE = new Reply(0, "");
    }

    public Telling(EventSink events, ProcessLogDao processLog, ReplySecrets secrets, FormatSlips slips) {
        this.slips = Objects.requireNonNull(slips, "slips");
        this.secrets = Objects.requireNonNull(secrets, "secrets");
        this.events = Objects.requireNonNull(events, "events");
        this.processLog = Objects.requireNonNull(processLog, "processLog");
    }

    /**
     * A reply was written ({@code written}): the turn learns of it, and the person is told its thought, how it was cut,
     * and what was wrong with it (an empty reply, a repeat, a block that could not be read).
     */
    void written(TickWriter.Thought thought, TickWriter.Written written) {
        if (written.replied()) replied(thought.answersPerson(), thought.reviewed().stimulus());
        long tickId = thought.tickId();
        Completion completion = thought.completion();
        ParsedReply parsed = thought.parsed();
        if (!parsed.thought().isBlank() || completion.interrupted()) {
            events.emit(new AgentEvent.Thought(tickId, secrets.redact(parsed.thought()), completion.interrupted()));
        }
        chanted(thought);
        // a reply to a person with nothing to show says so once the agent goes quiet (the turn's end)
        if (completion.text().isBlank() && !completion.interrupted() && !thought.answersPerson()) {
            events.emit(new AgentEvent.Problem("the model sent an empty reply (tick " + tickId
                    + "): nothing to show; send your message again, or try another model"));
        }
        if (written.stagnation()) {
            events.emit(new AgentEvent.Info("anti-stagnation reflex: the reply repeated the previous one word for word;"
                    + " it was not stored again and its commands did not run again (tick " + tickId + ")", true));
        }
        written.malformed().forEach(run -> report(tickId, run));
    }

    /** A reply cut where it started repeating itself: a person it answers is told what to try. */
    private void chanted(TickWriter.Thought thought) {
        if (!MainCall.CHANT.equals(thought.completion().finishReason())) return;
        long tickId = thought.tickId();
        if (thought.answersPerson()) {
            events.emit(new AgentEvent.Info("the model's reply started repeating itself and was cut there (tick "
                    + tickId + "); none of its commands ran, and it is not asked again until your next message. If it"
                    + " keeps doing this, this model repeats itself: try a larger model, /model NAME"));
        } else {
            events.emit(new AgentEvent.Info("the reply of tick " + tickId + " started repeating itself and was cut there"
                    + " (the rest of its tokens saved); none of its commands ran, and the model is told", true));
        }
    }

    /** Shows one command's outcome, and its message to the person if it has one (which answers the turn). */
    void report(long tickId, CommandRun run) {
        run.messageToUser().ifPresent(m -> {
            events.emit(new AgentEvent.MessageToUser(tickId, m.noteId(), m.text()));
            messageShown();
        });
        events.emit(new AgentEvent.CommandDone(tickId, run.cmdId(), run.type(), run.status(), run.result()));
    }

    /**
     * After a written reply's commands ran: its prose is shown as the answer while the turn is open (a send_message
     * among the commands was the answer, and the prose is not; a reply whose block is about to be corrected is not an
     * answer yet), then how the reply was cut, if it was; when its block slipped once more than the agent corrects, that
     * the agent waits for the person (a new message or result wakes it as usual).
     */
    void afterCommands(TickWriter.Thought thought, TickWriter.Written written) {
        long tickId = thought.tickId();
        if (written.replied()) ran(tickId, thought.parsed(), !written.stagnation() && !slips.correcting(tickId));
        // said under the answer it is about, once that is shown
        String finish = thought.completion().finishReason();
        if ("length".equals(finish)) {
            events.emit(new AgentEvent.Info("the reply of tick " + tickId + " reached its length limit (llm.max_tokens,"
                    + " or 4 Mi characters) and was cut there"));
        }
        if (Completion.EVENT_CUT.equals(finish)) {
            events.emit(new AgentEvent.Info("the reply of tick " + tickId + " sent one stream event over 1 MB: what fit"
                    + " was kept and the reply was cut there (the server answered; this is not an outage)"));
        }
        if (!slips.gaveUp(tickId)) return;
        events.emit(new AgentEvent.Info("the model's command block could not be read " + (FormatSlips.MAX_CORRECTIONS
                + 1) + " times in a row, so it is not asked to correct it again; waiting for your next message"));
    }

    /**
     * A complete reply was written; {@code answersPerson}: it was shown a person's message still unread;
     * {@code stimulus}: something new woke it (a result of the turn's commands, say). A thought of the agent's own
     * (autonomous, or its idle ran out) answers nobody: the turn before it ends there.
     */
    private synchronized void replied(boolean answersPerson, boolean stimulus) {
        if (answersPerson) {
            open = true;
            shown = false;
            held = Reply.NONE;
        } else if (open && !stimulus) {
            end();
        }
    }

    /** A message reached the person: the turn is answered. */
    private synchronized void messageShown() {
        open = false;
        held = Reply.NONE;
        unanswered = false;
    }

    /**
     * The commands of a reply ran: while the turn is open (no message reached the person), the reply's prose is
     * shown as the answer; {@code showable} is false for a reply that repeated the last one word for word, or whose
     * block is about to be corrected (a reply cut for chanting is shown, cut where its loop began).
     */
    private synchronized void ran(long tickId, ParsedReply parsed, boolean showable) {
        if (!open) return;
        last = new Reply(tickId, last.text());
        String prose = secrets.redact(parsed.thought());
        if (showable && !prose.isBlank() && !parsed.commands().isEmpty()) {
            held = new Reply(tickId, prose.strip());
            return;
        }
        if (showable && !prose.isBlank()) {
            show(tickId, prose.strip());
            return;
        }
        last = new Reply(tickId, !showable ? "it repeated itself"
                : parsed.commands().isEmpty() && parsed.errors().isEmpty() ? "its reply was empty"
                : parsed.commands().isEmpty() ? "its reply held only a command block that could not be read"
                : "its reply held only commands, none of them a message to you");
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
        held = Reply.NONE;
    }

    private void end() {
        open = false;
        if (!shown && !held.text().isEmpty()) show(held.tick(), held.text());
        if (shown) return;
        unanswered = true;
        events.emit(new AgentEvent.Problem("no answer to your message: the model answered (tick " + last.tick() + ") but "
                + last.text() + ", so there was nothing to show; send your message again, or try another model"));
    }

    /** Whether the last turn ended with nothing shown to the person (the LLM answered, but not so it could be shown). */
    synchronized boolean unanswered() {
        return unanswered;
    }
}

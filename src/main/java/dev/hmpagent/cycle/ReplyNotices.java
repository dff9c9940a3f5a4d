package dev.hmpagent.cycle;

import dev.hmpagent.commands.FormatSlips;
import dev.hmpagent.commands.ParsedReply;
import dev.hmpagent.commands.ReplySecrets;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.llm.Completion;
import java.util.Objects;

/**
 * What a person is told once a reply is written: the thought, how the reply was cut, and what was wrong with it; once
 * its commands ran, that the model's block could not be read once more than the agent corrects (issue 22).
 */
final class ReplyNotices {
    private final EventSink events;
    private final ReplySecrets secrets;
    private final CommandStep commands;
    private final FormatSlips slips;

    ReplyNotices(EventSink events, ReplySecrets secrets, CommandStep commands, FormatSlips slips) {
        this.slips = Objects.requireNonNull(slips, "slips");
        this.events = Objects.requireNonNull(events, "events");
        this.secrets = Objects.requireNonNull(secrets, "secrets");
        this.commands = Objects.requireNonNull(commands, "commands");
    }

    void afterCommit(TickWriter.Thought thought, TickWriter.Written written) {
        long tickId = thought.tickId();
        Completion completion = thought.completion();
        ParsedReply parsed = thought.parsed();
        if (!parsed.thought().isBlank() || completion.interrupted()) {
            events.emit(new AgentEvent.Thought(tickId, secrets.redact(parsed.thought()), completion.interrupted()));
        }
        if (MainCall.CHANT.equals(completion.finishReason()) && thought.answersPerson()) {
            events.emit(new AgentEvent.Info("the model's reply started repeating itself and was cut there (tick "
                    + tickId + "); none of its commands ran, and it is not asked again until your next message. If it"
                    + " keeps doing this, this model repeats itself: try a larger model, /model NAME"));
        } else if (MainCall.CHANT.equals(completion.finishReason())) {
            events.emit(new AgentEvent.Info("the reply of tick " + tickId + " started repeating itself and was cut there"
                    + " (the rest of its tokens saved); none of its commands ran, and the model is told", true));
        }
        // a reply to a person with nothing to show says so once the agent goes quiet (Answers)
        if (completion.text().isBlank() && !completion.interrupted() && !thought.answersPerson()) {
            events.emit(new AgentEvent.Problem("the model sent an empty reply (tick " + tickId
                    + "): nothing to show; send your message again, or try another model"));
        }
        if (written.stagnation()) {
            events.emit(new AgentEvent.Info("anti-stagnation reflex: the reply repeated the previous one word for word;"
                    + " it was not stored again and its commands did not run again (tick " + tickId + ")", true));
        }
        written.malformed().forEach(run -> commands.report(tickId, run));
    }

    /** Whether the block of {@code tickId}'s reply slipped and the model is asked to correct it. */
    boolean correcting(long tickId) {
        return slips.correcting(tickId);
    }

    /**
     * After the reply's commands ran and its answer was shown: how the reply was cut, if it was; when its block slipped once more than the agent corrects, no call follows for
     * it; the person is told that the agent waits for them (a new message or result wakes it as usual). The reply's
     * text, if any, is shown as its answer (or as its thought, when it answers nobody).
     */
    void afterCommands(TickWriter.Thought thought) {
        long tickId = thought.tickId();
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
}

package dev.hmpagent.a2a.client;

import dev.hmpagent.a2a.Trace;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.catalogue.PeerLink;
import dev.hmpagent.safety.ErrorCode;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

/**
 * The {@link PeerLink} of a running agent: each {@code peer_message} is sent on a thread of its own through the
 * {@link A2aClient}, its answer (or the one line of what went wrong) handed back as the command's outcome, and its
 * outgoing note's delivery moved on ({@link Deliveries}). A halt ({@link #cancelAll}) aborts every send in flight and
 * asks each peer that named its task to cancel it ({@code CancelTask}); the row ends EHALT.
 */
public final class PeerSends implements PeerLink {
    /** Where a send's delivery status is written (on the send's thread, so on a connection of its own). */
    @FunctionalInterface
    public interface Deliveries {
        /** The outgoing note {@code noteId} is now {@code status} ({@code delivered} or {@code failed}). */
        void mark(long noteId, String status);
    }

    private final A2aClient client;
    private final Deliveries deliveries;
    private final Map<Long, Sending> running = new ConcurrentHashMap<>();

    public PeerSends(A2aClient client, Deliveries deliveries) {
        this.client = Objects.requireNonNull(client, "client");
        this.deliveries = Objects.requireNonNull(deliveries, "deliveries");
    }

    @Override
    public Card fetchCard(String url) {
        AgentCard card = client.fetchCard(url);
        return new Card(card.name(), card.description(), card.json());
    }

    @Override
    public String describe(String cardJson) {
        try {
            return AgentCard.parse(cardJson, "the stored card").describe();
        } catch (PeerLink.Failure e) {
            return e.getMessage() + "; fetch it again with agent peers add";
        }
    }

    @Override
    public Optional<CommandOutcome> send(Outgoing message, Consumer<CommandOutcome> onDone) {
        Sending sending = new Sending();
        running.put(message.processLogId(), sending);
        Thread t = new Thread(() -> {
            CommandOutcome outcome;
            try {
                outcome = exchange(message, sending);
            } finally {
                running.remove(message.processLogId());
            }
            try {
                deliveries.mark(message.noteId(), outcome.failed() ? "failed" : "delivered");
            } finally {
                onDone.accept(outcome);   // the row never stays running
            }
        }, "a2a-send-" + message.processLogId());
        t.setDaemon(true);
        t.start();
        return Optional.empty();
    }

    /** The whole exchange with the peer, as the command's outcome; never throws a {@link PeerLink.Failure}. */
    private CommandOutcome exchange(Outgoing message, Sending sending) {
        String peer = message.peerName();
        AgentCard card = null;
        try {
            card = message.cardJson().isEmpty() ? client.fetchCard(message.url())
                    : AgentCard.parse(message.cardJson(), "the stored card of " + peer);
            Trace trace = Trace.parse(message.taskTrace()).then(message.self());
            Answer answer = client.send(card, message.tokenEnv(), message.text(), trace.array(), sending);
            if (sending.cancelled()) return halted(peer, card, message, sending);
            return outcome(peer, answer);
        } catch (PeerLink.Failure e) {
            if (sending.cancelled() || e.code().equals(ErrorCode.EHALT)) return halted(peer, card, message, sending);
            return CommandOutcome.error(e.code(), "peer_message: " + peer + " " + e.getMessage());
        }
    }

    private static CommandOutcome outcome(String peer, Answer answer) {
        String text = answer.text().isBlank() ? "(no text)" : answer.text();
        if (answer.answered()) {
            String asks = answer.state().equals("TASK_STATE_INPUT_REQUIRED") ? " asks back" : " answered";
            return CommandOutcome.ok(peer + asks + ":\n" + text);
        }
        if (!answer.finished()) {
            return CommandOutcome.warning(peer + " has not finished (task " + answer.taskId() + ", " + answer.stateWord()
                    + "); what it said so far:\n" + text);
        }
        return CommandOutcome.error(ErrorCode.EUNKNOWN, "peer_message: " + peer + " ended the task "
                + answer.stateWord() + ": " + text);
    }

    /** A halted send: the peer is asked to cancel the task it named, and the row ends EHALT. */
    private CommandOutcome halted(String peer, AgentCard card, Outgoing message, Sending sending) {
        String cancelled = "";
        Optional<String> task = sending.taskId();
        if (card != null && task.isPresent()) {
            try {
                client.cancelTask(card, message.tokenEnv(), task.get());
                cancelled = "; its task " + task.get() + " was cancelled there";
            } catch (PeerLink.Failure e) {
                cancelled = "; cancelling its task " + task.get() + " failed: " + e.getMessage();
            }
        }
        return CommandOutcome.error(ErrorCode.EHALT, "peer_message: the send to " + peer + " was stopped by a halt"
                + cancelled);
    }

    /** The send of row {@code processLogId} while it is in flight. */
    Optional<Sending> sending(long processLogId) {
        return Optional.ofNullable(running.get(processLogId));
    }

    /** Cancels every send in flight (a halt); returns how many. */
    public int cancelAll() {
        running.values().forEach(Sending::cancel);
        return running.size();
    }
}

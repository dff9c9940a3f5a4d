package dev.hmpagent.a2a.server;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.a2a.A2aWire;
import dev.hmpagent.a2a.Trace;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.SafetyGate;
import dev.hmpagent.safety.SafetyStatus;
import dev.hmpagent.store.A2aTasksDao;
import dev.hmpagent.store.A2aTasksDao.Task;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.Store;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.UUID;

/**
 * The tasks the server keeps for its callers, on its own connection to the agent's file (HTTP threads take turns on
 * it): a caller's message becomes a note from that peer and a task in one transaction, with a wake-up for a running
 * agent, as {@code agent note} hands a note over; the agent's {@code note_reply} to that note completes it. A caller
 * sees and cancels only its own tasks.
 */
final class ServedTasks {
    /** The tag of a note a caller's A2A message became. */
    static final String TAG = "a2a";

    private final Store store;
    private final String self;

    ServedTasks(Store store) {
        this.store = Objects.requireNonNull(store, "store");
        this.self = store.inTransaction(() -> store.tables().identity().own());
    }

    /** The agent's id, as traces name it. */
    String self() {
        return self;
    }

    /**
     * A restart finds the tasks whose note the agent had read but not answered: each message is handed to the agent
     * again as a new note from the peer (a new note wakes it; the old one stays as it was), so the agent reads and
     * answers it anew (resumed, never dropped). Returns how many.
     */
    int resumeInFlight() {
        synchronized (store) {
            return store.inTransaction(() -> {
                List<Task> inFlight = store.tables().a2aTasks().inFlight();
                for (Task t : inFlight) {
                    String text = store.tables().notes().get(t.noteId()).map(n -> n.text()).orElse(t.message());
                    long note = store.tables().notes().add("(again: this agent stopped before it answered)\n" + text,
                            "peer", 0, TAG);
                    store.tables().a2aTasks().moveNote(t.id(), note);
                    store.tables().controlRequests().add("note", Long.toString(note), Requester.thisProcess());
                }
                return inFlight.size();
            });
        }
    }

    /**
     * Takes {@code message} from {@code caller}: a rejected task when its trace holds this agent or is too deep,
     * otherwise a note and a submitted task. {@code message} is the wire message (its ids are set here).
     */
    Task accept(String caller, ObjectNode message, int maxDepth) {
        Trace trace = Trace.of(message);
        String id = UUID.randomUUID().toString();
        String context = message.path("contextId").asText("");
        String contextId = context.isBlank() ? UUID.randomUUID().toString() : context;
        message.put("contextId", contextId).put("taskId", id);
        String text = A2aWire.text(message);
        Optional<String> refused = trace.refusal(self, maxDepth);
        synchronized (store) {
            return store.inTransaction(() -> {
                A2aTasksDao tasks = store.tables().a2aTasks();
                if (refused.isPresent()) {
                    tasks.add(id, contextId, 0, caller, message.toString(), trace.json());
                    tasks.end(id, "rejected", null, refused.get());
                } else {
                    long note = store.tables().notes().add(noteText(caller, id, text), "peer", 0, TAG);
                    tasks.add(id, contextId, note, caller, message.toString(), trace.json());
                    store.tables().controlRequests().add("note", Long.toString(note), Requester.thisProcess());
                }
                return tasks.get(id).orElseThrow();
            });
        }
    }

    /** What the agent reads: who asks, that the answer goes back by note_reply, then the caller's words. */
    static String noteText(String caller, String taskId, String text) {
        return "A2A message from peer " + caller + " (task " + taskId + "); answer it with note_reply to this note,"
                + " which is sent back to the peer:\n" + text;
    }

    Optional<Task> get(String caller, String id) {
        synchronized (store) {
            return store.tables().a2aTasks().get(id).filter(t -> t.caller().equals(caller));
        }
    }

    List<Task> list(String caller, String contextId, String state, String before, int limit) {
        synchronized (store) {
            return store.tables().a2aTasks().list(contextId, state, caller, before, limit);
        }
    }

    /** Cancels a task not ended: its note is marked read, so the agent does not answer it; empty when it had ended. */
    Optional<Task> cancel(Task t) {
        synchronized (store) {
            return store.inTransaction(() -> {
                if (!store.tables().a2aTasks().end(t.id(), "canceled", null, "canceled by " + t.caller())) {
                    return Optional.empty();
                }
                store.tables().notes().markRead(List.of(t.noteId()), 0);
                return store.tables().a2aTasks().get(t.id());
            });
        }
    }

    /** Task {@code t} with why it waits when the agent is not thinking now (said in its status), else as it is. */
    Task withAway(Task t) {
        Optional<String> away = agentAway();
        if (away.isEmpty() || t.ended()) return t;
        synchronized (store) {
            return store.inTransaction(() -> {
                store.tables().a2aTasks().waiting(t.id(), away.get());
                return store.tables().a2aTasks().get(t.id()).orElse(t);
            });
        }
    }

    /** The tokens {@code caller}'s tasks of the last 24 hours cost the agent. */
    long spentToday(String caller) {
        synchronized (store) {
            return store.tables().a2aTasks().tokensOf(caller, Store.format(store.clock().instant()
                    .minus(java.time.Duration.ofDays(1))));
        }
    }

    /** The agent's state when it is not thinking now (locked, halted, paused, resting): why a task waits. */
    Optional<String> agentAway() {
        SafetyStatus state;
        synchronized (store) {
            state = new SafetyControl(store).current();
        }
        if (state.active()) return Optional.empty();
        return Optional.of("the agent is not thinking now (" + SafetyGate.describe(state) + "); the message waits and is"
                + " answered once a person releases it");
    }
}

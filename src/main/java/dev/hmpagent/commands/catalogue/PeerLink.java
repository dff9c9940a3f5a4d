package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.safety.ErrorCode;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * How the peers family reaches other agents over A2A (issue 37): the A2A client lives in a room the commands room may
 * not import, so it arrives through this port, made by the composition root ({@link CatalogueTools#peers()}).
 */
public interface PeerLink {
    /** A run without an A2A client: nothing is fetched or sent, and each attempt says so in one line. */
    PeerLink NONE = new PeerLink() {
        @Override
        public Card fetchCard(String url) {
            throw new Failure(ErrorCode.EOFFLINE, "this run has no A2A client; add the peer from a running agent "
                    + "(agent peers add NAME URL)");
        }

        @Override
        public String describe(String cardJson) {
            return "(no A2A client in this run to read the card)";
        }

        @Override
        public Optional<CommandOutcome> send(Outgoing message, Consumer<CommandOutcome> onDone) {
            return Optional.of(CommandOutcome.error(ErrorCode.EOFFLINE, "peer_message: this run has no A2A client; "
                    + "nothing was sent to " + message.peerName()));
        }
    };

    /** Fetches and checks the agent card of the agent at {@code url}; throws {@link Failure} with one line. */
    Card fetchCard(String url);

    /** What a person or the LLM reads of a stored card: name, description, skills, streaming, whether it needs a token. */
    String describe(String cardJson);

    /**
     * Sends {@code message} off the tick: returns empty when the send started (its outcome comes through {@code onDone},
     * once, from any thread), or the outcome that ended it at once.
     */
    Optional<CommandOutcome> send(Outgoing message, Consumer<CommandOutcome> onDone);

    /** A peer's card as fetched: its name and description, and the card as JSON (stored in {@code agent_peers.card}). */
    record Card(String name, String description, String json) {
        public Card {
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(description, "description");
            Objects.requireNonNull(json, "json");
        }
    }

    /**
     * A message to a peer, as {@code peer_message} hands it over.
     *
     * @param processLogId its command's row
     * @param noteId       the outgoing note that keeps it ({@code delivery_status} moves on as the send goes)
     * @param peerName     the peer as the LLM knows it
     * @param url          the peer's URL (where its card is)
     * @param cardJson     the card stored when the peer was added (empty: fetched now)
     * @param tokenEnv     the NAME of the environment variable holding the peer's token; empty for none
     * @param text         what to send
     * @param taskTrace    the trace (a JSON array) of the A2A task this agent is working on, {@code []} for none
     * @param self         this agent's id, which the trace gets after {@code taskTrace}
     */
    record Outgoing(long processLogId, long noteId, String peerName, String url, String cardJson, String tokenEnv,
                    String text, String taskTrace, String self) {
        public Outgoing {
            Objects.requireNonNull(peerName, "peerName");
            Objects.requireNonNull(url, "url");
            Objects.requireNonNull(cardJson, "cardJson");
            Objects.requireNonNull(tokenEnv, "tokenEnv");
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(taskTrace, "taskTrace");
            Objects.requireNonNull(self, "self");
        }
    }

    /** What went wrong reaching a peer, in one line, with its {@link ErrorCode}. */
    final class Failure extends RuntimeException {
        private final String code;

        public Failure(String code, String line) {
            super(line);
            this.code = Objects.requireNonNull(code, "code");
        }

        public String code() {
            return code;
        }
    }
}

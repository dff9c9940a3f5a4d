package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.Args;
import dev.hmpagent.commands.CommandContext;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.CommandRun;
import dev.hmpagent.commands.ExternalCommand;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.Optional;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.PeersDao;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class PeerCommandsTest extends RegistryCommandsFixture {

    @Test
    void peers_are_added_listed_updated_and_forgotten() {
        List<CommandRun> runs = run(1, """
                [{"type": "peer_add", "args": {"name": "postman", "did": "did:hmp:postman", "address": "tcp://10.0.0.5:4000",
                   "tags": "friend", "description": "carries mail", "capabilities": ["relay"]}},
                 {"type": "peer_add", "args": {"name": "echo"}},
                 {"type": "peer_update", "args": {"peer": "postman", "status": "online",
                   "addresses": ["tcp://10.0.0.5:4000", "tcp://10.0.0.6:4000"]}},
                 {"type": "peers_list"}]""");

        assertThat(runs).extracting(CommandRun::status).containsOnly("ok");
        assertThat(runs.get(0).result()).isEqualTo("peer postman (did:hmp:postman) added");
        assertThat(runs.get(2).result()).isEqualTo("peer did:hmp:postman updated: status, addresses");
        assertThat(rows("SELECT id, name, addresses, tags, status, source, capabilities FROM agent_peers ORDER BY name"))
                .containsExactly(
                        Arrays.asList("echo", "echo", null, null, "unknown", "llm", null),
                        List.of("did:hmp:postman", "postman", "[{\"addr\":\"tcp://10.0.0.5:4000\"},{\"addr\":\"tcp://10.0.0.6:4000\"}]",
                                "friend", "online", "llm", "[\"relay\"]"));
        assertThat(runs.get(3).result()).isEqualTo("known agents (name (id) status [tags] url addresses: description):\n"
                + "- echo unknown\n"
                + "- postman (did:hmp:postman) online [friend] [{\"addr\":\"tcp://10.0.0.5:4000\"},"
                + "{\"addr\":\"tcp://10.0.0.6:4000\"}]: carries mail");

        CommandRun forget = run("peer_delete", "{\"peer\": \"did:hmp:postman\"}");
        assertThat(forget.result()).isEqualTo("peer postman (did:hmp:postman) forgotten");
        assertThat(count("SELECT count(*) FROM agent_peers")).isEqualTo(1);
        assertThat(registry.find("peers_list").orElseThrow().informs()).isTrue();
        for (String t : List.of("peer_add", "peer_update", "peer_delete")) {
            assertThat(registry.find(t).orElseThrow().informs()).as(t).isFalse();
        }
    }

    @Test
    void peer_message_keeps_the_outgoing_note_and_a_run_without_an_a2a_client_says_so_in_one_line() {
        // with a url, peer_add fetches the card (an A2A client's work: a2a.client.PeerMessageTest); here the row is written
        new PeersDao(store).add("did:hmp:postman", java.util.Map.of("name", "postman", "url", "http://127.0.0.1:1"));
        List<CommandOutcome> done = new ArrayList<>();
        Optional<CommandOutcome> sent = message("postman", "any news?", done);

        assertThat(sent).get().satisfies(o -> {
            assertThat(o.code()).isEqualTo("EOFFLINE");
            assertThat(o.result()).isEqualTo("peer_message: this run has no A2A client; nothing was sent to postman "
                    + "(did:hmp:postman)");
        });
        assertThat(done).as("ended at once: onDone never called").isEmpty();
        assertThat(rows("SELECT text, source, read, peer_id, delivery_status, tick_id, llm_id FROM notes"))
                .containsExactly(List.of("any news?", "llm", 1, "did:hmp:postman", "failed", 7, "m"));
        assertThat(new NotesDao(store).unreadCount()).as("never comes back as input").isZero();
    }

    @Test
    void a_message_to_an_unknown_blacklisted_or_unreachable_peer_is_refused_and_nothing_is_kept() {
        run("peer_add", "{\"name\": \"postman\", \"did\": \"did:hmp:postman\"}");
        new PeersDao(store).add("spammer", java.util.Map.of("name", "spammer", "status", "blacklisted", "url",
                "http://127.0.0.1:1"));
        List<CommandOutcome> done = new ArrayList<>();

        assertThat(message("stranger", "hi", done)).get().extracting(CommandOutcome::result).isEqualTo(
                "peer_message: you know no agent \"stranger\"; known: postman (did:hmp:postman), spammer");
        assertThat(message("spammer", "hi", done)).get().extracting(CommandOutcome::result)
                .isEqualTo("peer_message: spammer is blacklisted; nothing was sent");
        assertThat(message("postman", "hi", done)).get().extracting(CommandOutcome::result)
                .isEqualTo("peer_message: postman (did:hmp:postman) has no url, so it cannot be reached over A2A; give "
                        + "it one with peer_update or agent peers add");
        List<CommandRun> runs = run(1, """
                [{"type": "peer_add", "args": {"name": "postman"}},
                 {"type": "peer_update", "args": {"peer": "postman", "status": "friendly"}},
                 {"type": "peer_add", "args": {"name": "x", "url": "http://127.0.0.1:1"}},
                 {"type": "peer_add", "args": {"name": "y", "token_env": "Bearer abc"}}]""");
        assertThat(runs).extracting(CommandRun::status).containsOnly("error");
        assertThat(runs.get(0).result()).contains("you already know postman");
        assertThat(runs.get(1).result()).contains("args.status must be one of blacklisted, offline, online, unknown, untrusted");
        assertThat(runs.get(2).result()).isEqualTo("peer_add: this run has no A2A client; add the peer from a running "
                + "agent (agent peers add NAME URL)");
        assertThat(runs.get(3).result()).contains("args.token_env is the NAME of an environment variable");
        assertThat(done).isEmpty();
        assertThat(count("SELECT count(*) FROM notes")).isZero();
    }

    /** Starts {@code peer_message} as the executor does, outside a transaction, as tick 7. */
    private Optional<CommandOutcome> message(String peer, String text, List<CommandOutcome> done) {
        ExternalCommand handler = (ExternalCommand) registry.find("peer_message").orElseThrow();
        ObjectNode args = mapper.createObjectNode().put("peer", peer).put("text", text);
        return handler.start(new Args("peer_message", handler.argsExample(), args),
                new CommandContext(7, "m", registry, store), 1, done::add);
    }
}

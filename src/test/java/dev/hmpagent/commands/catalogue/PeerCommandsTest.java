package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandRun;
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
        assertThat(runs.get(3).result()).isEqualTo("known agents (name (id) status [tags] addresses: description):\n"
                + "- echo unknown\n"
                + "- postman (did:hmp:postman) online [friend] [{\"addr\":\"tcp://10.0.0.5:4000\"},"
                + "{\"addr\":\"tcp://10.0.0.6:4000\"}]: carries mail");

        CommandRun forget = run("peer_delete", "{\"peer\": \"did:hmp:postman\"}");
        assertThat(forget.result()).isEqualTo("peer postman (did:hmp:postman) forgotten");
        assertThat(count("SELECT count(*) FROM agent_peers")).isEqualTo(1);
        assertThat(registry.find("peers_list").orElseThrow().informs()).isTrue();
        for (String t : List.of("peer_add", "peer_update", "peer_delete", "peer_message")) {
            assertThat(registry.find(t).orElseThrow().informs()).as(t).isFalse();
        }
    }

    @Test
    void peer_message_queues_an_outgoing_note_addressed_to_the_peer_with_delivery_pending() {
        run("peer_add", "{\"name\": \"postman\", \"did\": \"did:hmp:postman\"}");
        CommandRun sent = run(7, "{\"type\": \"peer_message\", \"args\": {\"peer\": \"postman\", \"text\": \"any news?\"}}").get(0);

        assertThat(sent.status()).isEqualTo("ok");
        assertThat(sent.messageToUser()).as("not shown to the user as a message to them").isEmpty();
        long id = ((Number) value("SELECT id FROM notes")).longValue();
        assertThat(sent.result()).isEqualTo("message to postman queued (note " + id + ", delivery pending)");
        assertThat(rows("SELECT text, source, read, peer_id, delivery_status, tick_id, llm_id FROM notes"))
                .containsExactly(List.of("any news?", "llm", 1, "did:hmp:postman", "pending", 7, "m"));
        assertThat(new NotesDao(store).unreadCount()).as("never comes back as input").isZero();
        assertThat(new PeersDao(store).outbox("pending", 10)).singleElement()
                .satisfies(m -> assertThat(m.peerId()).isEqualTo("did:hmp:postman"));
    }

    @Test
    void a_message_to_an_unknown_or_blacklisted_peer_is_refused_naming_the_known_ones() {
        run("peer_add", "{\"name\": \"postman\", \"did\": \"did:hmp:postman\"}");
        run("peer_add", "{\"name\": \"spammer\", \"status\": \"blacklisted\"}");
        List<CommandRun> runs = run(1, """
                [{"type": "peer_message", "args": {"peer": "stranger", "text": "hi"}},
                 {"type": "peer_message", "args": {"peer": "spammer", "text": "hi"}},
                 {"type": "peer_add", "args": {"name": "postman"}},
                 {"type": "peer_update", "args": {"peer": "postman", "status": "friendly"}}]""");

        assertThat(runs).extracting(CommandRun::status).containsOnly("error");
        assertThat(runs.get(0).result()).isEqualTo("peer_message: you know no agent \"stranger\"; "
                + "known: postman (did:hmp:postman), spammer");
        assertThat(runs.get(1).result()).isEqualTo("peer_message: spammer is blacklisted; nothing was sent");
        assertThat(runs.get(2).result()).contains("you already know postman");
        assertThat(runs.get(3).result()).contains("args.status must be one of blacklisted, offline, online, unknown, untrusted");
        assertThat(count("SELECT count(*) FROM notes")).isZero();
    }
}

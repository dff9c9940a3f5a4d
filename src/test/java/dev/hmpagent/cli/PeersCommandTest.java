package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.a2a.client.FakePeer;
import dev.hmpagent.store.Store;
import java.nio.file.Path;
import java.time.Clock;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code agent peers}: add a peer by its URL (the card fetched and stored), list, show its card, remove it. */
class PeersCommandTest {
    @TempDir Path dir;

    @Test
    void a_peer_is_added_by_url_listed_shown_and_removed_and_only_its_tokens_variable_name_is_stored() throws Exception {
        Path db = dir.resolve("agent.db");
        Store.open(db, Clock.systemUTC()).close();
        try (FakePeer peer = new FakePeer().streaming().token("s3cret")) {
            CliRun added = CliRun.agent("--db", db.toString(), "peers", "add", "helper", peer.url(), "--token-env",
                    "HELPER_TOKEN");
            assertThat(added.code()).as(added.err()).isZero();
            assertThat(added.out()).isEqualTo("peer helper added: Echo at " + peer.url() + "/, streaming\n"
                    + "note: HELPER_TOKEN is not set here; the agent reads it from its own environment when it sends\n");

            CliRun listed = CliRun.agent("--db", db.toString(), "peers");
            assertThat(listed.out()).isEqualTo("helper  unknown  " + peer.url() + "  token from $HELPER_TOKEN  Echoes the text\n");

            CliRun card = CliRun.agent("--db", db.toString(), "peers", "card", "helper");
            assertThat(card.out()).isEqualTo(peer.url() + "  (token from $HELPER_TOKEN)\nEcho: Echoes the text\n"
                    + "skills: echo (Echo): Echo text back\nstreaming: yes; token: needed (bearer); A2A 1.x JSON-RPC at "
                    + peer.url() + "/\n");
            try (Store store = Store.open(db, Clock.systemUTC())) {
                assertThat(store.tables().peers().find("helper").orElseThrow().card()).isEqualTo(peer.cardJson());
            }

            CliRun removed = CliRun.agent("--db", db.toString(), "peers", "remove", "helper");
            assertThat(removed.out()).isEqualTo("peer helper removed (messages already sent to it stay)\n");
            assertThat(CliRun.agent("--db", db.toString(), "peers").out()).isEqualTo("no peers yet; add one: agent "
                    + "peers add NAME URL\n");
            assertThat(peer.posts()).as("adding only fetches the card").isEmpty();
        }
    }

    @Test
    void mistakes_are_one_line_and_exit_2() {
        Path db = dir.resolve("agent.db");
        Store.open(db, Clock.systemUTC()).close();
        for (List<String> args : List.of(List.of("peers", "add", "x"), List.of("peers", "fly"),
                List.of("peers", "add", "x", "http://h", "--token-env", "Bearer abc"), List.of("peers", "card", "nobody"))) {
            List<String> all = new java.util.ArrayList<>(List.of("--db", db.toString()));
            all.addAll(args);
            CliRun run = CliRun.agent(all.toArray(String[]::new));
            assertThat(run.code()).as(String.join(" ", args)).isEqualTo(2);
            assertThat(run.err().lines().filter(l -> l.startsWith("agent: ")).count()).as(run.err()).isEqualTo(1);
        }
    }
}

package dev.hmpagent.a2a.client;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.commands.CommandContext;
import dev.hmpagent.commands.CommandRun;
import dev.hmpagent.commands.CommandRunner;
import dev.hmpagent.commands.CommandBlockParser;
import dev.hmpagent.commands.CommandRegistry;
import dev.hmpagent.commands.catalogue.Catalogue;
import dev.hmpagent.commands.catalogue.CommandOptions;
import dev.hmpagent.store.PeersDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code peer_add} with a url fetches the peer's card; {@code peer_card} and {@code peers_list} show what was stored. */
class PeerAddTest {
    @TempDir Path dir;

    @Test
    void peer_add_with_a_url_stores_the_card_its_name_and_description_and_the_tokens_variable_name() throws Exception {
        try (FakePeer peer = new FakePeer().streaming().token("s3cret");
             Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-29T10:00:00Z"))) {
            PeerSends sends = new PeerSends(new A2aClient(Duration.ofSeconds(20), Map.<String, String>of()::get),
                    (id, status) -> { });
            CommandRegistry registry = Catalogue.builtIn(CommandOptions.DEFAULTS, sends);
            List<CommandRun> runs = run(store, registry, "[{\"type\": \"peer_add\", \"args\": {\"url\": \"" + peer.url()
                    + "\", \"token_env\": \"HELPER_TOKEN\"}}, {\"type\": \"peer_card\", \"args\": {\"peer\": \"Echo\"}},"
                    + " {\"type\": \"peers_list\"}, {\"type\": \"peer_add\", \"args\": {\"name\": \"bad\", \"url\": \""
                    + peer.url() + "/nothing-here\"}}]");

            assertThat(runs.get(0).result()).isEqualTo("peer Echo (Echo) added, its card fetched");
            PeersDao.Peer p = store.tables().peers().find("Echo").orElseThrow();
            assertThat(List.of(p.url(), p.card(), p.tokenEnv(), p.description()))
                    .containsExactly(peer.url(), peer.cardJson(), "HELPER_TOKEN", "Echoes the text");
            assertThat(runs.get(1).result()).isEqualTo("Echo at " + peer.url() + " (token from $HELPER_TOKEN)\n"
                    + "Echo: Echoes the text\nskills: echo (Echo): Echo text back\nstreaming: yes; token: needed (bearer);"
                    + " A2A 1.x JSON-RPC at " + peer.url() + "/");
            assertThat(runs.get(2).result()).contains("- Echo unknown " + peer.url() + ": Echoes the text");
            assertThat(runs.get(3).status()).isEqualTo("error");
            assertThat(runs.get(3).result()).isEqualTo("peer_add: no agent card at " + peer.url()
                    + "/nothing-here/.well-known/agent-card.json: HTTP 404");
            assertThat(peer.posts()).isEmpty();
        }
    }

    @Test
    void while_peer_add_waits_for_a_slow_card_other_processes_still_write_to_the_file() throws Exception {
        java.util.concurrent.CountDownLatch asked = new java.util.concurrent.CountDownLatch(1);
        java.util.concurrent.CountDownLatch release = new java.util.concurrent.CountDownLatch(1);
        Path db = dir.resolve("agent.db");
        try (FakePeer peer = new FakePeer().holdingCard(asked, release);
             Store store = Store.open(db, MutableClock.at("2026-11-29T10:00:00Z"))) {
            PeerSends sends = new PeerSends(new A2aClient(Duration.ofSeconds(20), Map.<String, String>of()::get),
                    (id, status) -> { });
            CommandRegistry registry = Catalogue.builtIn(CommandOptions.DEFAULTS, sends);
            ObjectMapper mapper = new ObjectMapper();
            CommandRunner runner = new CommandRunner(registry, mapper, (tick, fact) -> { });
            java.util.concurrent.CompletableFuture<List<CommandRun>> runs = java.util.concurrent.CompletableFuture
                    .supplyAsync(() -> runner.runAll(new CommandBlockParser(mapper).parse("t\n# Commands:\n[{\"type\":"
                            + " \"peer_add\", \"args\": {\"url\": \"" + peer.url() + "\"}}]"),
                            new CommandContext(1, "m", registry, store)));
            assertThat(asked.await(30, java.util.concurrent.TimeUnit.SECONDS)).as("the card was asked for").isTrue();

            // another process (agent note, the A2A server) writes while the card is on its way: it is not kept waiting
            try (java.sql.Connection other = java.sql.DriverManager.getConnection("jdbc:sqlite:" + db);
                 java.sql.Statement st = other.createStatement()) {
                st.execute("PRAGMA busy_timeout = 500");
                st.executeUpdate("INSERT INTO notes(text, source, priority, timestamp) VALUES ('meanwhile', 'cli', 0,"
                        + " '2026-11-29T10:00:01Z')");
            }
            release.countDown();

            assertThat(runs.get(30, java.util.concurrent.TimeUnit.SECONDS).get(0).result())
                    .isEqualTo("peer Echo (Echo) added, its card fetched");
            assertThat(store.tables().peers().find("Echo")).isPresent();
        }
    }

    private static List<CommandRun> run(Store store, CommandRegistry registry, String block) {
        ObjectMapper mapper = new ObjectMapper();
        CommandRunner runner = new CommandRunner(registry, mapper, (tick, fact) -> { });
        return store.inTransaction(() -> runner.runAll(new CommandBlockParser(mapper).parse("t\n# Commands:\n" + block),
                new CommandContext(1, "m", registry, store)));
    }
}

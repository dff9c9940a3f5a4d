package dev.hmpagent.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.a2a.client.A2aClient;
import dev.hmpagent.a2a.client.A2aGate;
import dev.hmpagent.a2a.client.FakePeer;
import dev.hmpagent.a2a.client.PeerSends;
import dev.hmpagent.commands.Approver;
import dev.hmpagent.commands.CommandExecutor;
import dev.hmpagent.commands.Completions;
import dev.hmpagent.commands.catalogue.Catalogue;
import dev.hmpagent.commands.catalogue.CommandOptions;
import dev.hmpagent.safety.OperationListener;
import dev.hmpagent.safety.StopSignal;
import dev.hmpagent.config.A2aSection;
import dev.hmpagent.safety.Guides;
import dev.hmpagent.safety.SafetyMonitor;
import dev.hmpagent.cycle.ReflexIdle;
import dev.hmpagent.stagnation.Mesh;
import dev.hmpagent.stagnation.ModelSwitch;
import dev.hmpagent.stagnation.ReflexSettings;
import dev.hmpagent.stagnation.SignSettings;
import dev.hmpagent.stagnation.StagnationReflex;
import dev.hmpagent.store.GoalsDao;
import dev.hmpagent.store.ReflexDao;
import dev.hmpagent.store.StagnationDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.WorkItem;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.SqlFile;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reflex's mesh request (issue 37) with the real peers and [a2a] gate: unavailable without a peer the agent may
 * send to, the first way out when one is known and no new data came in, a pending peer_message per allowed peer (at most
 * three), and rated by the next replies' novelty as every strategy is.
 */
class MeshRequestTest {
    /** Low novelty and no stimulus over 2 ticks; never overheated here, so the first slot is external stimulation. */
    static final SignSettings SIGNS = new SignSettings(0.3, 2, true, 2, 2, 100);
    static final String MESH_ROWS = "SELECT tick_id || ' ' || status || ' ' || json_extract(value, '$.args.peer')"
            + " FROM process_log WHERE name = 'peer_message' ORDER BY id";

    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    Store store;
    StagnationDao metrics;
    long tick;

    @BeforeEach
    void open() {
        store = Store.open(dir.resolve("agent.db"), clock);
        metrics = new StagnationDao(store);
    }

    @AfterEach
    void close() {
        store.close();
    }

    StagnationReflex reflex(A2aSection rules) {
        SafetyMonitor monitor = new SafetyMonitor(store, SafetyMonitor.Limits.DEFAULTS, Guides.byName("safety"),
                line -> { }, line -> { });
        Mesh mesh = new MeshPeers(store, new A2aGate(rules, store.tables().peers()));
        return new StagnationReflex(store, new ReflexSettings(SIGNS, true, 2, 0, Duration.ofMinutes(10),
                Duration.ofHours(1), new ReflexSettings.Generation(0.7, 0, 0), 5), clock, bound -> 0,
                () -> List.of("diary_entry"), ModelSwitch.NONE, new ReflexIdle(monitor), mesh);
    }

    static A2aSection allowing(String... names) {
        A2aSection none = A2aSection.none();
        return new A2aSection("", List.of(), List.of(names), List.of("asker"), List.of("denied"),
                none.maxMessageBytes(), none.ratePerMinute(), none.maxDepth(), none.maxChildren());
    }

    void peer(String id, String name, String url, String tags) {
        store.tables().peers().add(id, Map.of("name", name, "url", url, "tags", tags));
    }

    /** One LLM tick with a reply of this novelty (a person's message shown on the first); then the reflex. */
    StagnationReflex.After tick(StagnationReflex r, double novelty, boolean person) {
        tick++;
        store.inTransaction(() -> {
            store.tables().responses().add(tick, "reply " + tick + " about the nightly backup", "", novelty, 10, 10,
                    false, false, false, "m");
            metrics.record(new StagnationDao.Metric(tick, 0, novelty, "local", novelty < 0.3 ? "same" : "new", 0,
                    false, 0, person, person, "0/0", false, "", false, "", false));
        });
        return r.afterReply(tick, novelty, person);
    }

    /** Three ticks: new data, then two low-novelty replies with nothing new: stagnant, no stimulus first. */
    StagnationReflex.After stagnate(StagnationReflex r) {
        tick(r, 0.9, true);
        tick(r, 0.1, false);
        return tick(r, 0.1, false);
    }

    List<String> rows(String sql) {
        return new SqlFile(dir.resolve("agent.db")).rows(sql);
    }

    @Test
    void without_a_peer_it_may_send_to_the_mesh_request_is_unavailable_and_nothing_is_sent() {
        peer("p-1", "stranger", "http://127.0.0.1:9/", "");           // named in no list: would need asking
        peer("p-2", "asker", "http://127.0.0.1:9/", "");              // in [a2a] ask
        peer("p-3", "denied", "http://127.0.0.1:9/", "child");        // denied, child or not
        peer("p-4", "mute", "", "");                                 // allowed but without a URL
        StagnationReflex r = reflex(allowing("mute"));

        StagnationReflex.After after = stagnate(r);

        assertThat(after.stagnant()).isTrue();
        assertThat(after.queued()).isFalse();
        assertThat(store.tables().reflex().latest(5)).extracting(ReflexDao.Firing::strategy)
                .isNotEmpty().doesNotContain("Mesh request");
        assertThat(rows(MESH_ROWS)).isEmpty();
    }

    @Test
    void with_allowed_peers_it_fires_first_and_queues_a_question_to_at_most_three_allowed_ones() {
        store.tables().goals().add(WorkItem.Kind.TASK, 0, "make the nightly backup restorable", "", 5, "m");
        peer("p-1", "stranger", "http://127.0.0.1:9/", "");            // named in no list: would need asking
        peer("p-2", "alpha", "http://127.0.0.1:9/a", "");
        peer("p-3", "denied", "http://127.0.0.1:9/d", "");             // allowed and denied: deny wins
        peer("p-4", "kid", "http://127.0.0.1:9/k", "child");           // a child is allowed
        peer("p-5", "gamma", "http://127.0.0.1:9/g", "");
        peer("p-6", "zeta", "http://127.0.0.1:9/z", "");               // allowed, but three are asked at most
        StagnationReflex r = reflex(allowing("alpha", "gamma", "zeta", "denied"));

        StagnationReflex.After after = stagnate(r);

        assertThat(after.queued()).as("the cycle must run the queued commands").isTrue();
        ReflexDao.Firing first = store.tables().reflex().latest(5).stream().filter(f -> f.position() == 1)
                .findFirst().orElseThrow();
        assertThat(first.strategy()).isEqualTo("Mesh request");
        assertThat(first.strategyClass()).isEqualTo("external_stimulation");
        assertThat(first.effect()).isEqualTo("asked alpha, gamma, kid what they would explore now (peer_message;"
                + " their answers arrive as results)");
        assertThat(rows(MESH_ROWS)).containsExactly("3 pending alpha", "3 pending gamma", "3 pending kid");
        assertThat(rows("SELECT DISTINCT json_extract(value, '$.args.text') FROM process_log"
                + " WHERE name = 'peer_message'")).containsExactly("I seem to be going in circles. The task in front"
                + " of me: \"make the nightly backup restorable\". What would you explore now? One or two concrete"
                + " ideas are enough.");
        assertThat(rows("SELECT count(*) FROM process_log WHERE name = 'peer_message' AND fingerprint <> ''"))
                .containsExactly("3");
    }

    @Test
    void it_is_rated_by_the_novelty_of_the_replies_after_it() {
        peer("p-2", "alpha", "http://127.0.0.1:9/a", "");
        StagnationReflex r = reflex(allowing("alpha"));
        stagnate(r);

        tick(r, 0.8, false);   // a novel reply after the answer came back

        assertThat(rows("SELECT rating FROM reflex_firings WHERE strategy = 'Mesh request'")).containsExactly("1");
        assertThat(rows("SELECT r.rating FROM ratings r JOIN stagnation_strategies s ON s.id = r.target_id"
                + " WHERE r.target_type = 'stagnation_strategy' AND s.name = 'Mesh request'")).containsExactly("1");
    }

    @Test
    void no_novel_reply_after_it_rates_it_down() {
        peer("p-2", "alpha", "http://127.0.0.1:9/a", "");
        StagnationReflex r = reflex(allowing("alpha"));
        stagnate(r);

        tick(r, 0.1, false);
        tick(r, 0.1, false);

        assertThat(rows("SELECT rating FROM reflex_firings WHERE strategy = 'Mesh request'")).containsExactly("-1");
    }

    @Test
    void the_queued_questions_run_as_the_ticks_commands_reach_the_allowed_peer_only_and_its_answer_is_the_result()
            throws Exception {
        try (FakePeer allowed = new FakePeer(); FakePeer stranger = new FakePeer()) {
            store.tables().peers().add("p-1", Map.of("name", "alpha", "url", allowed.url(), "card", allowed.cardJson()));
            store.tables().peers().add("p-2", Map.of("name", "stranger", "url", stranger.url(),
                    "card", stranger.cardJson()));
            A2aSection rules = allowing("alpha");
            StagnationReflex r = reflex(rules);
            StagnationReflex.After after = stagnate(r);
            assertThat(after.queued()).isTrue();

            // what the cycle does next (CommandStep.run): the tick's pending commands through the executor and the gate
            CountDownLatch arrived = new CountDownLatch(1);
            Completions completions = new Completions();
            completions.onArrival(arrived::countDown);
            PeerSends sends = new PeerSends(new A2aClient(Duration.ofSeconds(20), name -> null), (noteId, status) -> {
                try (Store own = Store.open(dir.resolve("agent.db"), clock)) {
                    own.tables().peers().deliver(noteId, status);
                }
            });
            CommandExecutor executor = new CommandExecutor(store, Catalogue.builtIn(CommandOptions.DEFAULTS, sends),
                    new ObjectMapper(), new A2aGate(rules, store.tables().peers()), Approver.NOBODY,
                    OperationListener.NONE, completions);
            executor.runPending(tick, "m", StopSignal.over(store).since(), () -> false, run -> { });

            assertThat(arrived.await(10, TimeUnit.SECONDS)).isTrue();
            executor.recordResults(run -> { });
            assertThat(stranger.posts()).isEmpty();
            assertThat(allowed.posts()).hasSize(1);
            assertThat(allowed.posts().get(0).body().toString()).contains("What would you explore now?");
            assertThat(rows("SELECT status || ' ' || result FROM process_log WHERE name = 'peer_message'"))
                    .containsExactly("ok alpha (p-1) answered:\necho: I seem to be going in circles. What would"
                            + " you explore now? One or two concrete ideas are enough.");
        }
    }
}

package dev.hmpagent.cycle;

import dev.hmpagent.safety.SafetyGate;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.SafetyState;
import dev.hmpagent.safety.SafetyStatus;
import dev.hmpagent.store.HaltFlag;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import dev.hmpagent.testing.RecordingSink;
import dev.hmpagent.testing.SqlFile;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The reflex's rest through the real cycle and the loop's gate, on a fake clock: a persisted RESTING with its end
 * time, audited; no LLM call while it holds; it ends by itself at its time (and the loop thinks again), at a person's
 * message (which is answered), or with an unlock.
 */
class ReflexRestTest {
    static final Duration SLEEP = Duration.ofMinutes(10);

    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-27T09:00:00Z");
    final FakeLlmClient llm = new FakeLlmClient();
    final RecordingSink sink = new RecordingSink();
    Store store;
    NotesDao notes;
    Cycle cycle;
    SafetyGate gate;

    @BeforeEach
    void open() {
        store = Store.open(dir.resolve("agent.db"), clock);
        notes = new NotesDao(store);
        // only the radical pause may fire, so the reflex's one way out is the rest
        new SqlFile(dir.resolve("agent.db")).exec("UPDATE stagnation_strategies SET active = CASE name"
                + " WHEN 'Radical pause' THEN 1 ELSE 0 END, cost = 1");
        AgentConfig config = AntiStagnationTest.config("cycle.autonomous", "true", "stagnation.method", "local",
                "stagnation.sleep_s", Long.toString(SLEEP.toSeconds()));
        cycle = TestWiring.cycle(config, store, llm, sink, clock);
        gate = new SafetyGate(cycle.stops(), sink, cycle::endRestIfDue);
    }

    @AfterEach
    void close() {
        store.close();
    }

    /** One iteration of the tick loop: the gate first, as the loop asks it, then a tick if it lets the agent think. */
    TickResult iterate() {
        clock.advance(Duration.ofSeconds(5));
        return gate.mayThink() ? cycle.tick() : TickResult.IDLE;
    }

    SafetyStatus state() {
        return new SafetyControl(store).current();
    }

    List<String> audit() {
        return new SqlFile(dir.resolve("agent.db")).rows("SELECT event || ' ' || from_state || ' ' || to_state"
                + " || ' ' || coalesce(detail, '') FROM safety_audit ORDER BY id");
    }

    /** A person asks once; the model then muses in near-identical words each tick until the reflex rests it. */
    Instant restedByTheReflex() {
        notes.add("keep an eye on the nightly backup", "user", 0, null);
        for (int i = 1; i <= 30; i++) llm.reply("Still watching the nightly backup, nothing to add, round " + i + ".");
        for (int ticks = 0; ticks < 30 && state().active(); ticks++) iterate();
        assertThat(state().state()).as("the reflex rested the agent within 30 ticks").isEqualTo(SafetyState.RESTING);
        return state().until().orElseThrow();
    }

    @Test
    void the_reflexs_rest_is_persisted_with_its_end_time_audited_and_holds_until_then_the_loop_thinks_again() {
        Instant until = restedByTheReflex();
        int calls = llm.requests.size();

        assertThat(until).isEqualTo(clock.instant().plus(SLEEP));
        assertThat(state().detail()).contains("anti-stagnation reflex").contains("Radical pause").endsWith("until " + until);
        assertThat(audit()).singleElement().asString().startsWith("rest ACTIVE RESTING anti-stagnation reflex")
                .endsWith("until " + until);
        assertThat(sink.events).anyMatch(e -> e instanceof AgentEvent.Problem p
                && p.text().startsWith("RESTING: ") && p.text().contains("it ends by itself at " + until));

        for (int i = 0; i < 20; i++) assertThat(iterate()).isEqualTo(TickResult.IDLE);   // 100 s of the rest
        assertThat(llm.requests).as("no LLM call while the rest holds").hasSize(calls);
        assertThat(state().state()).isEqualTo(SafetyState.RESTING);

        clock.advance(Duration.between(clock.instant(), until));
        TickResult after = iterate();

        assertThat(state().state()).isEqualTo(SafetyState.ACTIVE);
        assertThat(audit()).last().asString().isEqualTo("rest_end RESTING ACTIVE the rest ended: its time is up");
        assertThat(after.worked()).as("the loop thinks again at the rest's end").isTrue();
        assertThat(llm.requests).hasSize(calls + 1);
        assertThat(new SqlFile(dir.resolve("agent.db")).rows("SELECT wake_reason FROM agent_log ORDER BY tick_id DESC"
                + " LIMIT 1")).containsExactly("rest ended: its time is up");
    }

    @Test
    void the_rest_lasts_its_length_on_the_monotonic_clock_when_the_wall_clock_steps_back_or_forward() {
        Instant until = restedByTheReflex();
        int calls = llm.requests.size();
        iterate();   // the rest is seen: its length is measured from here
        clock.stepWall(Duration.ofHours(1));
        iterate();
        assertThat(state().state()).as("a wall clock an hour ahead does not end the rest").isEqualTo(SafetyState.RESTING);
        clock.stepWall(Duration.ofHours(-2));
        for (int i = 0; i < 120 && state().resting(); i++) iterate();   // 5 s each: up to 10 min

        assertThat(state().state()).as("a wall clock an hour behind does not stretch it").isEqualTo(SafetyState.ACTIVE);
        assertThat(clock.instant()).isBefore(until.minus(Duration.ofMinutes(50)));
        assertThat(audit()).last().asString().isEqualTo("rest_end RESTING ACTIVE the rest ended: its time is up");
        assertThat(llm.requests).hasSize(calls + 1);
    }

    @Test
    void a_persons_note_during_the_rest_ends_it_and_is_answered() {
        Instant until = restedByTheReflex();
        int calls = llm.requests.size();
        iterate();
        assertThat(llm.requests).hasSize(calls);

        long note = notes.add("are you still there?", "user", 0, null);
        iterate();

        assertThat(clock.instant()).isBefore(until);
        assertThat(state().state()).isEqualTo(SafetyState.ACTIVE);
        assertThat(audit()).last().asString().isEqualTo("rest_end RESTING ACTIVE the rest ended: a message from a person");
        assertThat(llm.requests).hasSize(calls + 1);
        assertThat(llm.userPrompt(calls)).contains("are you still there?");
        assertThat(notes.get(note).orElseThrow().read()).as("answered").isTrue();
    }

    @Test
    void unlock_ends_the_rest_and_the_llm_cannot_end_it_itself() {
        restedByTheReflex();
        // the LLM's own idle commands touch config, never safety_state: its "wake up" is an idle that ended, no more
        assertThat(new SqlFile(dir.resolve("agent.db")).rows("SELECT state FROM safety_state")).containsExactly("RESTING");

        SafetyControl.Change change = new SafetyControl(store).unlock("back to work", new Requester(1, "alice", "host"));

        assertThat(change.result()).isEqualTo(SafetyControl.Result.MOVED);
        assertThat(state().state()).isEqualTo(SafetyState.ACTIVE);
        assertThat(state().until()).isEmpty();
        assertThat(audit()).last().asString().isEqualTo("unlock RESTING ACTIVE back to work");
        assertThat(gate.mayThink()).isTrue();
    }
}

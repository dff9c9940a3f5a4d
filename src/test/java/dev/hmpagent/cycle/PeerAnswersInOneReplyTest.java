package dev.hmpagent.cycle;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.commands.Approver;
import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.ConfigLoader;
import dev.hmpagent.config.ConfigSources;
import dev.hmpagent.event.EventSink;
import dev.hmpagent.runtime.TestWiring;
import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.FakeLlmClient;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * An agent serving five peers at once answers all five in one reply: a note_reply that completes a peer's A2A task
 * is that peer's work, not a message to a person, so the three-messages-a-reply cap does not refuse the fourth.
 */
class PeerAnswersInOneReplyTest {
    @TempDir Path dir;

    @Test
    void five_answers_to_peers_and_three_messages_all_run_in_one_reply_and_a_fourth_message_does_not() {
        Path db = dir.resolve("agent.db");
        MutableClock clock = MutableClock.at("2026-11-30T01:00:00Z");
        FakeLlmClient llm = new FakeLlmClient();
        try (Store store = Store.open(db, clock)) {
            List<Long> asked = new ArrayList<>();
            for (int i = 1; i <= 5; i++) {
                long note = store.tables().notes().add("question " + i, "peer", 0, "a2a");
                asked.add(note);
                store.inTransaction(() -> store.tables().a2aTasks().add("t-" + note, "c-" + note, note, "caller", "{}",
                        "[]"));
            }
            StringBuilder commands = new StringBuilder();
            for (long note : asked) {
                commands.append(commands.length() == 0 ? "" : ", ").append("{\"cmd_id\": \"a-").append(note)
                        .append("\", \"type\": \"note_reply\", \"args\": {\"id\": ").append(note)
                        .append(", \"text\": \"answer ").append(note).append("\"}}");
            }
            for (int i = 1; i <= 4; i++) {
                commands.append(", {\"cmd_id\": \"m-").append(i).append("\", \"type\": \"send_message\", \"args\":"
                        + " {\"text\": \"status ").append(i).append("\"}}");
            }
            llm.reply("Answering all of them.\n# Commands:\n[" + commands + "]\n# End commands");
            AgentConfig config = ConfigLoader.load(ConfigSources.envOnly(Map.of("AGENT_DB", db.toString(),
                    "AGENT_CYCLE_AUTONOMOUS", "true"))).config();
            Wiring.Tools tools = Wiring.tools(config, Approver.NOBODY, List.of(), Map.of("PATH", System.getenv("PATH")),
                    clock, () -> llm);
            Cycle cycle = Wiring.cycle(config, store, llm, EventSink.DISCARD, clock, TestWiring.time(clock), tools);

            assertThat(cycle.tick().worked()).isTrue();

            for (long note : asked) {
                assertThat(store.tables().a2aTasks().get("t-" + note).orElseThrow().state()).as("task of note " + note)
                        .isEqualTo("completed");
            }
            assertThat(store.tables().processLog().byTick(1)).filteredOn(r -> r.status().equals("error"))
                    .extracting(r -> r.cmdId()).as("only the fourth message to the person is refused")
                    .containsExactly("m-4");
        }
    }
}

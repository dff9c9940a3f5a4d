package dev.hmpagent.commands;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.safety.Fingerprint;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class CommandQueueTest {
    @TempDir Path dir;
    final ObjectMapper mapper = new ObjectMapper();

    @Test
    void a_secret_the_llm_writes_in_args_is_never_stored_but_the_fingerprint_is_the_commands_own() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-21T10:00:00Z"))) {
            ParsedReply reply = new CommandBlockParser(mapper).parse("t\n# Commands:\n"
                    + "[{\"cmd_id\": \"a\", \"type\": \"account_add\", \"args\": {\"login\": \"ann\", \"password\": \"hunter2-SuperSecret\","
                    + " \"secret_ref\": \"env:FORUM_PASSWORD\", \"note\": \"sk-proj-abcdefghijklmnop1234567890\"}},"
                    + " {\"cmd_id\": \"s\", \"type\": \"shell\", \"args\": {\"command\": \"git show 3f2a9c1d\", \"env\": {\"API_KEY\": \"k-123\"}}}]");
            ProcessLogDao log = new ProcessLogDao(store);
            store.inTransaction(() -> new CommandQueue(mapper).enqueue(reply, 1, log, dev.hmpagent.safety.OutcomeListener.NONE));

            ProcessRow account = log.byTick(1).get(0);
            assertThat(account.value()).doesNotContain("hunter2").doesNotContain("sk-proj-abc")
                    .contains("\"password\":\"[redacted]\"").contains("env:FORUM_PASSWORD").contains("ann");
            assertThat(account.fingerprint()).isEqualTo(Fingerprint.ofCommand("account_add", reply.commands().get(0).args()));
            ProcessRow shell = log.byTick(1).get(1);
            assertThat(shell.value()).contains("git show 3f2a9c1d").doesNotContain("k-123").contains("\"API_KEY\":\"[redacted]\"");
        }
    }
}

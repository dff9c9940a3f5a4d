package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandRun;
import static org.assertj.core.api.Assertions.assertThat;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.List;
import org.junit.jupiter.api.Test;

class IdentityCommandsTest extends RegistryCommandsFixture {

    @Test
    void the_name_and_metadata_are_the_llms_to_set_and_a_first_update_creates_the_identity() {
        assertThat(run("identity_get", "{}").result()).startsWith("you have no identity yet");
        List<CommandRun> runs = run(1, """
                [{"type": "identity_update", "args": {"field": "name", "value": "Ariadne"}},
                 {"type": "identity_update", "args": {"field": "metadata", "value": {"role": "librarian"}}},
                 {"type": "identity_get"}]""");

        assertThat(runs).extracting(CommandRun::status).containsOnly("ok");
        String id = (String) value("SELECT id FROM identity");
        assertThat(runs.get(0).result()).isEqualTo("identity " + id + ": name set");
        assertThat(rows("SELECT name, metadata, updated_at FROM identity"))
                .containsExactly(List.of("Ariadne", "{\"role\":\"librarian\"}", "2026-11-21T10:00:00Z"));
        assertThat(runs.get(2).result()).isEqualTo("your identity:\n- id " + id + ", name Ariadne, no public key, "
                + "metadata {\"role\":\"librarian\"}, updated 2026-11-21T10:00:00Z");
        assertThat(registry.find("identity_get").orElseThrow().informs()).isTrue();
        assertThat(registry.find("identity_update").orElseThrow().informs()).isFalse();
    }

    @Test
    void the_id_and_keys_are_not_the_llms_and_the_private_key_is_never_shown() throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + dir.resolve("agent.db"));
             Statement st = c.createStatement()) {
            st.execute("INSERT INTO identity(id, name, pubkey, privkey) VALUES ('did:hmp:me', 'me', 'PUB', 'PRIVATE-KEY-BYTES')");
        }
        List<CommandRun> runs = run(1, """
                [{"type": "identity_update", "args": {"field": "privkey", "value": "mine now"}},
                 {"type": "identity_update", "args": {"field": "pubkey", "value": "x"}},
                 {"type": "identity_update", "args": {"field": "id", "value": "did:hmp:other"}},
                 {"type": "identity_get"}]""");
        assertThat(runs.subList(0, 3)).extracting(CommandRun::status).containsOnly("error");
        assertThat(runs.get(0).result()).isEqualTo("identity_update: \"privkey\" is not yours to change; "
                + "you may change: metadata, name");
        assertThat(runs.get(3).result()).contains("id did:hmp:me, name me, public key PUB").doesNotContain("PRIVATE");
        assertThat(rows("SELECT id, pubkey, privkey FROM identity")).containsExactly(List.of("did:hmp:me", "PUB",
                "PRIVATE-KEY-BYTES"));
    }
}

package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandRun;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class UserCommandsTest extends RegistryCommandsFixture {

    @Test
    void users_are_registered_by_did_in_groups_listed_and_updated() {
        List<CommandRun> runs = run(1, """
                [{"type": "users_group_add", "args": {"group_name": "friends", "description": "may ask anything"}},
                 {"type": "users_group_add", "args": {"group_name": "family"}},
                 {"type": "user_add", "args": {"username": "Ann", "did": "did:hmp:ann", "group": "friends", "language": "ru,en",
                   "contacts": [{"matrix": "@ann:example.org"}]}},
                 {"type": "user_add", "args": {"name": "Bob", "did": "did:key:z6Mkbob"}},
                 {"type": "user_update", "args": {"did": "did:key:z6Mkbob", "groups": ["friends", "family"], "mail": "bob@example.org"}},
                 {"type": "users_list"},
                 {"type": "users_group_list"}]""");

        assertThat(runs).extracting(CommandRun::status).containsOnly("ok");
        assertThat(runs.get(2).result()).isEqualTo("user 1 Ann <did:hmp:ann> added to [\"friends\"]");
        assertThat(runs.get(4).result()).isEqualTo("user 2 updated: mail, groups");
        assertThat(rows("SELECT username, did, mail, language, groups, contacts, operator, ban, password_hash FROM users"))
                .containsExactly(
                        Arrays.asList("Ann", "did:hmp:ann", null, "ru,en", "[\"friends\"]", "[{\"matrix\":\"@ann:example.org\"}]",
                                0, null, null),
                        Arrays.asList("Bob", "did:key:z6Mkbob", "bob@example.org", null, "[\"friends\",\"family\"]", null,
                                0, null, null));
        assertThat(runs.get(5).result()).isEqualTo("users (id. name <did> groups):\n"
                + "1. Ann <did:hmp:ann> groups [\"friends\"], language ru,en\n"
                + "2. Bob <did:key:z6Mkbob> groups [\"friends\",\"family\"]");
        assertThat(runs.get(6).result()).isEqualTo("groups (name: members, description):\n"
                + "- family: 1 member\n- friends: 2 members, may ask anything");
        for (String t : List.of("users_list", "users_group_list")) assertThat(registry.find(t).orElseThrow().informs()).isTrue();
        for (String t : List.of("user_add", "user_update", "users_group_add")) {
            assertThat(registry.find(t).orElseThrow().informs()).as(t).isFalse();
        }
    }

    @Test
    void a_bad_did_an_unknown_group_a_duplicate_and_safety_fields_are_refused() {
        run("user_add", "{\"username\": \"Ann\", \"did\": \"did:hmp:ann\"}");
        List<CommandRun> runs = run(1, """
                [{"type": "user_add", "args": {"username": "X", "did": "ALL"}},
                 {"type": "user_add", "args": {"username": "X", "did": "did:hmp:x", "group": "admins"}},
                 {"type": "user_add", "args": {"username": "Ann again", "did": "did:hmp:ann"}},
                 {"type": "user_update", "args": {"did": "did:hmp:ann", "operator": true}},
                 {"type": "user_update", "args": {"did": "did:hmp:nobody", "language": "en"}}]""");

        assertThat(runs).extracting(CommandRun::status).containsOnly("error");
        assertThat(runs.get(0).result()).contains("args.did must be a DID");
        assertThat(runs.get(1).result()).isEqualTo("user_add: no group \"admins\"; there are none yet (users_group_add makes one)");
        assertThat(runs.get(2).result()).contains("did:hmp:ann is already user 1");
        assertThat(runs.get(3).result()).as("operator and ban are a person's").contains("give at least one field to change");
        assertThat(runs.get(4).result()).isEqualTo("user_update: no such user; users_list shows them");
        assertThat(rows("SELECT did, operator FROM users")).containsExactly(List.of("did:hmp:ann", 0));
    }
}

package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandRun;
import static org.assertj.core.api.Assertions.assertThat;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ExternalServiceCommandsTest extends RegistryCommandsFixture {
    static final String TOKEN = "ghp_a1B2c3D4e5F6g7H8i9J0kLmNoPqRsTuVwXyZ";

    @Test
    void services_and_accounts_are_added_listed_changed_and_deleted_with_where_the_secret_lives() {
        List<CommandRun> runs = run(1, """
                [{"type": "service_add", "args": {"name": "Reddit", "type": "forum", "base_url": "https://reddit.com",
                   "description": "discussions"}},
                 {"type": "account_add", "args": {"service": "Reddit", "login": "hmp-bot", "secret_ref": "env:REDDIT_TOKEN",
                   "purpose": "posting"}},
                 {"type": "account_add", "args": {"service": "1", "login": "reader", "secret_ref": "keyring:hmp-agent/reddit-reader"}},
                 {"type": "account_update", "args": {"id": 2, "active": false, "inactive_reason": "not needed"}},
                 {"type": "services_list"},
                 {"type": "accounts_list", "args": {"service": "Reddit"}}]""");

        assertThat(runs).extracting(CommandRun::status).containsOnly("ok");
        assertThat(runs.get(1).result()).isEqualTo("account 1 hmp-bot on Reddit added; its secret is read from env:REDDIT_TOKEN");
        assertThat(runs.get(4).result()).isEqualTo("external services (id. name (type) base_url accounts):\n"
                + "1. Reddit (forum) https://reddit.com, 2 accounts: discussions");
        assertThat(runs.get(5).result()).isEqualTo("accounts (id. login on service: purpose, secret location):\n"
                + "1. hmp-bot on Reddit: posting, secret in env:REDDIT_TOKEN\n"
                + "2. reader on Reddit, secret in keyring:hmp-agent/reddit-reader, INACTIVE (not needed)");
        assertThat(rows("SELECT service_id, login, password, purpose, active, secret_ref FROM external_accounts ORDER BY id"))
                .containsExactly(List.of(1, "hmp-bot", "", "posting", 1, "env:REDDIT_TOKEN"),
                        Arrays.asList(1, "reader", "", null, 0, "keyring:hmp-agent/reddit-reader"));

        CommandRun delete = run("service_delete", "{\"service\": \"Reddit\"}");
        assertThat(delete.result()).isEqualTo("service 1 Reddit deleted with 2 accounts");
        assertThat(count("SELECT count(*) FROM external_accounts")).isZero();
        for (String t : List.of("services_list", "accounts_list")) assertThat(registry.find(t).orElseThrow().informs()).isTrue();
        for (String t : List.of("service_add", "service_update", "service_delete", "account_add", "account_update",
                "account_delete")) {
            assertThat(registry.find(t).orElseThrow().informs()).as(t).isFalse();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {
            "\"secret_ref\": \"" + TOKEN + "\"",
            "\"secret_ref\": \"env:" + TOKEN + "\"",
            "\"secret_ref\": \"keyring:" + TOKEN + "\"",
            "\"secret_ref\": \"env:AKIAIOSFODNN7EXAMPLE\"",
            "\"secret_ref\": \"keyring:sk-live-0123456789abcdefXYZ\"",
            "\"secret_ref\": \"hunter2\"",
            "\"secret_ref\": \"env:X\", \"password\": \"hunter2\"",
            "\"secret_ref\": \"env:X\", \"token\": \"" + TOKEN + "\""})
    void an_account_given_a_secret_instead_of_its_location_is_refused_and_the_secret_is_stored_nowhere(String secretArgs) {
        run("service_add", "{\"name\": \"GitHub\", \"type\": \"code\", \"base_url\": \"https://github.com\"}");
        CommandRun add = run("account_add", "{\"service\": \"GitHub\", \"login\": \"bot\", " + secretArgs + "}");
        run("account_add", "{\"service\": \"GitHub\", \"login\": \"bot\", \"secret_ref\": \"env:GITHUB_TOKEN\"}");
        CommandRun update = run("account_update", "{\"id\": 1, " + secretArgs + "}");

        for (CommandRun r : List.of(add, update)) {
            assertThat(r.status()).isEqualTo("error");
            assertThat(r.result()).contains("refused").doesNotContain(TOKEN).doesNotContain("hunter2")
                    .doesNotContain("AKIAIOSFODNN7EXAMPLE").doesNotContain("0123456789abcdef");
        }
        assertThat(rows("SELECT login, password, secret_ref FROM external_accounts"))
                .containsExactly(List.of("bot", "", "env:GITHUB_TOKEN"));
        assertThat(rows("SELECT result FROM process_log")).allSatisfy(r -> assertThat(r.get(0).toString())
                .doesNotContain(TOKEN).doesNotContain("hunter2"));
    }

    @Test
    void a_login_that_looks_like_a_token_and_a_url_with_credentials_are_refused() {
        run("service_add", "{\"name\": \"GitHub\", \"type\": \"code\", \"base_url\": \"https://github.com\"}");
        List<CommandRun> runs = run(1, "["
                + "{\"type\": \"account_add\", \"args\": {\"service\": \"GitHub\", \"login\": \"" + TOKEN + "\", \"secret_ref\": \"env:X\"}},"
                + "{\"type\": \"service_add\", \"args\": {\"name\": \"x\", \"type\": \"api\", \"base_url\": \"https://u:" + TOKEN + "@x.org\"}},"
                + "{\"type\": \"service_add\", \"args\": {\"name\": \"x\", \"type\": \"api\", \"base_url\": \"https://x.org/?key=" + TOKEN + "\"}},"
                + "{\"type\": \"service_update\", \"args\": {\"service\": \"GitHub\", \"base_url\": \"ftp://github.com\"}},"
                + "{\"type\": \"account_add\", \"args\": {\"service\": \"Nowhere\", \"login\": \"bot\", \"secret_ref\": \"env:X\"}}]");
        assertThat(runs).extracting(CommandRun::status).containsOnly("error");
        assertThat(runs).allSatisfy(r -> assertThat(r.result()).doesNotContain(TOKEN));
        assertThat(runs.get(0).result()).contains("args.login looks like a secret");
        // a URL with a key in it is caught before it is stored: the command never runs with it
        assertThat(runs.get(1).result()).contains("args.base_url looks like a secret");
        assertThat(runs.get(2).result()).contains("args.base_url looks like a secret");
        assertThat(runs.get(3).result()).contains("must be an http(s) URL");
        assertThat(runs.get(4).result()).isEqualTo("account_add: no service \"Nowhere\"; services: 1 GitHub");
        assertThat(count("SELECT count(*) FROM external_services")).isEqualTo(1);
        assertThat(count("SELECT count(*) FROM external_accounts")).isZero();
    }
}

package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.HaltFlag;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.Store;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jline.terminal.impl.DumbTerminal;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/** `agent unlock` against a real file: budget stops, --add-budget, quota stops, the counters it resets. */
class UnlockCommandTest {
    @TempDir Path dir;
    Path db;
    Path config;

    @BeforeEach
    void file() throws Exception {
        db = dir.resolve("agent.db");
        config = dir.resolve("agent.toml");
        Files.writeString(config, "[llm]\nmodel = \"test-model\"\n");
        Store.open(db, Clock.systemUTC()).close();
    }

    record Run(int code, String out, String err) { }

    Run cli(String... args) {
        return cli(Map.of("HOME", dir.toString(), "TZ", "Asia/Tokyo"), args);   // a person's lines show local times
    }

    Run cli(Map<String, String> env, String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        Launch launch = new Launch(env,
                () -> new DumbTerminal(new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()),
                Clock.systemUTC(), false);
        CommandLine cl = Cli.commandLine(launch);
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        List<String> all = new ArrayList<>(List.of(args));
        all.addAll(List.of("--config", config.toString(), "--db", db.toString()));
        return new Run(cl.execute(all.toArray(String[]::new)), out.toString(), err.toString());
    }

    void sql(String statement) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db)) {
            c.createStatement().execute(statement);
        }
    }

    String one(String query) throws Exception {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db);
             ResultSet rs = c.createStatement().executeQuery(query)) {
            return rs.next() ? rs.getString(1) : null;
        }
    }

    void budgetStop() throws Exception {
        sql("UPDATE safety_state SET state = 'STOPPED', reason = 'budget', detail = 'task used 100412 of 100000 tokens',"
                + " since = '2026-11-22T09:00:00Z'");
        sql("UPDATE safety_counters SET rules_json = '{\"streaks\":{\"f\":2}}', task_ticks = 12, task_tokens = 100412,"
                + " task_started_at = '2026-11-22T08:00:00Z'");
    }

    @Test
    void a_second_halt_and_status_say_since_when_in_the_persons_time_and_json_keeps_utc() throws Exception {
        sql("UPDATE safety_state SET state = 'STOPPED', reason = 'halt', detail = 'lunch',"
                + " since = '2026-11-22T09:00:00.257895446Z'");

        Run again = cli("halt");

        assertThat(again.code()).isZero();
        assertThat(again.out()).startsWith("agent.db was already STOPPED(halt) since Nov 22 18:00 (lunch): ");
        Run status = cli("status");
        assertThat(status.out().lines().findFirst()).hasValue("agent.db: STOPPED(halt) since Nov 22 18:00 (lunch)");
        assertThat(cli("status", "--json").out()).as("machine formats keep UTC")
                .contains("\"since\":\"2026-11-22T09:00:00.257895446Z\"");
    }

    @Test
    void a_budget_stop_without_add_budget_is_refused_with_its_reason_and_what_to_do() throws Exception {
        budgetStop();

        Run refused = cli("unlock");

        assertThat(refused.code()).isEqualTo(ExitCodes.STOPPED).isEqualTo(7);
        assertThat(refused.err()).isEqualTo("agent: agent.db is STOPPED(budget) since Nov 22 18:00:"
                + " task used 100412 of 100000 tokens; run agent unlock --add-budget N (tokens)"
                + " or raise safety.token_budget in agent.toml" + System.lineSeparator());
        assertThat(one("SELECT state FROM safety_state")).isEqualTo("STOPPED");
        assertThat(one("SELECT count(*) FROM safety_audit")).isEqualTo("0");
        assertThat(one("SELECT task_ticks FROM safety_counters")).isEqualTo("12");
    }

    @Test
    void add_budget_releases_a_budget_stop_with_an_audit_row_and_the_task_goes_on() throws Exception {
        budgetStop();

        Run run = cli("unlock", "--add-budget", "25000", "--reason", "worth it");

        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("ACTIVE again (was STOPPED(budget))")
                .contains("added 25000 tokens to the budget (25000 added in all); the task goes on");
        assertThat(one("SELECT state FROM safety_state")).isEqualTo("ACTIVE");
        assertThat(one("SELECT extra_budget FROM safety_counters")).isEqualTo("25000");
        assertThat(one("SELECT event || ' ' || from_state || ' -> ' || to_state || ': ' || detail FROM safety_audit"))
                .isEqualTo("unlock STOPPED(budget) -> ACTIVE: +25000 tokens (--add-budget): worth it");
        assertThat(one("SELECT rules_json || ' ' || task_ticks || ' ' || task_tokens || ' ' || task_started_at"
                + " FROM safety_counters")).isEqualTo("{} 0 100412 2026-11-22T08:00:00Z");

        sql("UPDATE safety_state SET state = 'STOPPED', reason = 'budget'");
        assertThat(cli("unlock", "--add-budget", "5000").code()).isZero();
        assertThat(one("SELECT extra_budget FROM safety_counters")).isEqualTo("30000");
    }

    @Test
    void an_unlock_resets_the_rules_and_the_tick_count_and_starts_a_new_task() throws Exception {
        sql("UPDATE safety_state SET state = 'SAFETY_LOCKOUT', detail = 'loop cap: waiting for a human'");
        sql("UPDATE safety_counters SET rules_json = '{\"window\":[1,1,1]}', task_ticks = 51, task_tokens = 7000,"
                + " task_started_at = '2026-11-22T08:00:00Z'");

        assertThat(cli("unlock").code()).isZero();

        assertThat(one("SELECT rules_json || ' ' || task_ticks || ' ' || task_tokens FROM safety_counters"))
                .isEqualTo("{} 0 0");
        assertThat(one("SELECT task_started_at > '2026-11-22T08:00:00Z' AND task_started_at = updated_at"
                + " FROM safety_counters")).isEqualTo("1");
    }

    @Test
    void add_budget_zero_or_negative_is_a_usage_error_and_changes_nothing() throws Exception {
        budgetStop();

        Run zero = cli("unlock", "--add-budget", "0");
        assertThat(zero.code()).isEqualTo(ExitCodes.USAGE).isEqualTo(2);
        assertThat(zero.err()).contains("--add-budget 0 must be at least 1");
        assertThat(cli("unlock", "--add-budget", "-5").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(cli("unlock", "--add-budget", "many").code()).isEqualTo(ExitCodes.USAGE);
        assertThat(one("SELECT state FROM safety_state")).isEqualTo("STOPPED");
        assertThat(one("SELECT extra_budget FROM safety_counters")).isEqualTo("0");
    }

    @Test
    void a_quota_stop_stays_refused_even_with_more_budget() throws Exception {
        sql("UPDATE safety_state SET state = 'STOPPED', reason = 'quota', detail = NULL, since = '2026-11-22T09:00:00Z'");

        Run refused = cli("unlock", "--add-budget", "1000");

        assertThat(refused.code()).isEqualTo(ExitCodes.STOPPED);
        assertThat(refused.err()).startsWith("agent: agent.db is STOPPED(quota) since Nov 22 18:00:")
                .contains("unlock does not release a quota stop: it needs a config change (agent.toml)");
        assertThat(refused.err().strip()).doesNotContain("\n");
        assertThat(one("SELECT extra_budget FROM safety_counters")).isEqualTo("0");
    }

    @Test
    void an_active_agent_is_left_alone_even_when_budget_is_offered() {
        Run run = cli("unlock", "--add-budget", "1000");

        assertThat(run.code()).isZero();
        assertThat(run.out()).contains("already ACTIVE: nothing to unlock; no budget added");
    }

    @Test
    void an_unlock_refused_to_a_process_the_agent_started_leaves_the_halt_flag_and_the_state_alone() throws Exception {
        sql("UPDATE safety_state SET state = 'STOPPED', reason = 'halt', detail = 'a person said stop',"
                + " since = '2026-11-22T09:00:00Z'");
        HaltFlag flag = new HaltFlag(db);
        flag.raise("a person said stop", Requester.thisProcess());

        Run refused = cli(Map.of("HOME", dir.toString(), "HMP_AGENT_PROC", "runner-7"), "unlock", "--reason", "me");

        assertThat(refused.code()).isEqualTo(ExitCodes.STOPPED).isEqualTo(7);
        assertThat(refused.err()).contains("unlock refused").contains("HMP_AGENT_PROC is set");
        assertThat(refused.out()).as("nothing was lifted").doesNotContain("lifted");
        assertThat(flag.raised()).as("the halt flag is still up").isTrue();
        assertThat(Files.readString(flag.file())).isEqualTo("a person said stop");
        assertThat(one("SELECT state || '(' || reason || ') ' || detail || ' ' || since FROM safety_state"))
                .isEqualTo("STOPPED(halt) a person said stop 2026-11-22T09:00:00Z");
        assertThat(one("SELECT count(*) FROM safety_audit")).isEqualTo("1");
        assertThat(one("SELECT event || ' ' || from_state || ' -> ' || to_state FROM safety_audit"))
                .isEqualTo("unlock_refused STOPPED(halt) -> STOPPED(halt)");

        Run person = cli("unlock");
        assertThat(person.code()).isZero();
        assertThat(person.out()).contains("lifted the halt in agent.db.halt").contains("ACTIVE again");
        assertThat(flag.raised()).isFalse();
    }
}

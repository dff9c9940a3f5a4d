package dev.hmpagent.commands;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.safety.OperationListener;
import dev.hmpagent.safety.StopSignal;
import dev.hmpagent.store.ProcessLogDao;
import dev.hmpagent.store.ProcessRow;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tick's database-only commands run in one write transaction, each in a savepoint (issue 36): a command that fails
 * undoes its own writes only and its error is recorded; a halt between two commands still ends the rest as EHALT.
 */
class CommandBatchTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-29T18:00:00Z");
    final ObjectMapper mapper = new ObjectMapper();
    /** What another connection saw of the diary while the third command ran. */
    final List<Long> seenFromOutside = new ArrayList<>();
    final List<String> ran = new ArrayList<>();

    private CommandHandler write(String type, String text, boolean crash) {
        return new SimpleCommand(type, type, "{}", (args, ctx) -> {
            ran.add(type);
            ctx.diary().add(text, null, 0, ctx.llmId());
            if (crash) throw new IllegalStateException("crashed after its write");
            return CommandOutcome.ok(text + " written");
        });
    }

    private CommandHandler peek(Path db) {
        return new SimpleCommand("peek", "peek", "{}", (args, ctx) -> {
            ran.add("peek");
            seenFromOutside.add(count(db, "SELECT count(*) FROM diary_entries"));
            return CommandOutcome.ok("peeked");
        });
    }

    @Test
    void a_row_of_database_only_commands_commits_once_and_a_crash_undoes_only_its_own_writes() throws Exception {
        Path db = dir.resolve("agent.db");
        try (Store store = Store.open(db, clock)) {
            CommandRegistry registry = new CommandRegistry().register(write("one", "first", false))
                    .register(write("boom", "second", true)).register(peek(db)).markDatabaseOnly();
            ProcessLogDao log = store.tables().processLog();
            for (String type : List.of("one", "boom", "peek")) enqueue(log, type);
            List<CommandRun> reported = new ArrayList<>();
            CommandExecutor.Executed done = new CommandExecutor(store, registry, mapper, CommandGate.ALLOW_ALL,
                    Approver.NOBODY, OperationListener.NONE).runPending(1, "m", StopSignal.over(store).since(), () -> false,
                    reported::add);

            assertThat(seenFromOutside).as("while the batch runs, its first write is not committed yet").containsExactly(0L);
            assertThat(done.runs()).extracting(CommandRun::status).containsExactly("ok", "error", "ok");
            assertThat(reported).isEqualTo(done.runs());
            assertThat(done.runs().get(1).result()).contains("boom crashed").contains("crashed after its write");
            assertThat(count(db, "SELECT count(*) FROM diary_entries WHERE text = 'first'")).isEqualTo(1);
            assertThat(count(db, "SELECT count(*) FROM diary_entries WHERE text = 'second'"))
                    .as("the crashed command's write is rolled back to its savepoint").isZero();
            assertThat(count(db, "SELECT count(*) FROM process_log WHERE status = 'pending'")).isZero();
        }
    }

    @Test
    void a_halt_between_two_batched_commands_commits_the_ones_that_ran_and_ends_the_rest_as_EHALT() throws Exception {
        Path db = dir.resolve("agent.db");
        try (Store store = Store.open(db, clock)) {
            StopSignal signal = StopSignal.over(store);
            CommandHandler halting = new SimpleCommand("halting", "halting", "{}", (args, ctx) -> {
                ran.add("halting");
                ctx.diary().add("before the halt", null, 0, ctx.llmId());
                signal.halt();   // a person's /halt while this command runs
                return CommandOutcome.ok("written");
            });
            CommandRegistry registry = new CommandRegistry().register(halting).register(write("after", "after", false))
                    .register(peek(db)).markDatabaseOnly();
            ProcessLogDao log = store.tables().processLog();
            for (String type : List.of("halting", "after", "peek")) enqueue(log, type);
            List<CommandRun> reported = new ArrayList<>();
            CommandExecutor.Executed done = new CommandExecutor(store, registry, mapper, CommandGate.ALLOW_ALL,
                    Approver.NOBODY, OperationListener.NONE).runPending(1, "m", signal.since(), () -> false, reported::add);

            assertThat(done.halted()).isTrue();
            assertThat(ran).as("nothing runs after the halt").containsExactly("halting");
            assertThat(reported).extracting(CommandRun::type, CommandRun::status).containsExactly(
                    org.assertj.core.groups.Tuple.tuple("halting", "ok"), org.assertj.core.groups.Tuple.tuple("after", "error"),
                    org.assertj.core.groups.Tuple.tuple("peek", "error"));
            List<ProcessRow> rows = log.byTick(1);
            assertThat(rows).extracting(ProcessRow::status).containsExactly("ok", "error", "error");
            assertThat(count(db, "SELECT count(*) FROM process_log WHERE error_code = 'EHALT'")).isEqualTo(2);
            assertThat(rows.get(1).result()).contains("not run").contains(CommandExecutor.HALTED);
            assertThat(count(db, "SELECT count(*) FROM diary_entries WHERE text = 'before the halt'"))
                    .as("what ran before the halt is committed").isEqualTo(1);
        }
    }

    private static void enqueue(ProcessLogDao log, String type) {
        log.enqueue(1, type, "c-" + type, "{\"type\": \"" + type + "\", \"args\": {}}", "f-" + type);
    }

    private static long count(Path db, String sql) {
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement();
             ResultSet rs = st.executeQuery(sql)) {
            return rs.next() ? rs.getLong(1) : -1;
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }
}

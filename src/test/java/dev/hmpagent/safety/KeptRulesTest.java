package dev.hmpagent.safety;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.hmpagent.store.SafetyCountersDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The rules kept parsed between operations: the same verdicts and text as parsing the row every time. */
class KeptRulesTest {
    @TempDir Path dir;

    private static final SafetyRules.Limits LIMITS = SafetyRules.Limits.DEFAULTS;

    /** One random step on the rules; the verdict's action and rule, or "" for a step without one. */
    private static String step(SafetyRules rules, Random random) {
        int n = random.nextInt(12);
        String fp = "fp" + random.nextInt(4);
        String key = ResultState.STATE + "s" + random.nextInt(30);
        return switch (n) {
            case 0 -> rules.beforeCommand(fp).toString();
            case 1 -> rules.beforeCall().toString();
            case 2 -> { rules.called(); yield ""; }
            case 3 -> { rules.newInput(); yield ""; }
            case 4 -> random.nextInt(8) == 0 ? personMessage(rules) : rules.after(SafetyRules.Operation.chant(fp)).toString();
            case 5, 6 -> rules.after(SafetyRules.Operation.commandFailed(fp, key)).toString();
            default -> rules.after(SafetyRules.Operation.commandSucceeded(fp, key)).toString();
        };
    }

    private static String personMessage(SafetyRules rules) {
        rules.personMessage();
        return "";
    }

    /** The whole state the file holds: the rules' row and the task's states in their table. */
    private static String inFile(SafetyCountersDao counters) {
        return SafetyRules.fromStored(LIMITS, counters.current().rulesJson(), counters::taskStates).toJson();
    }

    @Test
    void two_thousand_random_steps_give_the_same_verdicts_and_state_as_parsing_the_whole_text_each_time() {
        for (long seed = 1; seed <= 5; seed++) {
            try (Store store = Store.open(dir.resolve("rules-" + seed + ".db"), MutableClock.at("2026-11-30T10:00:00Z"))) {
                SafetyCountersDao counters = store.tables().safetyCounters();
                Random a = new Random(seed);
                Random b = new Random(seed);
                KeptRules kept = new KeptRules(LIMITS, counters);
                String parsedRow = "{}";
                for (int i = 0; i < 2_000; i++) {
                    String keptVerdict = store.inTransaction(() -> {
                        SafetyRules fromKept = kept.take(counters.current().rulesJson());
                        String verdict = step(fromKept, a);
                        kept.save(fromKept);
                        return verdict;
                    });

                    SafetyRules fresh = SafetyRules.fromJson(LIMITS, parsedRow);
                    String freshVerdict = step(fresh, b);
                    parsedRow = fresh.toJson();

                    assertThat(keptVerdict).as("seed %d step %d", seed, i).isEqualTo(freshVerdict);
                    if (i % 50 == 0 || i == 1_999) assertThat(inFile(counters)).as("seed %d step %d", seed, i).isEqualTo(parsedRow);
                }
                assertThat(counters.current().rulesJson()).as("the states are not in the row").doesNotContain("\"seen\"");
            }
        }
    }

    @Test
    void rules_taken_and_neither_saved_nor_unchanged_are_read_from_the_row_again() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-30T10:00:00Z"))) {
            SafetyCountersDao counters = store.tables().safetyCounters();
            KeptRules kept = new KeptRules(LIMITS, counters);
            SafetyRules rules = kept.take("{}");
            kept.save(rules);
            String saved = counters.current().rulesJson();
            SafetyRules taken = kept.take(saved);
            assertThat(taken).isSameAs(rules);
            taken.after(SafetyRules.Operation.commandFailed("fp", null));   // changed, then lost (a failure before the save)

            SafetyRules again = kept.take(saved);
            assertThat(again).isNotSameAs(taken);
            assertThat(again.streakOf("fp")).isZero();
            assertThat(again.toStoredJson()).isEqualTo(saved);
        }
    }

    @Test
    void the_states_seen_live_in_their_table_the_newest_two_thousand_and_forty_eight_and_a_rollback_undoes_both() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-30T10:00:00Z"))) {
            SafetyCountersDao counters = store.tables().safetyCounters();
            KeptRules kept = new KeptRules(LIMITS, counters);
            for (int i = 0; i < TaskLedger.REMEMBERED + 100; i++) {
                String state = ResultState.STATE + "s" + i;
                store.inTransaction(() -> {
                    SafetyRules rules = kept.take(counters.current().rulesJson());
                    rules.after(SafetyRules.Operation.commandSucceeded("fp" + state, state));
                    kept.save(rules);
                });
            }
            List<String> states = counters.taskStates();
            assertThat(states).hasSize(TaskLedger.REMEMBERED);
            assertThat(states.get(0)).isEqualTo(ResultState.STATE + "s100");
            assertThat(states.get(states.size() - 1)).isEqualTo(ResultState.STATE + "s" + (TaskLedger.REMEMBERED + 99));
            assertThat(counters.current().rulesJson()).as("a row of its size, not the states'").hasSizeLessThan(2_000);

            // a forgotten state reached again is the newest; the oldest goes
            String again = ResultState.STATE + "s7";
            store.inTransaction(() -> {
                SafetyRules rules = kept.take(counters.current().rulesJson());
                rules.after(SafetyRules.Operation.commandSucceeded("fp-again", again));
                kept.save(rules);
            });
            assertThat(counters.taskStates()).hasSize(TaskLedger.REMEMBERED).endsWith(again)
                    .doesNotContain(ResultState.STATE + "s100");

            // a new state whose transaction fails: neither the row nor the table keeps it, nor the kept rules
            String lost = ResultState.STATE + "lost";
            assertThatThrownBy(() -> store.inTransaction(() -> {
                SafetyRules rules = kept.take(counters.current().rulesJson());
                rules.after(SafetyRules.Operation.commandSucceeded("fp-lost", lost));
                kept.save(rules);
                throw new IllegalStateException("the disk is full");
            })).hasMessage("the disk is full");
            assertThat(counters.taskStates()).doesNotContain(lost);
            assertThat(kept.take(counters.current().rulesJson()).toJson()).as("still new to the task").doesNotContain(lost)
                    .contains(again);

            // a person's unlock starts the rules afresh: the states go with them
            store.inTransaction(() -> counters.resetAfterUnlock(java.time.Instant.parse("2026-11-30T11:00:00Z"), false));
            assertThat(counters.taskStates()).isEmpty();
            assertThat(kept.take(counters.current().rulesJson()).toJson()).doesNotContain(again);
        }
    }

    @Test
    void an_unreadable_row_starts_the_rules_afresh_and_its_states_go_with_it() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-30T10:00:00Z"))) {
            SafetyCountersDao counters = store.tables().safetyCounters();
            store.inTransaction(() -> counters.saveRules("{\"ledger\": {\"entered\": 1}}", false,
                    List.of(ResultState.STATE + "a"), 0));
            store.inTransaction(() -> counters.saveRules("{not json", false, List.of(), 0));
            KeptRules kept = new KeptRules(LIMITS, counters);
            store.inTransaction(() -> {
                SafetyRules rules = kept.take(counters.current().rulesJson());
                assertThat(rules.toJson()).isEqualTo(SafetyRules.fromJson(LIMITS, "{}").toJson());
                kept.save(rules);
            });
            assertThat(counters.taskStates()).isEmpty();
        }
    }

    @Test
    void rules_stored_with_their_states_in_the_row_move_them_to_the_table_at_the_next_save() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-30T10:00:00Z"))) {
            SafetyCountersDao counters = store.tables().safetyCounters();
            SafetyRules before = SafetyRules.fromJson(LIMITS, "{}");
            for (int i = 0; i < 3; i++) before.after(SafetyRules.Operation.commandSucceeded("fp" + i, ResultState.STATE + "old" + i));
            String oldRow = before.toJson();   // as a file written before task_states held them
            assertThat(oldRow).contains("\"seen\"");
            store.inTransaction(() -> counters.saveRules(oldRow, true, List.of(), 0));

            KeptRules kept = new KeptRules(LIMITS, counters);
            store.inTransaction(() -> {
                SafetyRules rules = kept.take(counters.current().rulesJson());
                assertThat(rules.toJson()).isEqualTo(oldRow);
                rules.called();
                kept.save(rules);
            });

            assertThat(counters.taskStates()).containsExactly(ResultState.STATE + "old0", ResultState.STATE + "old1",
                    ResultState.STATE + "old2");
            assertThat(counters.current().rulesJson()).doesNotContain("\"seen\"");
            before.called();
            assertThat(inFile(counters)).isEqualTo(before.toJson());
        }
    }

    @Test
    void the_monitor_reads_a_row_another_process_changed_instead_of_its_kept_rules() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-29T10:00:00Z"))) {
            SafetyMonitor monitor = new SafetyMonitor(store, SafetyMonitor.Limits.DEFAULTS, Guides.byName("learning"),
                    r -> { }, line -> { });
            List<String> shown = new ArrayList<>();
            for (long row = 1; row <= 4; row++) {
                shown.add(failed(store, monitor, row));
            }
            assertThat(shown.get(3)).contains("failure 4 of the same action");
            // as an unlock by another process leaves it: the rules start afresh in the file
            store.inTransaction(() -> store.tables().safetyCounters().saveRules("{}", true, List.of(), 0));

            assertThat(monitor.refuseBeforeCommand(5, "fp-same")).isEmpty();
            assertThat(failed(store, monitor, 5)).doesNotContain("of the same action");
        }
    }

    private static String failed(Store store, SafetyMonitor monitor, long row) {
        FailureFact fact = FailureFact.command("shell", "fp-same", "ENOENT", "no such file: notes.txt");
        Operation op = Operation.ofCommand(row, "shell", JsonNodeFactory.instance.objectNode().put("command", "cat notes.txt"),
                "fp-same", "error", "no such file: notes.txt", Optional.of(fact), false);
        return store.inTransaction(() -> monitor.onOperation(row, op));
    }
}

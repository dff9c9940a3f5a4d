package dev.hmpagent.safety;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
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

    @Test
    void two_thousand_random_steps_give_the_same_verdicts_and_text_as_parsing_the_row_each_time() {
        for (long seed = 1; seed <= 5; seed++) {
            Random a = new Random(seed);
            Random b = new Random(seed);
            KeptRules kept = new KeptRules(LIMITS);
            String row = "{}";
            String parsedRow = "{}";
            for (int i = 0; i < 2_000; i++) {
                SafetyRules fromKept = kept.take(row);
                String keptVerdict = step(fromKept, a);
                row = kept.save(fromKept);

                SafetyRules fresh = SafetyRules.fromJson(LIMITS, parsedRow);
                String freshVerdict = step(fresh, b);
                parsedRow = fresh.toJson();

                assertThat(keptVerdict).as("seed %d step %d", seed, i).isEqualTo(freshVerdict);
                assertThat(row).as("seed %d step %d", seed, i).isEqualTo(parsedRow);
            }
        }
    }

    @Test
    void rules_taken_and_neither_saved_nor_unchanged_are_read_from_the_row_again() {
        KeptRules kept = new KeptRules(LIMITS);
        SafetyRules rules = kept.take("{}");
        String saved = kept.save(rules);
        SafetyRules taken = kept.take(saved);
        assertThat(taken).isSameAs(rules);
        taken.after(SafetyRules.Operation.commandFailed("fp", null));   // changed, then lost (a failure before the save)

        SafetyRules again = kept.take(saved);
        assertThat(again).isNotSameAs(taken);
        assertThat(again.streakOf("fp")).isZero();
        assertThat(again.toJson()).isEqualTo(saved);
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
            store.inTransaction(() -> store.tables().safetyCounters().saveRules("{}"));

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

package dev.hmpagent.context;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.commands.catalogue.Catalogue;
import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A person's message is their task: the prompt shows it whole within the budget, and where it must cut one it says
 * so to the person (with the numbers) and tells the model how to read the rest.
 */
class PersonMessageTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-29T10:00:00Z");
    Store store;
    NotesDao notes;
    final List<String> told = new ArrayList<>();

    @BeforeEach
    void open() {
        store = Store.open(dir.resolve("agent.db"), clock);
        notes = new NotesDao(store);
    }

    @AfterEach
    void close() {
        store.close();
    }

    ContextAssembler assembler(int budget) {
        ContextAssembler a = new ContextAssembler(new ContextSettings("tester", 3, budget, false, 20, NoteFilter.ALL,
                false), Catalogue.builtIn().catalog(), () -> "m at http://x/v1", ContextSources.of(store),
                ContextAssembler.DEFAULT_PIN_CAP, ContextAssembler.DEFAULT_PER_SOURCE_CAP, () -> "0123abcd4567ef89");
        a.tellPersonWith(told::add);
        return a;
    }

    /** The paste of the review: a 61-line log of 4.9 KB. */
    static String pastedLog() {
        return IntStream.rangeClosed(1, 61).mapToObj(i -> String.format(
                "2026-11-29 03:%02d:11 INFO  worker-%d request %04d served in %d ms from cache", i % 60, i % 7, i, 10 + i))
                .collect(Collectors.joining("\n"));
    }

    @Test
    void a_pasted_61_line_log_reaches_the_model_whole_and_nobody_is_told_of_a_cut() {
        String paste = pastedLog();
        assertThat(paste.length()).isBetween(4_500, 5_000);
        notes.add(paste, "user", 0, null);

        String user = assembler(6_000).assemble(1, clock.instant()).messages().get(1).content();

        assertThat(user).contains(paste).doesNotContain("more chars");
        assertThat(told).isEmpty();
    }

    @Test
    void a_message_over_what_the_budget_holds_is_cut_with_the_numbers_said_once_and_the_way_to_read_the_rest() {
        String paste = "x".repeat(30_000);
        long id = notes.add(paste, "user", 0, null);
        ContextAssembler a = assembler(6_000);

        AssembledPrompt p = a.assemble(1, clock.instant());
        a.assemble(2, clock.instant());   // a retried call shows it again: the person is told once

        int shown = IncomingContext.personChars(6_000 - systemTokens(p));
        assertThat(shown).isGreaterThan(4_000).isLessThan(30_000);
        assertThat(p.noteIdsShown()).containsExactly(id);
        assertThat(p.messages().get(1).content()).contains("x".repeat(shown) + "… (" + (30_000 - shown)
                + " more chars of this message: read them with note_read {\"id\": " + id + ", \"from\": " + shown + "})");
        assertThat(told).singleElement().asString().contains("your message of 30,000 characters")
                .contains(String.format("the first %,d", shown)).contains(String.format("the other %,d", 30_000 - shown))
                .contains("context.prompt_budget_tokens = 6,000");
    }

    @Test
    void a_message_sent_with_agent_note_is_a_persons_too() {
        String paste = pastedLog();
        notes.add(paste, "cli", 0, null);
        assertThat(assembler(6_000).assemble(1, clock.instant()).messages().get(1).content()).contains(paste);
    }

    @Test
    void a_note_from_elsewhere_keeps_its_old_cap() {
        notes.add("y".repeat(6_000), "peer-7", 0, null);
        String user = assembler(6_000).assemble(1, clock.instant()).messages().get(1).content();
        assertThat(user).contains("y".repeat(4_000) + "… (2000 more chars)").doesNotContain("y".repeat(4_001));
        assertThat(told).isEmpty();
    }

    private static int systemTokens(AssembledPrompt p) {
        return dev.hmpagent.llm.TokenEstimator.estimate(List.of(p.messages().get(0)));
    }
}

package dev.hmpagent.context;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.hmpagent.llm.ToolSpec;
import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.ResponsesDao;
import dev.hmpagent.commands.catalogue.Catalogue;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Context 0 for an LLM entry that takes tool calls, and what its tools cost of the prompt budget. */
class ToolsContextTest {
    private static final Instant NOW = Instant.parse("2026-11-21T10:00:00Z");
    @TempDir Path dir;
    Store store;

    @BeforeEach
    void open() {
        store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-21T10:00:00Z"));
    }

    @AfterEach
    void close() {
        store.close();
    }

    ContextAssembler assembler(int budget, boolean manual) {
        return assembler(new ContextSettings("tester", 3, budget, manual, 20, NoteFilter.ALL, false));
    }

    ContextAssembler assembler(ContextSettings settings) {
        return new ContextAssembler(settings, Catalogue.builtIn().catalog(), () -> "m at http://x/v1",
                ContextSources.of(store), ContextAssembler.DEFAULT_PIN_CAP, ContextAssembler.DEFAULT_PER_SOURCE_CAP,
                () -> "0123abcd4567ef89");
    }

    private static List<ToolSpec> tools(int count, int descriptionChars) {
        List<ToolSpec> out = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            out.add(new ToolSpec("tool_" + i, "x".repeat(descriptionChars), JsonNodeFactory.instance.objectNode()
                    .put("type", "object")));
        }
        return out;
    }

    @Test
    void no_tools_offered_means_no_offer_and_the_block_contract_alone() {
        AssembledPrompt p = assembler(6000, false).assemble(1, NOW);

        assertThat(p.offer().any()).isFalse();
        assertThat(p.messages().get(0).content()).contains("# Commands:");
    }

    @Test
    void the_offer_carries_the_tools_and_a_context_0_that_says_to_call_them_without_the_catalogue() {
        ContextAssembler assembler = assembler(6000, false);
        assembler.offerTools(tools(2, 10));

        AssembledPrompt p = assembler.assemble(1, NOW);

        assertThat(p.offer().tools()).extracting(ToolSpec::name).containsExactly("tool_0", "tool_1");
        String tools0 = p.offer().system().content();
        assertThat(tools0).startsWith(p.messages().get(0).content().substring(0, 200))
                .contains("call the tools", "\"use\"").doesNotContain("# Commands:", "diary_entry —");
        assertThat(p.messages().get(0).content()).as("the block contract stays for block entries")
                .contains("# Commands:");
    }

    @Test
    void big_tools_take_their_share_of_the_prompt_budget() {
        ResponsesDao responses = new ResponsesDao(store);
        for (int i = 0; i < 3; i++) responses.add(i + 1, ("old reply " + i + " ").repeat(300), "", 0.5, 1, 1, false, false, false, "m");
        new NotesDao(store).add("the user's question", "user", 0, null);
        ContextAssembler plain = assembler(new ContextSettings("tester", 3, 6_000, false, 20, NoteFilter.ALL, false));
        ContextAssembler offering = assembler(new ContextSettings("tester", 3, 6_000, false, 20, NoteFilter.ALL, false));
        offering.offerTools(tools(40, 500));

        AssembledPrompt without = plain.assemble(9, NOW);
        AssembledPrompt with = offering.assemble(9, NOW);

        assertThat(without.trimmed()).doesNotContainKey(1);
        assertThat(with.trimmed()).as("the tools left less room for context 1").containsKey(1);
    }
}

package dev.hmpagent.context;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.commands.catalogue.Catalogue;
import dev.hmpagent.cycle.CommandTools;
import dev.hmpagent.llm.ReplySchema;
import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Context 0 for an LLM entry that answers with one JSON object ({@code commands = "json"}), and the offer it rides in. */
class JsonContextTest {
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

    private ContextAssembler assembler() {
        return new ContextAssembler(new ContextSettings("tester", 3, 6000, false, 20, NoteFilter.ALL, false),
                Catalogue.builtIn().catalog(), () -> "m at http://x/v1", ContextSources.of(store),
                ContextAssembler.DEFAULT_PIN_CAP, ContextAssembler.DEFAULT_PER_SOURCE_CAP, () -> "0123abcd4567ef89");
    }

    @Test
    void the_json_context_0_asks_for_the_object_keeps_the_catalogue_and_the_block_entries_keep_theirs() {
        ContextAssembler assembler = assembler();
        ReplySchema schema = ReplySchema.of(CommandTools.commands(Catalogue.builtIn(), List.of()));
        assembler.offerReplySchema(schema);

        AssembledPrompt p = assembler.assemble(1, NOW);

        String block0 = p.messages().get(0).content();
        String json0 = p.offer().jsonSystem().content();
        assertThat(p.offer().anyJson()).isTrue();
        assertThat(p.offer().any()).as("no tools offered").isFalse();
        assertThat(p.offer().replySchema()).isEqualTo(schema);
        assertThat(json0).contains("Reply format: one JSON object and nothing else",
                "{\"thought\": \"the user greeted me\", \"commands\": [{\"type\": \"send_message\"",
                "An empty \"commands\" list means you do nothing this tick. Available command types:",
                "diary_entry").doesNotContain("# Commands:", "# End commands", "cmd_id");
        String role = block0.substring(0, block0.indexOf("\n\nText that comes from outside"));
        assertThat(json0).startsWith(role);
        assertThat(json0).endsWith(block0.substring(block0.indexOf("Available command types:")));
        assertThat(block0).as("the block contract stays for block entries").contains("# Commands:");
    }
}

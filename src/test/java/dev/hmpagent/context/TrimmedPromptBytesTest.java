package dev.hmpagent.context;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.bench.FullContext;
import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.ResponsesDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.TreeMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * Pins the bytes of over-budget prompts: the digests below are of prompts the assembler made before its trimming kept
 * running token counts (it rendered the whole prompt again after every dropped item), on a file whose every context is
 * full ({@link FullContext}). The digest covers everything {@link AssembledPrompt} holds: the messages with their
 * stable prefix and seams, the parts, the ids shown, the watermark, the token estimate, the trimmed counts and the
 * text shown as data. Pinned again when context 0's words change (issue 33: how the model ends its turn), and when a person's
 * message (typed, or sent with agent note) was no longer cut at 4,000 characters (issue 34: up to 60 % of the
 * budget left, the way to read the rest).
 */
class TrimmedPromptBytesTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");
    Store store;

    @BeforeEach
    void open() {
        store = Store.open(dir.resolve("agent.db"), clock);
        FullContext.fill(store, 14);
    }

    @AfterEach
    void close() {
        store.close();
    }

    @ParameterizedTest(name = "budget {0}, manual {1}")
    @CsvSource({
        "500, false",
        "1500, false",
        "2200, false",
        "3000, false",
        "4000, true",
        "6000, false",
        "20000, false",
        "200000, false",
        "1500, true",
        "6000, true",
    })
    void an_over_budget_prompt_is_byte_identical_to_the_one_the_old_trimming_made(int budget, boolean manual)
            throws Exception {
        ContextAssembler assembler = assembler(budget, manual);
        String first = digest(assembler.assemble(20, clock.instant()));
        new ResponsesDao(store).add(20, "a new reply at tick 20", "", 0.5, 1, 1, false, false, false, "m");
        String second = digest(assembler.assemble(21, clock.instant()));
        assertThat(first + " " + second).isEqualTo(EXPECTED.get(budget + " " + manual));
    }

    private static final java.util.Map<String, String> EXPECTED = java.util.Map.of(
            "500 false", "365112099c3d4db9 365112099c3d4db9",
            "1500 false", "365112099c3d4db9 365112099c3d4db9",
            "2200 false", "adf306769cfa60aa e518ca9f104c27ef",
            "3000 false", "0be07f8e90520ef7 56133a589a4dc5cf",
            "4000 true", "06d3f3157ded6d18 6c501bb8ac0189a4",
            "6000 false", "6ab604797d72b209 fa0a5217e96599c2",
            "20000 false", "85794312fae0ff48 46a84f3368f39df9",
            "200000 false", "5b216500d5bfed32 2a0068fe4b809a67",
            "1500 true", "404a9333ae3172a2 718ccd762bfcd6eb",
            "6000 true", "24530744c93db7ac 7fa9d7db764a8bb4");

    private ContextAssembler assembler(int budget, boolean manual) {
        ContextSettings settings = new ContextSettings("tester", 5, budget, manual, 20, NoteFilter.ALL, false);
        return new ContextAssembler(settings, "- a_command — does a thing\n", () -> "m at http://x/v1",
                ContextSources.of(store), ContextAssembler.DEFAULT_PIN_CAP, ContextAssembler.DEFAULT_PER_SOURCE_CAP,
                () -> "0123abcd4567ef89");
    }

    static String digest(AssembledPrompt p) throws Exception {
        StringBuilder sb = new StringBuilder();
        p.messages().forEach(m -> sb.append(m.role()).append('\u0001').append(m.content()).append('\u0001')
                .append(m.stablePrefix()).append('\u0001').append(m.seams()).append('\u0002'));
        p.parts().forEach(part -> sb.append(part.message()).append(':').append(part.context()).append(':')
                .append(part.text()).append('\u0003'));
        sb.append(p.noteIdsShown()).append(p.noteWatermark()).append(p.processIdsShown()).append(p.estimatedTokens())
                .append(new TreeMap<>(p.trimmed())).append(p.dataShown());
        byte[] hash = MessageDigest.getInstance("SHA-256").digest(sb.toString().getBytes(StandardCharsets.UTF_8));
        return HexFormat.of().formatHex(hash, 0, 8);
    }
}

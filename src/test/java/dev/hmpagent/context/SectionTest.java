package dev.hmpagent.context;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SectionTest {
    private static final List<String> TEXTS = List.of("a", " ", "\n", "b \n", "  ", "é…", "\uD83D\uDE00 ", "\t", "");

    @Test
    void the_running_counts_match_the_rendered_text_through_adds_drops_and_leaves() {
        Random random = new Random(21);
        for (int round = 0; round < 2_000; round++) {
            Section s = new Section(5, "settings", random.nextBoolean() ? "" : "(none) ", random.nextBoolean(),
                    random.nextInt(2));
            int items = random.nextInt(5);
            for (int i = 0; i < items; i++) s.add(TEXTS.get(random.nextInt(TEXTS.size())), i + 1);
            if (random.nextInt(3) == 0) s.leave(random.nextInt(3));
            for (int d = random.nextInt(4); d > 0; d--) s.dropOne();
            String rendered = s.render();
            assertThat(s.codePoints()).as(rendered).isEqualTo(rendered.codePointCount(0, rendered.length()));
            String stripped = rendered.stripTrailing();
            assertThat(s.trailingWhitespace()).as(rendered)
                    .isEqualTo(rendered.codePointCount(stripped.length(), rendered.length()));
        }
    }
}

package dev.hmpagent.stagnation;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.ReflexDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class EffectTest {
    @TempDir Path dir;

    @Test
    void every_effect_the_catalogue_names_is_known_and_every_known_effect_is_in_the_catalogue() {
        try (Store store = Store.open(dir.resolve("agent.db"), MutableClock.at("2026-11-24T10:00:00Z"))) {
            Set<Effect> named = new ReflexDao(store).catalogue().stream()
                    .filter(e -> !e.effect().isEmpty()).map(e -> Effect.of(e.effect()))
                    .collect(Collectors.toCollection(() -> EnumSet.noneOf(Effect.class)));
            assertThat(named).isEqualTo(EnumSet.complementOf(EnumSet.of(Effect.NONE)));
        }
    }

    @Test
    void a_code_name_reads_as_its_effect_and_anything_else_as_none() {
        assertThat(Arrays.stream(Effect.values()).filter(e -> e != Effect.NONE))
                .allSatisfy(e -> assertThat(Effect.of(e.code())).isEqualTo(e));
        assertThat(Effect.of("reflex_tuning")).isEqualTo(Effect.REFLEX_TUNING);
        assertThat(Effect.of(null)).isEqualTo(Effect.NONE);
        assertThat(Effect.of("")).isEqualTo(Effect.NONE);
        assertThat(Effect.of("mesh_request")).isEqualTo(Effect.MESH_REQUEST);
        assertThat(Effect.of("check_feeds")).isEqualTo(Effect.NONE);
        assertThat(Effect.of("SLEEP")).isEqualTo(Effect.NONE);
    }
}

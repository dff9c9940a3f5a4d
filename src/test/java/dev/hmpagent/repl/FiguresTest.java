package dev.hmpagent.repl;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.junit.jupiter.api.Test;

class FiguresTest {
    @Test
    void token_counts_read_at_a_glance() {
        assertThat(Figures.compact(0)).isEqualTo("0");
        assertThat(Figures.compact(999)).isEqualTo("999");
        assertThat(Figures.compact(1_000)).isEqualTo("1k");
        assertThat(Figures.compact(1_234)).isEqualTo("1.2k");
        assertThat(Figures.compact(18_400)).isEqualTo("18.4k");
        assertThat(Figures.compact(100_000)).isEqualTo("100k");
        assertThat(Figures.compact(999_499)).isEqualTo("999k");
        assertThat(Figures.compact(999_500)).isEqualTo("1M");
        assertThat(Figures.compact(1_250_000)).isEqualTo("1.3M");
        assertThat(Figures.compact(-1_500)).isEqualTo("-1.5k");
    }

    @Test
    void used_against_a_budget_with_its_share() {
        assertThat(Figures.against(18_400, 100_000)).isEqualTo("18.4k / 100k (18 %)");
        assertThat(Figures.against(5, 0)).isEqualTo("5");
        assertThat(Figures.task(new TokenFigures(1, 18_400, 100_000, 0, 0, 1))).isEqualTo("task 18.4k / 100k");
    }

    @Test
    void times_are_short_in_the_persons_zone_and_ages_are_rounded_down() {
        Clock clock = Clock.fixed(Instant.parse("2026-11-21T23:30:00Z"), ZoneOffset.UTC);
        LocalTimes tokyo = new LocalTimes(clock, ZoneId.of("Asia/Tokyo"));   // already Nov 22 there
        assertThat(tokyo.at("2026-11-21T23:00:00Z")).isEqualTo("08:00");
        assertThat(tokyo.at("2026-11-21 14:00:00")).as("SQLite's CURRENT_TIMESTAMP, UTC").isEqualTo("Nov 21 23:00");
        assertThat(tokyo.at("2024-01-02T03:04:05Z")).isEqualTo("2024-01-02 12:04");
        assertThat(tokyo.at("not a time\u001b[31m")).isEqualTo("not a time");
        assertThat(tokyo.at(null)).isEqualTo("-");
        assertThat(tokyo.age("2026-11-21T23:29:01Z")).isEqualTo("59 s");
        assertThat(tokyo.age("2026-11-21T21:29:00Z")).isEqualTo("2 h");
        assertThat(tokyo.age("garbage")).isEqualTo("?");
        assertThat(LocalTimes.duration(Duration.ofDays(3))).isEqualTo("3 d");
        assertThat(LocalTimes.duration(Duration.ofSeconds(-5))).isEqualTo("0 s");
    }
}

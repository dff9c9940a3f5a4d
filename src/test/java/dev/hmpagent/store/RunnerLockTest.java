package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hmpagent.testing.MutableClock;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunnerLockTest {
    @TempDir Path dir;
    final MutableClock clock = MutableClock.at("2026-11-21T10:00:00Z");
    final Set<Long> alive = new java.util.HashSet<>(Set.of(100L, 200L));

    RunnerLock lock(Store store, long pid) {
        return new RunnerLock(store, pid, "box", alive::contains, Duration.ofSeconds(30));
    }

    @Test
    void a_second_runner_on_the_same_file_is_told_who_holds_it() {
        try (Store a = Store.open(dir.resolve("agent.db"), clock); Store b = Store.open(dir.resolve("agent.db"), clock)) {
            assertThat(lock(a, 100).acquire()).isEmpty();
            assertThatThrownBy(() -> lock(b, 200).acquire())
                    .isInstanceOf(RunnerLock.HeldException.class)
                    .hasMessageContaining("pid 100")
                    .hasMessageContaining("since 2026-11-21T10:00:00Z")
                    .hasMessageContaining("--db");
        }
    }

    @Test
    void a_holder_whose_pid_is_dead_is_taken_over() {
        try (Store a = Store.open(dir.resolve("agent.db"), clock); Store b = Store.open(dir.resolve("agent.db"), clock)) {
            RunnerLock first = lock(a, 100);
            first.acquire();
            alive.remove(100L);
            RunnerLock second = lock(b, 200);
            assertThat(second.acquire()).hasValueSatisfying(h -> assertThat(h.pid()).isEqualTo(100));
            assertThat(second.held()).isTrue();
            assertThat(first.held()).isFalse();
        }
    }

    @Test
    void a_holder_with_an_old_heartbeat_is_taken_over_and_a_fresh_one_is_not() {
        try (Store a = Store.open(dir.resolve("agent.db"), clock); Store b = Store.open(dir.resolve("agent.db"), clock)) {
            RunnerLock first = lock(a, 100);
            first.acquire();
            clock.advance(Duration.ofSeconds(25));
            first.heartbeat();
            clock.advance(Duration.ofSeconds(25));
            assertThatThrownBy(() -> lock(b, 200).acquire()).isInstanceOf(RunnerLock.HeldException.class);
            clock.advance(Duration.ofSeconds(10));
            assertThat(lock(b, 200).acquire()).isPresent();
        }
    }

    @Test
    void a_holder_that_was_taken_over_learns_it_at_its_next_heartbeat() {
        try (Store a = Store.open(dir.resolve("agent.db"), clock); Store b = Store.open(dir.resolve("agent.db"), clock)) {
            RunnerLock first = lock(a, 100);
            first.acquire();
            assertThat(first.heartbeat()).isTrue();
            clock.advance(Duration.ofSeconds(31));   // e.g. suspended with Ctrl-Z
            lock(b, 200).acquire();
            assertThat(first.heartbeat()).isFalse();
            assertThat(first.held()).isFalse();
        }
    }

    @Test
    void release_frees_the_file() {
        try (Store a = Store.open(dir.resolve("agent.db"), clock)) {
            RunnerLock first = lock(a, 100);
            first.acquire();
            first.release();
            assertThat(first.holder()).isEmpty();
            assertThat(lock(a, 200).acquire()).isEmpty();
        }
    }
}

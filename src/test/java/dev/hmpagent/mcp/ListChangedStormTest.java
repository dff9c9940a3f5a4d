package dev.hmpagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.event.AgentEvent;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A storm of {@code notifications/tools/list_changed} costs at most one {@code tools/list} a second per server, and
 * the last notification of a burst is still followed by one: the server counts the lists it was sent; time is a
 * hand-moved clock, and the refreshes run when the test moves it.
 */
@Timeout(60)
class ListChangedStormTest {
    /** A clock moved by hand, whose due tasks run on the test's thread when it is moved. */
    static final class HandClock implements Coalescer.Scheduler {
        private long now;
        private final List<long[]> due = new ArrayList<>();
        private final List<Runnable> tasks = new ArrayList<>();

        @Override
        public synchronized long nanos() {
            return now;
        }

        @Override
        public synchronized void after(long delayNanos, Runnable task) {
            due.add(new long[] {now + delayNanos});
            tasks.add(task);
        }

        /** How many tasks wait. */
        synchronized int waiting() {
            return tasks.size();
        }

        /** Moves the clock by {@code step} and runs what is due by then, in order. */
        void advance(Duration step) {
            List<Runnable> run = new ArrayList<>();
            synchronized (this) {
                now += step.toNanos();
                for (int i = 0; i < tasks.size(); ) {
                    if (due.get(i)[0] <= now) {
                        run.add(tasks.remove(i));
                        due.remove(i);
                    } else {
                        i++;
                    }
                }
            }
            run.forEach(Runnable::run);
        }
    }

    @Test
    void five_hundred_notifications_cost_one_tools_list_and_a_later_burst_one_more_a_second_on() throws Exception {
        HandClock clock = new HandClock();
        try (MisbehavingServer bad = new MisbehavingServer(Duration.ofSeconds(30), clock)) {
            assertThat(bad.call("count", "{}", Duration.ofSeconds(15)).result()).as("the start's list").isEqualTo("1");

            // the answer comes after the 500 notifications on the same stdout: all were read when it arrives
            assertThat(bad.call("storm", "{\"n\": 500}", Duration.ofSeconds(15)).result()).isEqualTo("stormed 500");
            assertThat(clock.waiting()).as("one refresh waits for 500 notifications").isEqualTo(1);
            clock.advance(Duration.ZERO);
            assertThat(bad.call("count", "{}", Duration.ofSeconds(15)).result()).isEqualTo("2");

            bad.call("storm", "{\"n\": 500}", Duration.ofSeconds(15));
            clock.advance(Duration.ofMillis(999));
            assertThat(bad.call("count", "{}", Duration.ofSeconds(15)).result()).as("not within the second")
                    .isEqualTo("2");
            clock.advance(Duration.ofMillis(1));
            assertThat(bad.call("count", "{}", Duration.ofSeconds(15)).result()).as("the burst's last refresh")
                    .isEqualTo("3");
            assertThat(clock.waiting()).isZero();
            assertThat(bad.said(AgentEvent.Problem.class)).isEmpty();
        }
    }

    @Test
    void asks_within_the_gap_join_one_run_at_its_end_and_an_ask_after_it_runs_at_once() {
        HandClock clock = new HandClock();
        int[] runs = {0};
        Coalescer coalescer = new Coalescer(Duration.ofSeconds(1), clock, () -> runs[0]++);

        coalescer.ask();
        clock.advance(Duration.ZERO);
        for (int i = 0; i < 1466; i++) coalescer.ask();
        clock.advance(Duration.ofMillis(500));
        assertThat(runs[0]).isEqualTo(1);
        clock.advance(Duration.ofMillis(500));
        assertThat(runs[0]).isEqualTo(2);
        clock.advance(Duration.ofSeconds(5));
        coalescer.ask();
        clock.advance(Duration.ZERO);
        assertThat(runs[0]).isEqualTo(3);
    }
}

package dev.hmpagent.cycle;

import java.time.Duration;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * What a {@link TickLoop} counted since it started, for a status display. Kept in memory only:
 * nothing is written to the file for an iteration that found nothing to do.
 *
 * @param hz             the rate of a fixed-rate loop; 0 for one that waits for work
 * @param noOpTicks      iterations that did no work: nothing new, no LLM call, nothing written
 * @param framesSkipped  frames a fixed-rate loop dropped because a tick overran its period
 * @param framesCaughtUp missed frames it ran back to back instead (catch-up)
 * @param lastTickAt     when the last iteration that did work began, if one has
 * @param lastTickTook   how long that iteration took (zero before the first)
 */
public record LoopStats(double hz, long noOpTicks, long framesSkipped, long framesCaughtUp,
                        Optional<Instant> lastTickAt, Duration lastTickTook) {
    public LoopStats {
        Objects.requireNonNull(lastTickAt, "lastTickAt");
        Objects.requireNonNull(lastTickTook, "lastTickTook");
    }
}

package dev.hmpagent.mcp;

import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What one peer of {@code agent mcp serve} may send as notes: none over {@link #MAX_NOTE_BYTES} (UTF-8), and at most
 * {@link #BURST} in a row, then one a second (a token bucket on an injected clock). Each serving process serves one
 * peer, so one instance is one peer's. A refused note is never stored; the refusal is one line saying the limit and
 * what to do.
 */
final class PeerNoteLimits {
    /** The largest note a peer may send, in UTF-8 bytes (64 KB). */
    static final int MAX_NOTE_BYTES = 64 * 1024;
    /** Notes a peer may send at once, after a quiet while. */
    static final int BURST = 10;
    /** How long a peer waits for one more note once the burst is spent. */
    static final Duration REFILL = Duration.ofSeconds(1);

    private final Clock clock;
    /** The tokens left, in nanoseconds of refill (BURST tokens are BURST * REFILL). */
    private long stored;
    private Instant last;

    PeerNoteLimits(Clock clock) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.stored = BURST * REFILL.toNanos();
        this.last = clock.instant();
    }

    /**
     * Why {@code text} is refused now, or empty when it may be stored (then it has taken its place in the bucket). A
     * note too large takes no place: nothing of it is stored.
     */
    synchronized Optional<String> refusal(String text) {
        int bytes = text.getBytes(StandardCharsets.UTF_8).length;
        if (bytes > MAX_NOTE_BYTES) {
            return Optional.of(String.format(Locale.ROOT, "note refused: it is %,d bytes, over the %,d-byte (64 KB)"
                    + " limit of a peer's note; nothing was stored: send a shorter note, or write the text to a file"
                    + " and send its path", bytes, MAX_NOTE_BYTES));
        }
        Instant now = clock.instant();
        long full = BURST * REFILL.toNanos();
        long elapsed = Math.max(0, Duration.between(last, now).toNanos());
        stored = elapsed >= full ? full : Math.min(full, stored + elapsed);
        last = now;
        long cost = REFILL.toNanos();
        if (stored >= cost) {
            stored -= cost;
            return Optional.empty();
        }
        double wait = (cost - stored) / 1e9;
        return Optional.of(String.format(Locale.ROOT, "note refused: this peer sent more than %d notes in a row (the"
                + " limit is %d at once, then 1 a second); nothing was stored: retry in %.1f s", BURST, BURST,
                Math.max(0.1, Math.ceil(wait * 10) / 10)));
    }
}

package dev.hmpagent.repl;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Timestamps from the file (ISO-8601 UTC as the agent writes them, or SQLite's {@code CURRENT_TIMESTAMP}, UTC too)
 * shown in the person's time zone, short: {@code 14:03} today, {@code Nov 21 14:03} this year, {@code 2025-11-21 14:03}
 * before; and ages ({@code 12 s}, {@code 4 min}, {@code 3 h}, {@code 2 d}).
 */
final class LocalTimes {
    private static final DateTimeFormatter TODAY = DateTimeFormatter.ofPattern("HH:mm", Locale.ROOT);
    private static final DateTimeFormatter THIS_YEAR = DateTimeFormatter.ofPattern("MMM d HH:mm", Locale.ENGLISH);
    private static final DateTimeFormatter EARLIER = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT);
    private static final DateTimeFormatter SQLITE = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss", Locale.ROOT);

    private final Clock clock;
    private final ZoneId zone;

    LocalTimes(Clock clock, ZoneId zone) {
        this.clock = Objects.requireNonNull(clock, "clock");
        this.zone = Objects.requireNonNull(zone, "zone");
    }

    Instant now() {
        return clock.instant();
    }

    /** The stored time, short, in the person's zone; a value that is no time is shown as it is, clipped. */
    String at(String stored) {
        Optional<Instant> t = parse(stored);
        if (t.isEmpty()) return stored == null ? "-" : Printable.oneLine(stored, 20);
        ZonedDateTime local = t.get().atZone(zone);
        ZonedDateTime today = now().atZone(zone);
        if (local.toLocalDate().equals(today.toLocalDate())) return TODAY.format(local);
        if (local.getYear() == today.getYear()) return THIS_YEAR.format(local);
        return EARLIER.format(local);
    }

    /** How long ago the stored time was ({@code 12 s}, {@code 4 min}, {@code 3 h}, {@code 2 d}); "?" when it is no time. */
    String age(String stored) {
        return parse(stored).map(t -> duration(Duration.between(t, now()))).orElse("?");
    }

    static String duration(Duration d) {
        long s = Math.max(0, d.getSeconds());
        if (s < 60) return s + " s";
        if (s < 3_600) return s / 60 + " min";
        if (s < 86_400) return s / 3_600 + " h";
        return s / 86_400 + " d";
    }

    static Optional<Instant> parse(String stored) {
        if (stored == null || stored.isBlank()) return Optional.empty();
        String s = stored.strip();
        try {
            return Optional.of(Instant.parse(s));
        } catch (DateTimeParseException notIso) {
            try {
                return Optional.of(LocalDateTime.parse(s, SQLITE).toInstant(ZoneOffset.UTC));
            } catch (DateTimeParseException notSqlite) {
                return Optional.empty();
            }
        }
    }
}

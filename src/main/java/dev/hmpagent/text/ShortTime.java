package dev.hmpagent.text;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Locale;

/**
 * A time for a person's line, in their zone and short: {@code 14:03:07} today, {@code Nov 21 14:03} this year,
 * {@code 2025-11-21 14:03} before. Machine formats (JSON, the file) keep UTC instants.
 */
public final class ShortTime {
    private static final DateTimeFormatter TODAY = DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT);
    private static final DateTimeFormatter THIS_YEAR = DateTimeFormatter.ofPattern("MMM d HH:mm", Locale.ENGLISH);
    private static final DateTimeFormatter EARLIER = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm", Locale.ROOT);

    private ShortTime() { }

    /** {@code t} as seen in {@code zone}, short as its distance from {@code now} allows. */
    public static String of(Instant t, Instant now, ZoneId zone) {
        ZonedDateTime local = t.atZone(zone);
        ZonedDateTime today = now.atZone(zone);
        if (local.toLocalDate().equals(today.toLocalDate())) return TODAY.format(local);
        if (local.getYear() == today.getYear()) return THIS_YEAR.format(local);
        return EARLIER.format(local);
    }
}

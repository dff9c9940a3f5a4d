package dev.hmpagent.llm.wire;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;

/**
 * How long a server asks to be left alone, from its headers (any provider): {@code retry-after-ms} (OpenAI and
 * compatible servers; the more precise) when present and valid, else {@code Retry-After} as delta-seconds or an
 * HTTP-date. Parsed on plain strings; null means "no usable wish", never an error.
 */
public final class RetryAfter {
    private RetryAfter() { }

    /** {@code retry-after-ms} when valid, else {@code Retry-After} relative to {@code now}; null when neither is usable. */
    public static Duration delay(String retryAfterMs, String retryAfter, Instant now) {
        Duration millis = millis(retryAfterMs);
        return millis != null ? millis : header(retryAfter, now);
    }

    /**
     * The {@code retry-after-ms} header: a non-negative number of milliseconds, maybe with a fraction ("1500",
     * "250.5"), rounded up to the nanosecond. Null when absent or unreadable.
     */
    public static Duration millis(String header) {
        if (header == null) return null;
        String value = header.strip();
        if (!value.matches("\\d{1,12}(\\.\\d{1,9})?")) return null;
        long nanos = new BigDecimal(value).movePointRight(6).setScale(0, RoundingMode.CEILING).longValueExact();
        return Duration.ofNanos(nanos);
    }

    /** The {@code Retry-After} header: delta-seconds, or an HTTP-date (a past one is zero). Null when unreadable. */
    public static Duration header(String header, Instant now) {
        if (header == null || header.isBlank()) return null;
        String value = header.strip();
        if (value.chars().allMatch(Character::isDigit)) {
            try {
                return Duration.ofSeconds(Long.parseLong(value));
            } catch (NumberFormatException e) {
                return null;
            }
        }
        try {
            Instant at = ZonedDateTime.parse(value, DateTimeFormatter.RFC_1123_DATE_TIME).toInstant();
            Duration delay = Duration.between(now, at);
            return delay.isNegative() ? Duration.ZERO : delay;
        } catch (DateTimeParseException e) {
            return null;
        }
    }
}

package dev.hmpagent.config;

/**
 * The [cleanup] section.
 *
 * @param minAgeTicks the floor of every cleanup command: rows newer than this many ticks are never deleted
 */
public record CleanupSection(long minAgeTicks) {
}

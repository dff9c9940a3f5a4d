package dev.hmpagent.safety;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Objects;

/**
 * A failure as a plain fact from the core: where it happened, a stable kind, the detail, a
 * pain level and a SHA-256 fingerprint so that repeats of the same failure can be counted.
 * What the pain <em>means</em> is left to a Guide.
 *
 * @param source    {@code command}, {@code parse} or {@code llm}
 * @param kind      a stable code: the command type, {@code unknown_command}, {@code bad_json}, {@code http_401}, ...
 * @param detail    the one-line message the LLM and the user see
 * @param painLevel 0 (none) to 1 (severe)
 */
public record FailureFact(String source, String kind, String detail, double painLevel, String fingerprint) {

    public FailureFact {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(fingerprint, "fingerprint");
        if (painLevel < 0 || painLevel > 1) throw new IllegalArgumentException("painLevel must be in 0..1");
    }

    public static FailureFact of(String source, String kind, String detail, double painLevel) {
        return new FailureFact(source, kind, detail, painLevel, fingerprint(source, kind, detail));
    }

    /**
     * SHA-256 over source, kind and the detail with digits folded, so "entry 41 not found" and
     * "entry 42 not found" count as the same failure.
     */
    public static String fingerprint(String source, String kind, String detail) {
        String normalised = detail.strip().toLowerCase(java.util.Locale.ROOT).replaceAll("\\d+", "#");
        try {
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            byte[] hash = sha.digest((source + '\0' + kind + '\0' + normalised).getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}

package dev.hmpagent.safety;

import java.util.Objects;

/**
 * A failure as a plain fact from the core: where it happened, what failed, a normalised error code,
 * the message, a severity and a fingerprint so that repeats of the same operation can be counted.
 * What the pain <em>means</em> is left to a Guide.
 *
 * @param source      {@code command}, {@code parse} or {@code llm}
 * @param kind        the command type, or for other sources a stable kind ({@code malformed_command}, {@code http_401}…)
 * @param code        EPERM, ENOENT, EINVAL, ETIMEDOUT, EEXIT(n), EHALT, EUNKNOWN… (see {@link ErrorCode})
 * @param detail      the one-line message the LLM and the user see
 * @param severity    critical, medium or low; {@link #painLevel()} follows it
 * @param fingerprint for a command, {@link Fingerprint#ofCommand} of its type and arguments
 */
public record FailureFact(String source, String kind, String code, String detail, Severity severity,
                          String fingerprint) {

    public FailureFact {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(code, "code");
        Objects.requireNonNull(detail, "detail");
        Objects.requireNonNull(severity, "severity");
        Objects.requireNonNull(fingerprint, "fingerprint");
    }

    /** A failed command: its fingerprint is the command's, so the same command failing again counts as a repeat. */
    public static FailureFact command(String type, String commandFingerprint, String code, String detail) {
        return new FailureFact("command", type, code, detail, Severity.of(code), commandFingerprint);
    }

    /** A failure that is not a command's own (a malformed command, a failed LLM call): fingerprinted by kind and message. */
    public static FailureFact of(String source, String kind, String code, String detail) {
        return new FailureFact(source, kind, code, detail, Severity.of(code),
                Fingerprint.ofFailure(source + ":" + kind, detail));
    }

    /** The pain it is felt with: none for a failure of the machine's own sandbox ({@link ErrorCode#ESANDBOX}). */
    public double painLevel() {
        return ErrorCode.ESANDBOX.equals(code) ? 0 : severity.painLevel();
    }
}

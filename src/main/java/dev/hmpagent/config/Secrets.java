package dev.hmpagent.config;

import java.util.Objects;

/** Masks secret values for display. Never returns more than the last four characters of a secret. */
public final class Secrets {
    static final int MIN_LENGTH_FOR_SUFFIX = 16;

    private Secrets() {
    }

    /**
     * {@code (not set)} for an empty value, {@code ********} when shorter than 16 characters,
     * otherwise {@code ****} followed by the last four characters.
     */
    public static String mask(String secret) {
        Objects.requireNonNull(secret, "secret");
        if (secret.isEmpty()) {
            return "(not set)";
        }
        if (secret.length() < MIN_LENGTH_FOR_SUFFIX) {
            return "********";
        }
        return "****" + secret.substring(secret.length() - 4);
    }
}

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

    /**
     * A URL with any credentials in it hidden: the user:password part and every query value
     * become {@code ****} ({@code https://****@host/v1?key=****}). Text that is not a URL with
     * such parts comes back unchanged.
     */
    public static String redactUrl(String url) {
        Objects.requireNonNull(url, "url");
        String out = url.replaceFirst("^([A-Za-z][A-Za-z0-9+.-]*://)[^/@?#]*@", "$1****@");
        int q = out.indexOf('?');
        if (q < 0) return out;
        int hash = out.indexOf('#', q);
        String query = hash < 0 ? out.substring(q + 1) : out.substring(q + 1, hash);
        String masked = query.replaceAll("=[^&]*", "=****");
        return out.substring(0, q + 1) + masked + (hash < 0 ? "" : out.substring(hash));
    }

    /**
     * {@code text} with the user and password of every URL in it masked ({@code http://bob:pw@host} →
     * {@code http://****@host}): a whole table shown in an error line (an [[llm.registry]] or [[mcp.servers]] entry)
     * may hold several.
     */
    public static String redactUrlsIn(String text) {
        Objects.requireNonNull(text, "text");
        return text.replaceAll("([A-Za-z][A-Za-z0-9+.-]*://)[^/@?#\\s\"']*@", "$1****@");
    }
}

package dev.hmpagent.config;

/**
 * A configuration problem the user can fix. The message is one line that names the key (or file),
 * the offending value (masked when secret), where it came from and what is allowed.
 */
public final class ConfigException extends RuntimeException {
    public ConfigException(String message) {
        super(message);
    }

    public ConfigException(String message, Throwable cause) {
        super(message, cause);
    }
}

package dev.hmpagent.config;

/** Internal signal from {@link ValueType}: the value is unusable; the reason reads after the value. */
final class InvalidValueException extends Exception {
    InvalidValueException(String reason) {
        super(reason, null, false, false);
    }

    /** E.g. "is out of range"; never contains the value itself. */
    String reason() {
        return getMessage();
    }
}

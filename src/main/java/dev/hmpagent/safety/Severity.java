package dev.hmpagent.safety;

import java.util.Locale;

/** How much a failure hurts; maps to the {@code pain_level} column. */
public enum Severity {
    LOW(0.3), MEDIUM(0.6), CRITICAL(1.0);

    private final double painLevel;

    Severity(double painLevel) {
        this.painLevel = painLevel;
    }

    public double painLevel() {
        return painLevel;
    }

    public String column() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The default for an error code: EPERM is critical, ENOENT medium, anything else low. */
    public static Severity of(String code) {
        if (ErrorCode.EPERM.equals(code)) return CRITICAL;
        if (ErrorCode.ENOENT.equals(code)) return MEDIUM;
        return LOW;
    }
}

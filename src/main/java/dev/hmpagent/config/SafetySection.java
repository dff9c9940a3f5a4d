package dev.hmpagent.config;

import java.util.Objects;

/**
 * The [safety] section: the SafetyMonitor's limits. Set by agent.toml, env vars and flags (the alert command by
 * agent.toml only); nothing the LLM writes reaches it.
 *
 * @param guide            how a failure is explained to the LLM: {@code safety}, {@code learning} or {@code debugging}
 * @param tokenBudget      tokens one task may spend on LLM calls; then STOPPED(budget)
 * @param dailyTokenBudget tokens any rolling 24 hours may spend; 0 = off
 * @param tickCap          LLM-calling ticks one task may take; then SAFETY_LOCKOUT
 * @param alertCommand     command line run with {@code /bin/sh -c} on every lockout; empty = none
 * @param repeatAlertAt    the same fingerprint failing this many times in a row: one alert
 * @param repeatLockAt     ... this many times: refused before it runs, SAFETY_LOCKOUT (above {@code repeatAlertAt})
 * @param cascadeWindow    how many recent operations the cascade breaker counts over
 * @param cascadeFailures  failures within the window that mean ERROR_PAUSED (at most {@code cascadeWindow})
 * @param loopAlertAt      the same command with the same result this many times: one alert
 * @param loopLockAt       ... this many times: SAFETY_LOCKOUT (above {@code loopAlertAt})
 * @param thrashWindow     how many commands since the last progress the thrash breaker counts over
 * @param thrashFailures   failures within them that mean ERROR_PAUSED (at most {@code thrashWindow})
 * @param noProgressAlert  LLM calls since the last progress (a state the task had not seen) that alert
 * @param noProgressStop   ... that stop: a rest when the calls polled one result, else SAFETY_LOCKOUT
 * @param unansweredMessages messages to people with no answer and no progress between them that rest the agent
 */
public record SafetySection(String guide, long tokenBudget, long dailyTokenBudget, int tickCap, String alertCommand,
                            int repeatAlertAt, int repeatLockAt, int cascadeWindow, int cascadeFailures,
                            int loopAlertAt, int loopLockAt, int thrashWindow, int thrashFailures, int noProgressAlert,
                            int noProgressStop, int unansweredMessages) {
    public SafetySection {
        Objects.requireNonNull(guide, "guide");
        Objects.requireNonNull(alertCommand, "alertCommand");
    }

    /** The section with the task ledger's limits at their defaults (10, 20 and 5). */
    public SafetySection(String guide, long tokenBudget, long dailyTokenBudget, int tickCap, String alertCommand,
                         int repeatAlertAt, int repeatLockAt, int cascadeWindow, int cascadeFailures, int loopAlertAt,
                         int loopLockAt, int thrashWindow, int thrashFailures) {
        this(guide, tokenBudget, dailyTokenBudget, tickCap, alertCommand, repeatAlertAt, repeatLockAt, cascadeWindow,
                cascadeFailures, loopAlertAt, loopLockAt, thrashWindow, thrashFailures, 10, 20, 5);
    }

    /** True when {@code safety.daily_token_budget} is set (not 0). */
    public boolean dailyBudgetOn() {
        return dailyTokenBudget > 0;
    }

    /** True when {@code safety.alert_command} names a command. */
    public boolean alertOn() {
        return !alertCommand.isBlank();
    }
}

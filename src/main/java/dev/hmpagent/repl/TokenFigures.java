package dev.hmpagent.repl;

/**
 * Tokens spent, as the REPL shows them (/tokens, the line after each call, the status line).
 *
 * @param session     since this REPL started
 * @param task        in the task in force (since the person's or the CLI's last message)
 * @param taskBudget  what the task may spend (safety.token_budget plus budget a person added)
 * @param lastDay     in the last 24 hours, all tasks together
 * @param dailyBudget what any 24 hours may spend; 0 = no such limit
 * @param lifetime    everything this file's agent ever spent
 */
public record TokenFigures(long session, long task, long taskBudget, long lastDay, long dailyBudget, long lifetime) {
}

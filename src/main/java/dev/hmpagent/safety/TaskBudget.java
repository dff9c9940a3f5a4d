package dev.hmpagent.safety;

import dev.hmpagent.store.SafetyCountersDao;
import dev.hmpagent.store.Store;
import java.time.Duration;
import java.time.Instant;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * What a task may spend on LLM calls, asked by the {@link SafetyMonitor} before every call, inside its transaction: the
 * task's token budget ({@code safety.token_budget} plus what a person added), the rolling daily budget, and the
 * warnings at 50 % and 80 %. The tokens counted are what the provider charges for (a prompt token read from its cache
 * counts a tenth, see {@code Usage.budgetTokens}), so the budget stands for money, not for the size of the prompts.
 *
 * <p>A call is refused when it would cross the budget, not only once the budget is spent: its estimate (the prompt
 * about to be sent, counted in full since the provider's cache may have dropped it, plus the longest reply it may
 * write) must fit in what is left. So no single reply can overshoot the budget ("task 264k / 150k" was seen when only
 * a spent budget stopped the agent).
 */
public final class TaskBudget {
    /** The shares, in percent, at which the person is told how much is spent and how many calls are left. */
    private static final int[] WARN_AT = {50, 80};

    private final Store store;
    private final long tokenBudget;
    private final long dailyTokenBudget;
    private final Consumer<String> notices;
    private final SafetyCountersDao counters;
    /** The highest share warned of in this task (0: none yet); lowered when the share falls below it (a raise). */
    private int warned;
    /** Whether the 80 % of the tick cap was said and the share is still above it. */
    private boolean capWarned;

    /**
     * @param tokenBudget      tokens one task may spend ({@code safety.token_budget})
     * @param dailyTokenBudget tokens any rolling 24 hours may spend ({@code safety.daily_token_budget}); 0: no limit
     * @param notices          one line for the person (the warnings)
     */
    TaskBudget(Store store, long tokenBudget, long dailyTokenBudget, Consumer<String> notices) {
        this.store = Objects.requireNonNull(store, "store");
        this.tokenBudget = tokenBudget;
        this.dailyTokenBudget = dailyTokenBudget;
        this.notices = Objects.requireNonNull(notices, "notices");
        this.counters = store.tables().safetyCounters();
    }

    /**
     * Inside the caller's transaction, before a call that may cost about {@code estimate} tokens: the reason it is
     * refused (the caller stops the agent, STOPPED(budget)), or empty to let it go, with a warning when the spent share
     * has crossed 50 % or 80 % since the last one.
     */
    Optional<String> refusal(SafetyCountersDao.Row c, long estimate) {
        long budget = tokenBudget + c.extraBudget();
        long spent = c.taskTokens();
        if (spent >= budget) {
            return Optional.of("token budget spent: " + n(spent) + " of " + n(budget)
                    + " tokens in this task (safety.token_budget)");
        }
        if (spent + estimate > budget) {
            return Optional.of("token budget: the next call would cross it: " + n(spent) + " spent + about "
                    + n(estimate) + " for the call (its prompt and longest reply) > " + n(budget)
                    + " tokens in this task (safety.token_budget)");
        }
        if (dailyTokenBudget > 0) {
            long day = counters.tokensSince(store.clock().instant().minus(Duration.ofDays(1)));
            if (day + estimate > dailyTokenBudget) {
                return Optional.of((day >= dailyTokenBudget ? "daily token budget spent: " + n(day)
                        : "daily token budget: the next call would cross it: " + n(day) + " + about " + n(estimate))
                        + " of " + n(dailyTokenBudget) + " tokens in the last 24 hours (safety.daily_token_budget)");
            }
        }
        warn(c, spent, budget);
        return Optional.empty();
    }

    /** A new task: its warnings are due again. */
    void newTask() {
        warned = 0;
        capWarned = false;
    }

    /** The warning at 80 % of the tick cap, once; due again once the share fell below it (a new task, an unlock). */
    void warnCap(long taskTicks, long tickCap) {
        boolean over = taskTicks * 5 >= tickCap * 4;
        if (over && !capWarned) {
            notices.accept("80 % of the tick cap is reached: " + taskTicks + " of " + tickCap + " LLM calls in this task");
        }
        capWarned = over;
    }

    /** The 50 % or 80 % warning, once each per task; again once a raise took the share below it and it is crossed. */
    private void warn(SafetyCountersDao.Row c, long spent, long budget) {
        int share = 0;
        for (int at : WARN_AT) {
            if (spent * 100 >= budget * at) share = at;
        }
        if (share <= warned) {
            warned = share;
            return;
        }
        warned = share;
        String left = callsLeft(spent, budget, store.tables().llmCalls().mainCallsSince(taskStart(c)));
        notices.accept(share + " % of the task's budget is spent: " + n(spent) + " of " + n(budget) + " tokens"
                + (left.isEmpty() ? "" : ", " + left));
    }

    /** When the task in force began ({@code safety_counters.task_started_at}); the epoch when none was started. */
    public static Instant taskStart(SafetyCountersDao.Row c) {
        return c.taskStartedAt() == null ? Instant.EPOCH : Instant.parse(c.taskStartedAt());
    }

    /**
     * "about 30 more calls at this rate": what is left of {@code budget} over what the task's {@code calls} main calls
     * cost on average (each with its judge's and llm_task's tokens); "" before the task's first call.
     */
    public static String callsLeft(long spent, long budget, long calls) {
        if (calls <= 0 || spent <= 0) return "";
        long left = Math.max(0, budget - spent) * calls / spent;
        return "about " + n(left) + (left == 1 ? " more call" : " more calls") + " at this rate";
    }

    /** A whole number with thousands separators: 150,000. */
    public static String n(long tokens) {
        return String.format(Locale.ROOT, "%,d", tokens);
    }
}

package dev.hmpagent.cli;

import dev.hmpagent.repl.Printable;
import dev.hmpagent.repl.SlashCommand;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.TaskBudget;
import dev.hmpagent.store.LlmCallsDao;
import dev.hmpagent.store.Requester;
import dev.hmpagent.store.SafetyCountersDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.StoreException;
import java.time.Instant;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * {@code /budget}: the task's budget as the SafetyMonitor counts it (spent, budget, the share of prompt tokens read
 * from the provider's cache, the calls left at the task's rate), and {@code /budget N} or {@code /budget +N}, which
 * raise it in place for the task in force, as {@code agent unlock --add-budget N} does: a budget stop is released (the
 * same audit, the task goes on); in any other state the budget grows and the state stays, audited. Each use opens a
 * connection of its own to the file and closes it, as /halt and /unlock do.
 */
final class ReplBudget {
    private static final String HOW = "/budget +N adds N tokens to this task, /budget N makes its budget N";

    private final Supplier<Store> connect;
    private final long configured;

    /**
     * @param connect    a new connection to the agent's file, closed after each use
     * @param configured {@code safety.token_budget}
     */
    ReplBudget(Supplier<Store> connect, long configured) {
        this.connect = Objects.requireNonNull(connect, "connect");
        this.configured = configured;
    }

    SlashCommand command() {
        return new SlashCommand("/budget", "[N|+N]",
                "this task's budget: spent, cached share, calls left; /budget +N or /budget N raises it", this::run);
    }

    String run(String args) {
        try (Store store = connect.get()) {
            if (args.isEmpty()) return show(store);
            long tokens = raiseBy(args, budget(store.tables().safetyCounters().current()));
            if (tokens < 0) return parseError(args, budget(store.tables().safetyCounters().current()));
            return raised(store, tokens);
        } catch (StoreException e) {
            return "/budget: cannot use the file now (" + Printable.oneLine(e.getMessage(), 200) + "); try again in a"
                    + " moment";
        }
    }

    private long budget(SafetyCountersDao.Row c) {
        return configured + c.extraBudget();
    }

    /** The tokens {@code args} adds to {@code budget}: "+N" adds N, "N" makes it N; -1 when that is no raise. */
    static long raiseBy(String args, long budget) {
        String digits = args.replace(",", "").replace("_", "");
        boolean add = digits.startsWith("+");
        if (add) digits = digits.substring(1);
        if (!digits.matches("[0-9]{1,12}")) return -1;
        long n = Long.parseLong(digits);
        long by = add ? n : n - budget;
        return by >= 1 ? by : -1;
    }

    private static String parseError(String args, long budget) {
        String shown = Printable.oneLine(args, 40);
        boolean number = shown.replace(",", "").replace("_", "").matches("\\+?[0-9]{1,12}");
        return "/budget: " + (number ? shown + " does not raise the task's budget of " + TaskBudget.n(budget) + " tokens"
                : "\"" + shown + "\" is not a number of tokens") + "; " + HOW;
    }

    private String raised(Store store, long tokens) {
        long before = budget(store.tables().safetyCounters().current());
        SafetyControl.Change o = new SafetyControl(store).raiseBudget(tokens, "/budget in the REPL",
                Requester.thisProcess());
        String line = "budget raised: " + TaskBudget.n(before) + " → " + TaskBudget.n(before + tokens)
                + " tokens for this task";
        return o.result() == SafetyControl.Result.MOVED
                ? line + "; " + o.before().label() + " released: ACTIVE again, the task goes on" : line;
    }

    private String show(Store store) {
        SafetyCountersDao.Row c = store.tables().safetyCounters().current();
        Instant start = TaskBudget.taskStart(c);
        LlmCallsDao calls = store.tables().llmCalls();
        long prompt = 0;
        long cached = 0;
        for (LlmCallsDao.ModelTokens m : calls.byModelSince(start)) {
            prompt += m.promptTokens();
            cached += m.cachedTokens();
        }
        long budget = budget(c);
        long main = calls.mainCallsSince(start);
        String left = TaskBudget.callsLeft(c.taskTokens(), budget, main);
        return "spent   " + TaskBudget.n(c.taskTokens()) + " of " + TaskBudget.n(budget) + " tokens ("
                + c.taskTokens() * 100 / budget + " %)"
                + (c.extraBudget() > 0 ? ", " + TaskBudget.n(c.extraBudget()) + " of them added" : "") + "\n"
                + "cached  " + (prompt == 0 ? "no prompt tokens yet"
                        : cached * 100 / prompt + " % of the task's prompt tokens read from the provider's cache"
                        + " (counted a tenth)") + "\n"
                + "calls   " + main + (main == 1 ? " call" : " calls") + " in this task"
                + (left.isEmpty() ? "" : "; " + left) + "\n"
                + "raise   " + HOW;
    }
}

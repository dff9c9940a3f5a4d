package dev.hmpagent.repl;

import java.util.Locale;

/** Token counts as people read them at a glance: {@code 950}, {@code 18.4k}, {@code 100k}, {@code 1.2M}. */
public final class Figures {
    private Figures() { }

    /** {@code n} with one decimal at most, in thousands (k) from 1,000 and in millions (M) from 1,000,000. */
    public static String compact(long n) {
        if (n < 0) return "-" + compact(-n);
        if (n < 1_000) return Long.toString(n);
        if (n < 999_500) return scaled(n / 1_000.0, "k");
        return scaled(n / 1_000_000.0, "M");
    }

    /** {@code used} against {@code budget}: {@code 18.4k / 100k (18 %)}; without a budget (0) just {@code used}. */
    public static String against(long used, long budget) {
        if (budget <= 0) return compact(used);
        return compact(used) + " / " + compact(budget) + " (" + (used * 100 / budget) + " %)";
    }

    /** The task's part of the line after each LLM call: {@code task 18.4k / 100k}. */
    public static String task(TokenFigures t) {
        return "task " + compact(t.task()) + (t.taskBudget() > 0 ? " / " + compact(t.taskBudget()) : "");
    }

    private static String scaled(double value, String unit) {
        String s = String.format(Locale.ROOT, value < 100 ? "%.1f" : "%.0f", value);
        if (s.endsWith(".0")) s = s.substring(0, s.length() - 2);
        return s + unit;
    }
}

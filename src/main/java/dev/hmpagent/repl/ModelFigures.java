package dev.hmpagent.repl;

import dev.hmpagent.store.LlmCallsDao.ModelTokens;
import java.util.ArrayList;
import java.util.List;

/**
 * Tokens by model as /status and {@code agent status} print them, one line a model, names padded to the widest:
 * {@code gpt-4o-mini  10.2k in (8k cached) · 1.1k out · 5 calls · $0.0123}. The cost part is there only when prices are
 * configured; a model they do not price says so ({@code · no price}) instead of costing $0.
 */
public final class ModelFigures {
    private ModelFigures() { }

    public static List<String> lines(List<ModelTokens> models, Costs costs) {
        // a model's name comes from the server: printable, on one line
        List<String> names = models.stream().map(m -> Printable.oneLine(m.model(), 80)).toList();
        int width = names.stream().mapToInt(String::length).max().orElse(0);
        List<String> lines = new ArrayList<>(models.size());
        for (int i = 0; i < models.size(); i++) {
            ModelTokens m = models.get(i);
            String cost = !costs.any() ? "" : costs.of(m).isPresent() ? " · " + Costs.usd(costs.of(m).getAsDouble())
                    : " · no price";
            lines.add(pad(names.get(i), width) + "  " + figures(m) + cost);
        }
        return lines;
    }

    /** {@code 10.2k in (8k cached) · 1.1k out · 5 calls}; no cached part when the cache served none. */
    static String figures(ModelTokens m) {
        return Figures.compact(m.promptTokens()) + " in"
                + (m.cachedTokens() > 0 ? " (" + Figures.compact(m.cachedTokens()) + " cached)" : "")
                + " · " + Figures.compact(m.completionTokens()) + " out · " + m.calls() + (m.calls() == 1 ? " call" : " calls");
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s : s + " ".repeat(width - s.length());
    }
}

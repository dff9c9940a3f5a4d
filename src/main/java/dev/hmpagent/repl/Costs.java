package dev.hmpagent.repl;

import dev.hmpagent.config.ModelPrice;
import dev.hmpagent.store.LlmCallsDao.ModelTokens;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.regex.Pattern;

/**
 * What LLM calls cost, by {@code llm.prices} (USD per million tokens): prompt tokens not read from the cache at the
 * input price, cached ones at the cached-input price, completion tokens at the output price. A model without a price
 * has no cost, never $0: whoever shows a total names the models it leaves out.
 *
 * <p>A server names the model that answered, often a dated snapshot of the one asked ({@code gpt-4o-mini} answers as
 * {@code gpt-4o-mini-2024-07-18}): a price for the name without its date applies to the snapshot, unless the
 * snapshot has a price of its own.
 */
public final class Costs {
    public static final Costs NONE = new Costs(List.of());
    /** A dated snapshot's suffix: -2024-07-18, -20241022, -0613. */
    private static final Pattern SNAPSHOT = Pattern.compile("-(\\d{4}-\\d{2}-\\d{2}|\\d{8}|\\d{4})$");

    private final Map<String, ModelPrice> prices = new LinkedHashMap<>();

    public Costs(List<ModelPrice> prices) {
        for (ModelPrice p : prices) this.prices.putIfAbsent(p.model(), p);
    }

    /** Whether any price is configured: without one, nothing is said about cost at all. */
    public boolean any() {
        return !prices.isEmpty();
    }

    /** The price of {@code model}: its own, else that of the model it is a dated snapshot of. */
    public Optional<ModelPrice> priceOf(String model) {
        ModelPrice own = prices.get(model);
        if (own != null) return Optional.of(own);
        String base = SNAPSHOT.matcher(model).replaceFirst("");
        return base.equals(model) ? Optional.empty() : Optional.ofNullable(prices.get(base));
    }

    /** The cost in USD of these tokens on {@code model}; empty when it has no price. */
    public OptionalDouble of(String model, long promptTokens, long cachedTokens, long completionTokens) {
        Optional<ModelPrice> p = priceOf(model);
        return p.isEmpty() ? OptionalDouble.empty()
                : OptionalDouble.of(cost(p.get(), promptTokens, cachedTokens, completionTokens));
    }

    public OptionalDouble of(ModelTokens m) {
        return of(m.model(), m.promptTokens(), m.cachedTokens(), m.completionTokens());
    }

    /** {@code ((prompt − cached)·input + cached·cachedInput + completion·output) / 10⁶}. */
    static double cost(ModelPrice p, long promptTokens, long cachedTokens, long completionTokens) {
        long uncached = Math.max(0, promptTokens - cachedTokens);
        return (uncached * p.input() + cachedTokens * p.cachedInput() + completionTokens * p.output()) / 1_000_000.0;
    }

    /**
     * The cost of several models' tokens: the sum over the priced ones, and the models left out for want of a price
     * (in the order given).
     */
    public Total total(List<ModelTokens> models) {
        double usd = 0;
        List<String> unpriced = new ArrayList<>();
        boolean priced = false;
        for (ModelTokens m : models) {
            OptionalDouble c = of(m);
            if (c.isPresent()) {
                usd += c.getAsDouble();
                priced = true;
            } else {
                unpriced.add(m.model());
            }
        }
        return new Total(priced || models.isEmpty() ? OptionalDouble.of(usd) : OptionalDouble.empty(), unpriced);
    }

    /**
     * A total cost: {@code usd} the priced models' sum (empty when none of them has a price), {@code unpriced} the
     * models it leaves out.
     */
    public record Total(OptionalDouble usd, List<String> unpriced) {
        public Total {
            unpriced = List.copyOf(unpriced);
        }

        /** {@code $0.51}, {@code $0.51 (no price for llama3.2)}, {@code no price for llama3.2}. */
        public String text() {
            String missing = unpriced.isEmpty() ? "" : "no price for " + String.join(", ", unpriced);
            if (usd.isEmpty()) return missing;
            return Costs.usd(usd.getAsDouble()) + (missing.isEmpty() ? "" : " (" + missing + ")");
        }
    }

    /** {@code $12.34} from a dollar up, {@code $0.0012} below it, {@code <$0.0001} for less, {@code $0} for nothing. */
    public static String usd(double usd) {
        if (usd == 0) return "$0";
        if (usd < 0.0001) return "<$0.0001";
        return String.format(Locale.ROOT, usd >= 1 ? "$%.2f" : "$%.4f", usd);
    }
}

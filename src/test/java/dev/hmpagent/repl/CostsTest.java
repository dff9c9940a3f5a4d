package dev.hmpagent.repl;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.config.ModelPrice;
import dev.hmpagent.store.LlmCallsDao.ModelTokens;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Prices per million tokens turned into dollars; a model without a price costs nothing it could be mistaken for. */
class CostsTest {
    /** $2.50 in, $1.25 cached in, $10 out per million tokens. */
    static final ModelPrice BIG = new ModelPrice("gpt-big", 2.50, 1.25, 10.0);
    /** A price whose cached input is the full input price (no cache discount given). */
    static final ModelPrice MINI = new ModelPrice("mini", 0.15, 0.15, 0.60);
    final Costs costs = new Costs(List.of(BIG, MINI));

    @Test
    void prompt_tokens_not_read_from_the_cache_cost_the_input_price_cached_ones_the_cached_price_and_output_its_own() {
        // 8,000 uncached × 2.50 + 2,000 cached × 1.25 + 500 out × 10 = 20,000 + 2,500 + 5,000 = 27,500 per million
        assertThat(costs.of("gpt-big", 10_000, 2_000, 500)).hasValue(0.0275);
        assertThat(costs.of("gpt-big", 10_000, 0, 500)).hasValue(0.030);
        assertThat(costs.of("mini", 1_000_000, 400_000, 1_000_000)).hasValue(0.75);
    }

    @Test
    void a_model_without_a_price_has_no_cost_not_zero() {
        assertThat(costs.of("llama3.2", 10_000, 0, 500)).isEmpty();
        assertThat(Costs.NONE.of("gpt-big", 10_000, 0, 500)).isEmpty();
        assertThat(Costs.NONE.any()).isFalse();
        assertThat(costs.any()).isTrue();
    }

    @Test
    void a_dated_snapshot_the_server_names_costs_the_price_of_the_model_it_is_a_snapshot_of() {
        Costs c = new Costs(List.of(BIG, new ModelPrice("gpt-big-2024-05-13", 5.0, 2.5, 15.0)));
        assertThat(c.priceOf("gpt-big-2024-08-06")).contains(BIG);
        assertThat(c.priceOf("gpt-big-20241022")).contains(BIG);
        assertThat(c.priceOf("gpt-big-0613")).contains(BIG);
        assertThat(c.priceOf("gpt-big-2024-05-13")).as("a snapshot's own price wins").get()
                .extracting(ModelPrice::input).isEqualTo(5.0);
        assertThat(c.priceOf("gpt-big-mini")).as("another model, not a snapshot").isEmpty();
        assertThat(c.priceOf("gpt-bigger-2024-08-06")).isEmpty();
    }

    @Test
    void a_total_sums_the_priced_models_and_names_those_without_a_price() {
        List<ModelTokens> models = List.of(new ModelTokens("gpt-big", 3, 10_000, 2_000, 500),
                new ModelTokens("llama3.2", 2, 9_000, 0, 300), new ModelTokens("mini", 1, 1_000_000, 400_000, 1_000_000));

        Costs.Total total = costs.total(models);

        assertThat(total.usd()).hasValue(0.7775);
        assertThat(total.unpriced()).containsExactly("llama3.2");
        assertThat(total.text()).isEqualTo("$0.7775 (no price for llama3.2)");
        assertThat(costs.total(List.of(new ModelTokens("llama3.2", 2, 9_000, 0, 300))).text())
                .as("never $0 for tokens nobody priced").isEqualTo("no price for llama3.2");
        assertThat(costs.total(List.of()).text()).as("no call costs nothing").isEqualTo("$0");
    }

    @Test
    void dollars_read_at_a_glance_without_hiding_a_small_cost_as_zero() {
        assertThat(Costs.usd(12.345)).isEqualTo("$12.35");
        assertThat(Costs.usd(1)).isEqualTo("$1.00");
        assertThat(Costs.usd(0.001252)).isEqualTo("$0.0013");
        assertThat(Costs.usd(0.00002)).isEqualTo("<$0.0001");
        assertThat(Costs.usd(0)).isEqualTo("$0");
    }

    @Test
    void model_lines_carry_the_cost_or_say_no_price_and_nothing_about_cost_without_prices() {
        List<ModelTokens> models = List.of(new ModelTokens("gpt-big", 3, 10_000, 2_000, 500),
                new ModelTokens("llama3.2", 2, 9_000, 0, 300));
        assertThat(ModelFigures.lines(models, costs)).containsExactly(
                "gpt-big   10k in (2k cached) · 500 out · 3 calls · $0.0275",
                "llama3.2  9k in · 300 out · 2 calls · no price");
        assertThat(ModelFigures.lines(models, Costs.NONE)).containsExactly(
                "gpt-big   10k in (2k cached) · 500 out · 3 calls",
                "llama3.2  9k in · 300 out · 2 calls");
    }
}

package dev.hmpagent.text;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.Locale;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link Text#twoDecimals} writes what {@code String.format("%.2f")} writes, for every value tried. */
class TwoDecimalsTest {
    @Test
    void the_same_text_as_the_formatter_for_halves_edges_and_many_random_values() {
        double[] edges = {0, -0.0, 0.005, 0.015, 0.125, 0.135, 1.005, 2.675, 0.995, 0.9949999, 0.3, 1.0 / 3, -0.001,
            -0.005, -2.675, 1e-10, 123456.785, 99.995, Double.MIN_VALUE, 1e17, Double.NaN,
            Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
        for (double v : edges) assertThat(Text.twoDecimals(v)).as("%s", v).isEqualTo(format(v));
        SplittableRandom random = new SplittableRandom(36);
        for (int i = 0; i < 50_000; i++) {
            double unit = random.nextDouble();
            assertThat(Text.twoDecimals(unit)).as("%s", unit).isEqualTo(format(unit));
            double grid = random.nextInt(-100_000, 100_000) / 1000.0;   // x.xx5 and the like, the halves that matter
            assertThat(Text.twoDecimals(grid)).as("%s", grid).isEqualTo(format(grid));
            double wide = (random.nextDouble() - 0.5) * Math.pow(10, random.nextInt(-6, 9));
            assertThat(Text.twoDecimals(wide)).as("%s", wide).isEqualTo(format(wide));
        }
    }

    private static String format(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }
}

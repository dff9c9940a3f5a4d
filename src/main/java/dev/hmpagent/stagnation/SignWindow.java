package dev.hmpagent.stagnation;

import dev.hmpagent.store.StagnationDao;
import java.util.ArrayList;
import java.util.List;

/** The window the signs are read from: {@code anti_stagnation_metrics} rows, oldest first, with growth between rows. */
final class SignWindow {
    private SignWindow() {
    }

    /** The rows the longest sign of {@code s} needs (and two more), oldest first. */
    static List<StagnationDao.Metric> rows(StagnationDao metrics, SignSettings s) {
        return metrics.latest(Math.max(lookBack(s), s.overheatTicks()) + 2);
    }

    /** How many ticks the signs look back on: the longest of low novelty, no growth and no stimulus. */
    static int lookBack(SignSettings s) {
        return Math.max(s.lowNoveltyTicks(), Math.max(s.noGrowthTicks(), s.noStimulusTicks()));
    }

    /**
     * Whether the world moved recently: one of the last {@link #lookBack} rows (the current tick's included) came after
     * news from the world (issue 23). Such a run may be tuned, never rested or switched.
     */
    static boolean progressed(List<StagnationDao.Metric> rows, SignSettings s) {
        return rows.subList(Math.max(0, rows.size() - lookBack(s)), rows.size()).stream()
                .anyMatch(StagnationDao.Metric::progress);
    }

    /** The rows as observations. */
    static List<TickObservation> observations(List<StagnationDao.Metric> rows, SignSettings s) {
        List<TickObservation> out = new ArrayList<>();
        for (int i = 0; i < rows.size(); i++) {
            StagnationDao.Metric m = rows.get(i);
            // the mark is taken as a tick begins: a change since the tick before is what that tick's commands built
            boolean growth = i > 0 && !m.graphMark().equals(rows.get(i - 1).graphMark());
            out.add(new TickObservation(m.tickId(), m.novelty(), m.identical(), s.repeatSign() ? m.repeatOfTick() : 0,
                    m.stimulus(), m.personMessage(), growth));
        }
        return out;
    }
}

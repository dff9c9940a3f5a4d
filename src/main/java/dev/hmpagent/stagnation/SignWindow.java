package dev.hmpagent.stagnation;

import dev.hmpagent.store.StagnationDao;
import java.util.ArrayList;
import java.util.List;

/** The window the signs are read from: {@code anti_stagnation_metrics} rows, oldest first, with growth between rows. */
final class SignWindow {
    private SignWindow() {
    }

    /** The rows the longest sign of {@code s} needs (and two more), as observations. */
    static List<TickObservation> read(StagnationDao metrics, SignSettings s) {
        int n = Math.max(Math.max(s.lowNoveltyTicks(), s.noGrowthTicks()), Math.max(s.noStimulusTicks(), s.overheatTicks()))
                + 2;
        List<StagnationDao.Metric> rows = metrics.latest(n);
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

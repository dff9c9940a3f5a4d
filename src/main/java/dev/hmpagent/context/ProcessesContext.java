package dev.hmpagent.context;

import dev.hmpagent.store.ProcessLogDao;
import java.util.Locale;
import java.util.Objects;

/** Context 2: the commands and processes not yet closed, oldest first, new results last; each result fenced as data. */
final class ProcessesContext {
    static final int INDEX = 2;
    static final int MAX_ROWS = 50;
    private static final int MAX_RESULT_CHARS = 1_000;

    private final ProcessLogDao processLog;

    ProcessesContext(ProcessLogDao processLog) {
        this.processLog = Objects.requireNonNull(processLog, "processLog");
    }

    Section render(DataFence fence) {
        Section s = new Section(INDEX, "your commands and processes not yet closed (oldest first; new results last)",
                "(none)", true, 1);
        for (ProcessLogDao.Shown p : processLog.forContext(MAX_ROWS)) {
            String pain = p.painLevel() > 0 ? String.format(Locale.ROOT, ", pain %.1f", p.painLevel()) : "";
            s.add("[id " + p.id() + ", cmd " + nz(p.cmdId()) + ", " + p.name() + ", tick " + p.tickId() + "] "
                    + p.status() + pain + ": ",
                    fence.wrap("result " + p.id(), Section.clip(nz(p.result()), MAX_RESULT_CHARS)), p.id());
        }
        return s;
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }
}

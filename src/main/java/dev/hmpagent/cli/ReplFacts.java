package dev.hmpagent.cli;

import dev.hmpagent.cycle.CycleStatus;
import dev.hmpagent.llm.LlmClient;
import dev.hmpagent.repl.EventRenderer;
import dev.hmpagent.repl.Figures;
import dev.hmpagent.repl.TokenFigures;
import dev.hmpagent.safety.SafetyControl;
import dev.hmpagent.safety.SafetyStatus;
import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.Store;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * What the REPL's lines say about the file (tokens, unread messages, running processes, the safety state), read on a
 * connection of its own (which the caller closes) and kept until the next {@link #refresh()}: the status line asks every second, and a file
 * that cannot be read right now keeps the last figures instead of failing a line. Thread-safe.
 */
final class ReplFacts implements EventRenderer.Facts {
    private final Store store;
    private final Supplier<TokenFigures> tokenSource;
    private final LlmClient llm;
    private final Supplier<CycleStatus> cycle;
    private TokenFigures tokens = new TokenFigures(0, 0, 0, 0, 0, 0);
    private String safety = "ACTIVE";
    private long unread;
    private long running;

    /** @param tokens the figures (/tokens's), read on a connection of their own */
    ReplFacts(Store store, Supplier<TokenFigures> tokens, LlmClient llm, Supplier<CycleStatus> cycle) {
        this.store = Objects.requireNonNull(store, "store");
        this.tokenSource = Objects.requireNonNull(tokens, "tokens");
        this.llm = Objects.requireNonNull(llm, "llm");
        this.cycle = Objects.requireNonNull(cycle, "cycle");
        refresh();
    }

    /** Reads the figures again; a file that cannot be read now keeps the last ones. */
    synchronized void refresh() {
        try {
            tokens = tokenSource.get();
            SafetyStatus s = new SafetyControl(store).current();
            safety = s.labelUntil();
            unread = store.tables().notes().unreadCount(NoteFilter.ALL);
            running = store.tables().processLog().runningCount();
        } catch (RuntimeException e) {
            // locked or busy this second: the line keeps the last figures
        }
    }

    @Override
    public synchronized TokenFigures tokens() {
        refresh();
        return tokens;
    }

    @Override
    public synchronized int queued() {
        return (int) unread;
    }

    @Override
    public synchronized String statusLine() {
        CycleStatus c = cycle.get();
        StringBuilder sb = new StringBuilder(safety).append(" · ")
                .append(c.phase().name().toLowerCase(java.util.Locale.ROOT).replace('_', ' '))
                .append(" · tick ").append(c.lastTickId())
                .append(" · task ").append(Figures.compact(tokens.task())).append(" / ")
                .append(Figures.compact(tokens.taskBudget())).append(" tokens");
        if (unread > 0) sb.append(" · ").append(unread).append(unread == 1 ? " message pending" : " messages pending");
        if (running > 0) sb.append(" · ").append(running).append(running == 1 ? " process running" : " processes running");
        return sb.append(" · ").append(llm.model()).toString();
    }
}

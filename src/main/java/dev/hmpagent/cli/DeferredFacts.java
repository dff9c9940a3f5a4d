package dev.hmpagent.cli;

import dev.hmpagent.repl.EventRenderer;
import dev.hmpagent.repl.TokenFigures;
import java.util.Objects;

/** The REPL's facts before the file is open (none), then the file's: the renderer exists before the runtime. */
final class DeferredFacts implements EventRenderer.Facts {
    private volatile EventRenderer.Facts facts = EventRenderer.Facts.NONE;

    void set(EventRenderer.Facts f) {
        facts = Objects.requireNonNull(f, "f");
    }

    @Override
    public TokenFigures tokens() {
        return facts.tokens();
    }

    @Override
    public int queued() {
        return facts.queued();
    }

    @Override
    public String statusLine() {
        return facts.statusLine();
    }
}

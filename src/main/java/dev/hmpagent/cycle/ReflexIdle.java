package dev.hmpagent.cycle;

import dev.hmpagent.commands.Idle;
import dev.hmpagent.stagnation.Idling;
import dev.hmpagent.store.NoteFilter;
import dev.hmpagent.store.NotesDao;
import dev.hmpagent.store.SettingsDao;
import dev.hmpagent.store.Store;
import java.time.Instant;
import java.util.Objects;

/**
 * The reflex's sleep as the LLM's own {@link Idle} in {@code config}: until the time, or until a note newer than the
 * newest unread one now (a person's message always ends it). Called inside the reflex's transaction.
 */
public final class ReflexIdle implements Idling {
    private final NotesDao notes;
    private final SettingsDao settings;

    public ReflexIdle(Store store) {
        Objects.requireNonNull(store, "store");
        this.notes = store.tables().notes();
        this.settings = store.tables().settings();
    }

    @Override
    public void idleUntil(long tickId, Instant until) {
        Idle idle = new Idle(tickId, until, notes.maxUnreadId(NoteFilter.ALL), 0, "", "", "");
        settings.put(Idle.KEY, idle.toJson());
    }
}

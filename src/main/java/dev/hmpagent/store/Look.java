package dev.hmpagent.store;

/**
 * One look at what other connections committed, for the reads of this connection until it is closed ({@link
 * Store#oneLook}): kept reads ({@code Store.queryKept}) ask SQLite's {@code PRAGMA data_version} once in it instead of
 * at every read (a tick's wake rule and prompt asked it some 30 times, a tenth of the tick before its row with the
 * agent's JIT flags, issue 36). What another process commits during the look shows at the next look, or the next read
 * after it. A write transaction inside a look still asks it once for itself, and the look once more after it. A look
 * opened inside another is the outer one, and closing it does nothing. Close it before anything that waits or must see the newest state (an LLM call,
 * the safety state's last check).
 */
public interface Look extends AutoCloseable {
    @Override
    void close();
}

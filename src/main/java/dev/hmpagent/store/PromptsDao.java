package dev.hmpagent.store;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * {@code prompt_sections} and {@code tick_prompts}: the exact prompt of each tick, its parts stored once
 * each by content (SHA-256), so text that many ticks show unchanged (context 0) costs one row.
 */
public final class PromptsDao {
    /** Texts whose hash is kept: a prompt's parts, most of them the same tick after tick. */
    static final int HASHES_KEPT = 64;
    /** Hashes known stored at most; past it the set starts again. */
    static final int STORED_KEPT = 4096;

    private final Store store;
    /** The hash of each part text saved lately (the system prompt alone is ~10 KB to hash each tick). */
    private final Map<String, byte[]> hashes = new LinkedHashMap<>(HASHES_KEPT, 0.75f, true) {
        @Override
        protected boolean removeEldestEntry(Map.Entry<String, byte[]> eldest) {
            return size() > HASHES_KEPT;
        }
    };
    /**
     * Sections this connection stored, while {@code prompt_sections} stands where it stood after that write ({@link
     * Freshness}: a rollback, or another process's commit, and they are asked of the file again): their text is not
     * sent to SQLite again only to be refused as a duplicate (issue 36).
     */
    private final Set<ByteBuffer> stored = new HashSet<>();
    private Freshness.Stamp storedAt;

    public PromptsDao(Store store) {
        this.store = Objects.requireNonNull(store, "store");
    }

    /**
     * Stores the prompt of {@code tickId}; call it inside the tick's transaction. Two statements, whatever the number
     * of parts (a multi-row INSERT each): one statement a part cost about a tenth of a tick's own time (issue 36).
     */
    public synchronized void save(long tickId, List<PromptPart> parts) {
        if (parts.isEmpty()) return;
        Object[] rows = new Object[parts.size() * 6];
        for (int position = 0; position < parts.size(); position++) {
            PromptPart p = parts.get(position);
            Object[] row = {tickId, position, p.message(), p.role(), p.context(), hashes.computeIfAbsent(p.text(),
                    PromptsDao::sha256)};
            System.arraycopy(row, 0, rows, 6 * position, 6);
        }
        store.inTransaction(() -> {
            if (!store.stamp("prompt_sections").equals(storedAt) || stored.size() > STORED_KEPT) stored.clear();
            List<Object> sections = new ArrayList<>();
            for (int position = 0; position < parts.size(); position++) {
                byte[] hash = (byte[]) rows[6 * position + 5];
                if (stored.add(ByteBuffer.wrap(hash))) Collections.addAll(sections, hash, parts.get(position).text());
            }
            if (!sections.isEmpty()) {
                store.update("INSERT INTO prompt_sections(hash, text) VALUES " + values(sections.size() / 2, 2)
                        + " ON CONFLICT(hash) DO NOTHING", sections.toArray());
            }
            storedAt = store.stamp("prompt_sections");   // after this connection's own write
            store.update("INSERT INTO tick_prompts(tick_id, position, message, role, context, hash) VALUES "
                    + values(parts.size(), 6), rows);
        });
    }

    /** {@code (?, ?), (?, ?)} for {@code rows} rows of {@code columns} parameters. */
    private static String values(int rows, int columns) {
        String row = "(" + String.join(", ", java.util.Collections.nCopies(columns, "?")) + ")";
        return String.join(", ", java.util.Collections.nCopies(rows, row));
    }

    /** The parts of the prompt of {@code tickId} in order; empty when none is stored (no LLM call, or an older tick). */
    public List<PromptPart> load(long tickId) {
        return store.query("SELECT p.message, p.role, p.context, s.text, p.hash, p.position FROM tick_prompts p "
                + "JOIN prompt_sections s ON s.hash = p.hash WHERE p.tick_id = ? ORDER BY p.position", rs -> {
                    String text = rs.getString(4);
                    if (!Arrays.equals(sha256(text), rs.getBytes(5))) {
                        throw new StoreException(StoreException.Kind.CORRUPT, "part " + rs.getInt(6) + " of the prompt of tick "
                                + tickId + " in " + store.path() + " does not match its hash: run agent check");
                    }
                    return new PromptPart(rs.getInt(1), rs.getString(2), rs.getInt(3), text);
                }, tickId);
    }

    /** SHA-256 of the UTF-8 bytes of {@code text}: the key a part is stored under. */
    public static byte[] sha256(String text) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}

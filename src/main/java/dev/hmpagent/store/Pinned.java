package dev.hmpagent.store;

import java.util.Objects;

/** A pinned row and the tick it was pinned in (pins are ordered by it; the oldest go first beyond a cap). */
public record Pinned<T>(T row, long tick) {
    public Pinned {
        Objects.requireNonNull(row, "row");
    }
}

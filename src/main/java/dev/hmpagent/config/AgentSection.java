package dev.hmpagent.config;

import java.nio.file.Path;
import java.util.Objects;

/** The [agent] section: where the agent keeps its state and what it is called. */
public record AgentSection(Path db, String name) {
    public AgentSection {
        Objects.requireNonNull(db, "db");
        Objects.requireNonNull(name, "name");
    }
}

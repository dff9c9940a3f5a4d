package dev.hmpagent.commands;

import dev.hmpagent.store.AgentTablesDao;
import dev.hmpagent.store.ScriptsDao;
import dev.hmpagent.store.Store;
import java.util.Objects;

/** The DAOs of the HMP registries (strategies and ratings, scripts, tables, LLMs, identity, peers, users, services). */
public final class RegistryDaos {
    private final ScriptsDao scripts;
    private final AgentTablesDao tables;

    public RegistryDaos(Store store) {
        Objects.requireNonNull(store, "store");
        this.scripts = new ScriptsDao(store);
        this.tables = new AgentTablesDao(store);
    }

    public ScriptsDao scripts() { return scripts; }

    public AgentTablesDao tables() { return tables; }
}

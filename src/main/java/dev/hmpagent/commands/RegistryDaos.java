package dev.hmpagent.commands;

import dev.hmpagent.store.AgentTablesDao;
import dev.hmpagent.store.IdentityDao;
import dev.hmpagent.store.LlmRegistryDao;
import dev.hmpagent.store.RatingsDao;
import dev.hmpagent.store.ScriptsDao;
import dev.hmpagent.store.Store;
import java.util.Objects;

/** The DAOs of the HMP registries (strategies and ratings, scripts, tables, LLMs, identity, peers, users, services). */
public final class RegistryDaos {
    private final RatingsDao ratings;
    private final ScriptsDao scripts;
    private final AgentTablesDao tables;
    private final LlmRegistryDao llms;
    private final IdentityDao identity;

    public RegistryDaos(Store store) {
        Objects.requireNonNull(store, "store");
        this.ratings = new RatingsDao(store);
        this.scripts = new ScriptsDao(store);
        this.tables = new AgentTablesDao(store);
        this.llms = new LlmRegistryDao(store);
        this.identity = new IdentityDao(store);
    }

    public RatingsDao ratings() { return ratings; }

    public ScriptsDao scripts() { return scripts; }

    public AgentTablesDao tables() { return tables; }

    public LlmRegistryDao llms() { return llms; }

    public IdentityDao identity() { return identity; }
}

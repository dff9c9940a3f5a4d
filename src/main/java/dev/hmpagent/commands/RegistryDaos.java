package dev.hmpagent.commands;

import dev.hmpagent.store.AgentTablesDao;
import dev.hmpagent.store.ExternalServicesDao;
import dev.hmpagent.store.IdentityDao;
import dev.hmpagent.store.LlmRegistryDao;
import dev.hmpagent.store.PeersDao;
import dev.hmpagent.store.RatingsDao;
import dev.hmpagent.store.ScriptsDao;
import dev.hmpagent.store.Store;
import dev.hmpagent.store.UsersDao;
import java.util.Objects;

/** The DAOs of the HMP registries (strategies and ratings, scripts, tables, LLMs, identity, peers, users, services). */
public final class RegistryDaos {
    private final RatingsDao ratings;
    private final ScriptsDao scripts;
    private final AgentTablesDao tables;
    private final LlmRegistryDao llms;
    private final IdentityDao identity;
    private final PeersDao peers;
    private final UsersDao users;
    private final ExternalServicesDao services;

    public RegistryDaos(Store store) {
        Objects.requireNonNull(store, "store");
        this.ratings = new RatingsDao(store);
        this.scripts = new ScriptsDao(store);
        this.tables = new AgentTablesDao(store);
        this.llms = new LlmRegistryDao(store);
        this.identity = new IdentityDao(store);
        this.peers = new PeersDao(store);
        this.users = new UsersDao(store);
        this.services = new ExternalServicesDao(store);
    }

    public RatingsDao ratings() { return ratings; }

    public ScriptsDao scripts() { return scripts; }

    public AgentTablesDao tables() { return tables; }

    public LlmRegistryDao llms() { return llms; }

    public IdentityDao identity() { return identity; }

    public PeersDao peers() { return peers; }

    public UsersDao users() { return users; }

    public ExternalServicesDao services() { return services; }
}

package dev.hmpagent.commands;

import dev.hmpagent.store.AgentTablesDao;
import dev.hmpagent.store.ExternalServicesDao;
import dev.hmpagent.store.IdentityDao;
import dev.hmpagent.store.LlmRegistryDao;
import dev.hmpagent.store.PeersDao;
import dev.hmpagent.store.RatingsDao;
import dev.hmpagent.store.ScriptsDao;
import dev.hmpagent.store.Tables;
import dev.hmpagent.store.UsersDao;
import java.util.Objects;

/**
 * The DAOs of the HMP registries (strategies and ratings, scripts, tables, LLMs, identity, peers, users, services),
 * taken from the connection's {@link Tables}.
 */
public final class RegistryDaos {
    private final Tables all;

    public RegistryDaos(Tables tables) {
        this.all = Objects.requireNonNull(tables, "tables");
    }

    public RatingsDao ratings() { return all.ratings(); }

    public ScriptsDao scripts() { return all.scripts(); }

    public AgentTablesDao tables() { return all.agentTables(); }

    public LlmRegistryDao llms() { return all.llmRegistry(); }

    public IdentityDao identity() { return all.identity(); }

    public PeersDao peers() { return all.peers(); }

    public UsersDao users() { return all.users(); }

    public ExternalServicesDao services() { return all.externalServices(); }
}

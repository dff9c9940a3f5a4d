package dev.hmpagent.mcp;

import dev.hmpagent.commands.CommandGate;
import dev.hmpagent.commands.PendingCommand;
import dev.hmpagent.config.McpSection;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The person's [mcp] rules as a {@link CommandGate}: a call of {@code mcp.<server>.<tool>} is allowed, asked or
 * refused by the entry naming the tool ({@code server.tool}), else by the entry naming its server; deny beats ask beats
 * allow; named nowhere, it is asked (nobody answers headless: refused). Any other command passes.
 */
public final class McpGate implements CommandGate {
    private final McpSection rules;
    /** Tools a person answered "always" for, this session. */
    private final Set<String> allowedForSession = ConcurrentHashMap.newKeySet();

    public McpGate(McpSection rules) {
        this.rules = Objects.requireNonNull(rules, "rules");
    }

    @Override
    public Decision check(PendingCommand command) {
        String type = command.type();
        if (!type.startsWith(McpServers.PREFIX)) return Decision.allow();
        String rest = type.substring(McpServers.PREFIX.length());
        int dot = rest.indexOf('.');
        if (dot <= 0) return Decision.allow();   // not a tool's name: unknown, which the executor says
        String server = rest.substring(0, dot);
        Decision byTool = decide(rest, type, "the tool");
        if (byTool != null) return byTool;
        Decision byServer = decide(server, type, "server " + server);
        if (byServer != null) return byServer;
        if (allowedForSession.contains(rest)) return Decision.allow();
        return Decision.ask(type + ": neither " + rest + " nor " + server + " is in [mcp] allow of agent.toml");
    }

    /** The decision of the entry {@code name}, or null when no list names it. */
    private Decision decide(String name, String type, String what) {
        if (rules.deny().contains(name)) {
            return Decision.deny(what + " is in [mcp] deny of agent.toml (\"" + name + "\"); do not try " + type
                    + " again");
        }
        if (rules.ask().contains(name)) {
            if (allowedForSession.contains(type.substring(McpServers.PREFIX.length()))) return Decision.allow();
            return Decision.ask(type + ": " + what + " is in [mcp] ask of agent.toml");
        }
        return rules.allow().contains(name) ? Decision.allow() : null;
    }

    @Override
    public void allowForSession(PendingCommand command) {
        if (command.type().startsWith(McpServers.PREFIX)) {
            allowedForSession.add(command.type().substring(McpServers.PREFIX.length()));
        }
    }
}

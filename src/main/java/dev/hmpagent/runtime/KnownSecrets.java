package dev.hmpagent.runtime;

import dev.hmpagent.config.AgentConfig;
import dev.hmpagent.config.ConfigKey;
import dev.hmpagent.config.McpServerEntry;
import dev.hmpagent.config.Provider;
import dev.hmpagent.process.ChildEnvironment;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeSet;

/**
 * What one run holds as secret, from its configuration and the agent's environment: the variables that name a key
 * (every {@code *api_key_env}, the providers' own key variables, the variables {@code [[mcp.servers]]} {@code env} and
 * {@code headers} name) and the values they resolve to, the configured {@code llm.api_key}, and the value of every
 * variable of the environment whose name says it is a secret (not a path). Children never get a configured one
 * ({@link #children}: a secret-named variable only when a person names it in {@code shell.env}); every result, row,
 * prompt and terminal line is redacted of them all ({@code ReplySecrets}).
 */
public final class KnownSecrets {
    private final Set<String> keyVariables;
    private final List<String> values;
    private final ChildEnvironment children;

    private KnownSecrets(Set<String> keyVariables, List<String> values, ChildEnvironment children) {
        this.keyVariables = Set.copyOf(keyVariables);
        this.values = List.copyOf(values);
        this.children = children;
    }

    /** The secrets of {@code config} run with the agent's environment {@code env}. */
    public static KnownSecrets of(AgentConfig config, Map<String, String> env) {
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(env, "env");
        Set<String> names = new TreeSet<>();
        for (Provider p : Provider.values()) names.add(p.keyVariable());
        for (ConfigKey k : ConfigKey.values()) {
            if (k.secret()) names.addAll(k.envNames());
        }
        names.add(config.llm().keyVariable());
        config.llm().registry().forEach(e -> names.add(e.apiKeyEnv().strip()));
        for (McpServerEntry e : config.mcp().servers()) {
            names.addAll(e.env().values());
            names.addAll(e.headers().values());
        }
        names.remove("");
        List<String> configured = new ArrayList<>();
        configured.add(config.llm().apiKey());
        names.forEach(n -> configured.add(env.get(n)));
        List<String> values = new ArrayList<>(configured);
        env.forEach((name, value) -> {
            // a path is no secret, whatever its variable is called (SSH_KEY_FILE=/home/ann/.ssh/id_ed25519)
            if (ChildEnvironment.isSecret(name) && !value.startsWith("/")) values.add(value);
        });
        // a variable a person names in shell.env is passed unless it holds a configured key; its value is redacted
        return new KnownSecrets(names, clean(values),
                ChildEnvironment.of(env, config.shell().env(), names, clean(configured)));
    }

    private static List<String> clean(List<String> values) {
        return values.stream().filter(v -> v != null && !v.isBlank()).distinct().toList();
    }

    /** The variables that name a key: never passed to a child. */
    public Set<String> keyVariables() {
        return keyVariables;
    }

    /** Every secret value this run knows (none blank). */
    public List<String> values() {
        return values;
    }

    /** The allow-listed environment of every child of this run: commands, scripts, the alert command, MCP servers. */
    public ChildEnvironment children() {
        return children;
    }
}

package dev.hmpagent.config;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/**
 * Everything the loader reads, gathered by the caller so that loading itself touches no global
 * state (tests pass the environment as a map).
 *
 * @param cliValues           dotted key to raw flag value
 * @param cliLabels           dotted key to how the flag is spelled for provenance, e.g. {@code --db}; may be empty
 * @param env                 the environment; empty values count as unset
 * @param projectFile         usually {@code ./agent.toml}, or the path given by {@code --config}
 * @param projectFileExplicit true when given by {@code --config}: then a missing file is an error
 * @param userFile            usually {@link #defaultUserFile(Map)}
 */
public record ConfigSources(
        Map<String, String> cliValues,
        Map<String, String> cliLabels,
        Map<String, String> env,
        Optional<Path> projectFile,
        boolean projectFileExplicit,
        Optional<Path> userFile) {

    /** The project file used when no --config is given. */
    public static final Path DEFAULT_PROJECT_FILE = Path.of("./agent.toml");

    public ConfigSources {
        cliValues = Map.copyOf(Objects.requireNonNull(cliValues, "cliValues"));
        cliLabels = Map.copyOf(Objects.requireNonNull(cliLabels, "cliLabels"));
        env = Map.copyOf(Objects.requireNonNull(env, "env"));
        Objects.requireNonNull(projectFile, "projectFile");
        Objects.requireNonNull(userFile, "userFile");
        if (projectFileExplicit && projectFile.isEmpty()) {
            throw new IllegalArgumentException("projectFileExplicit needs a projectFile");
        }
    }

    /**
     * The usual wiring for the command line: {@code ./agent.toml} unless {@code --config} names a
     * file (which must then exist), and the XDG user file.
     */
    public static ConfigSources standard(Map<String, String> cliValues, Map<String, String> cliLabels,
                                         Map<String, String> env, Optional<Path> configFlag) {
        Objects.requireNonNull(configFlag, "configFlag");
        return new ConfigSources(cliValues, cliLabels, env,
                Optional.of(configFlag.orElse(DEFAULT_PROJECT_FILE)), configFlag.isPresent(),
                defaultUserFile(env));
    }

    /** The command line's values and the environment, no file: for commands that need only the database. */
    public static ConfigSources withoutFiles(Map<String, String> cliValues, Map<String, String> cliLabels,
                                             Map<String, String> env) {
        return new ConfigSources(cliValues, cliLabels, env, Optional.empty(), false, Optional.empty());
    }

    /** Only the built-in defaults and the given environment; no files, no flags. */
    public static ConfigSources envOnly(Map<String, String> env) {
        return new ConfigSources(Map.of(), Map.of(), env, Optional.empty(), false, Optional.empty());
    }

    /**
     * {@code $XDG_CONFIG_HOME/hmp-agent/agent.toml} when XDG_CONFIG_HOME is an absolute path, else
     * {@code $HOME/.config/hmp-agent/agent.toml} (HOME falling back to the user.home property).
     */
    public static Optional<Path> defaultUserFile(Map<String, String> env) {
        Objects.requireNonNull(env, "env");
        try {
            String xdg = env.get("XDG_CONFIG_HOME");
            if (xdg != null && !xdg.isEmpty() && Path.of(xdg).isAbsolute()) {
                return Optional.of(Path.of(xdg, "hmp-agent", "agent.toml"));
            }
            String home = env.get("HOME");
            if (home == null || home.isEmpty()) {
                home = System.getProperty("user.home");
            }
            if (home == null || home.isEmpty()) {
                return Optional.empty();
            }
            return Optional.of(Path.of(home, ".config", "hmp-agent", "agent.toml"));
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
    }

    /** Shows which flags and how many env vars were given, never their values (they may be secret). */
    @Override
    public String toString() {
        return "ConfigSources[cliValues=" + new TreeSet<>(cliValues.keySet())
                + ", cliLabels=" + cliLabels
                + ", env=" + env.size() + " variables"
                + ", projectFile=" + projectFile
                + ", projectFileExplicit=" + projectFileExplicit
                + ", userFile=" + userFile + "]";
    }
}

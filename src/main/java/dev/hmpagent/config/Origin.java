package dev.hmpagent.config;

import java.nio.file.Path;
import java.util.Objects;
import java.util.Set;

/**
 * Where a configuration value came from.
 *
 * @param kind   one of {@code default}, {@code user-file}, {@code project-file}, {@code env}, {@code flag}
 * @param detail the env var name, the file path or the flag label; empty for defaults
 */
public record Origin(String kind, String detail) {
    public static final String DEFAULT = "default";
    public static final String USER_FILE = "user-file";
    public static final String PROJECT_FILE = "project-file";
    public static final String ENV = "env";
    public static final String FLAG = "flag";

    private static final Set<String> KINDS = Set.of(DEFAULT, USER_FILE, PROJECT_FILE, ENV, FLAG);

    public Origin {
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(detail, "detail");
        if (!KINDS.contains(kind)) {
            throw new IllegalArgumentException("unknown origin kind: " + kind);
        }
    }

    public static Origin builtInDefault() {
        return new Origin(DEFAULT, "");
    }

    public static Origin userFile(Path file) {
        return new Origin(USER_FILE, file.toString());
    }

    public static Origin projectFile(Path file) {
        return new Origin(PROJECT_FILE, file.toString());
    }

    public static Origin env(String variable) {
        return new Origin(ENV, variable);
    }

    public static Origin flag(String label) {
        return new Origin(FLAG, label);
    }

    /** E.g. {@code default}, {@code env OPENAI_API_KEY}, {@code project file ./agent.toml}, {@code flag --db}. */
    @Override
    public String toString() {
        String label = kind.replace('-', ' ');
        return detail.isEmpty() ? label : label + " " + detail;
    }
}

package dev.hmpagent.config;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;

/** Fluent builder of {@link ConfigSources} for tests; the environment is always a plain map. */
final class TestSources {
    private final Map<String, String> flags = new HashMap<>();
    private final Map<String, String> labels = new HashMap<>();
    private final Map<String, String> env = new HashMap<>();
    private Optional<Path> project = Optional.empty();
    private boolean explicit;
    private Optional<Path> user = Optional.empty();

    static TestSources none() {
        return new TestSources();
    }

    TestSources flag(String key, String value, String label) {
        flags.put(key, value);
        labels.put(key, label);
        return this;
    }

    TestSources flag(String key, String value) {
        flags.put(key, value);
        return this;
    }

    TestSources env(String name, String value) {
        env.put(name, value);
        return this;
    }

    TestSources project(Path file) {
        project = Optional.of(file);
        return this;
    }

    TestSources explicitConfig(Path file) {
        project = Optional.of(file);
        explicit = true;
        return this;
    }

    TestSources user(Path file) {
        user = Optional.of(file);
        return this;
    }

    ConfigSources build() {
        return new ConfigSources(flags, labels, env, project, explicit, user);
    }

    LoadedConfig load() {
        return ConfigLoader.load(build());
    }
}

package dev.hmpagent.config;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ConfigSourcesTest {
    @Test
    void userFileFollowsXdgConfigHomeWhenSet() {
        Map<String, String> env = Map.of("XDG_CONFIG_HOME", "/xdg", "HOME", "/home/ada");

        assertThat(ConfigSources.defaultUserFile(env)).contains(Path.of("/xdg/hmp-agent/agent.toml"));
    }

    @Test
    void userFileFallsBackToTheConfigFolderUnderHome() {
        assertThat(ConfigSources.defaultUserFile(Map.of("HOME", "/home/ada")))
                .contains(Path.of("/home/ada/.config/hmp-agent/agent.toml"));
        assertThat(ConfigSources.defaultUserFile(Map.of("XDG_CONFIG_HOME", "", "HOME", "/home/ada")))
                .contains(Path.of("/home/ada/.config/hmp-agent/agent.toml"));
    }

    @Test
    void relativeXdgConfigHomeIsIgnoredAsTheSpecRequires() {
        assertThat(ConfigSources.defaultUserFile(Map.of("XDG_CONFIG_HOME", "rel", "HOME", "/home/ada")))
                .contains(Path.of("/home/ada/.config/hmp-agent/agent.toml"));
    }

    @Test
    void standardWiringUsesDotSlashAgentTomlUnlessConfigIsGiven() {
        Map<String, String> env = Map.of("HOME", "/home/ada");

        ConfigSources implicit = ConfigSources.standard(Map.of(), Map.of(), env, Optional.empty());
        ConfigSources explicit = ConfigSources.standard(Map.of(), Map.of(), env, Optional.of(Path.of("x.toml")));

        assertThat(implicit.projectFile()).contains(Path.of("./agent.toml"));
        assertThat(implicit.projectFileExplicit()).isFalse();
        assertThat(implicit.userFile()).contains(Path.of("/home/ada/.config/hmp-agent/agent.toml"));
        assertThat(explicit.projectFile()).contains(Path.of("x.toml"));
        assertThat(explicit.projectFileExplicit()).isTrue();
    }
}

package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** `agent config` says where llm.base_url came from, OLLAMA_HOST included. */
class ConfigCommandTest {
    @TempDir Path dir;

    /** Runs {@code agent ARGS --config <empty file> --db <file in the temp dir>}, HOME the temp dir. */
    CliRun agent(Map<String, String> env, String... args) throws IOException {
        Path config = Files.writeString(dir.resolve("agent.toml"), "");
        List<String> argv = new ArrayList<>(List.of(args));
        argv.addAll(List.of("--config", config.toString(), "--db", dir.resolve("agent.db").toString()));
        Map<String, String> all = new HashMap<>(env);
        all.put("HOME", dir.toString());
        return CliRun.agent(all, cl -> { }, argv.toArray(String[]::new));
    }

    static String line(String text, String key) {
        return text.lines().filter(l -> l.startsWith(key + " ")).findFirst().orElseThrow();
    }

    @Test
    void the_base_url_derived_from_ollama_host_says_so() throws Exception {
        CliRun run = agent(Map.of("OLLAMA_HOST", "0.0.0.0:11500"), "config");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(line(run.out(), "llm.base_url")).matches("llm\\.base_url += http://127\\.0\\.0\\.1:11500/v1 +\\(env OLLAMA_HOST\\)");
    }

    @Test
    void a_base_url_flag_wins_over_ollama_host() throws Exception {
        CliRun run = agent(Map.of("OLLAMA_HOST", "gpu-box"), "--base-url", "http://elsewhere:9/v1", "config");

        assertThat(run.code()).as(run.err()).isZero();
        assertThat(line(run.out(), "llm.base_url")).matches("llm\\.base_url += http://elsewhere:9/v1 +\\(flag --base-url\\)");
    }

    @Test
    void without_ollama_host_the_default_is_ollama_on_this_machine() throws Exception {
        CliRun run = agent(Map.of(), "config");

        assertThat(line(run.out(), "llm.base_url")).matches("llm\\.base_url += http://localhost:11434/v1 +\\(default\\)");
    }

    @Test
    void a_malformed_ollama_host_is_one_line_and_exit_3() throws Exception {
        CliRun run = agent(Map.of("OLLAMA_HOST", "gpu box"), "config");

        assertThat(run.code()).isEqualTo(ExitCodes.CONFIG).isEqualTo(3);
        assertThat(run.out()).isEmpty();
        assertThat(run.err()).isEqualTo("agent: OLLAMA_HOST = gpu box (read because nothing sets llm.base_url) is not a"
                + " host name or address: use HOST, HOST:PORT or http://HOST:PORT, e.g. 192.168.1.20:11434"
                + " (or set llm.base_url, which wins)" + System.lineSeparator());
    }
}

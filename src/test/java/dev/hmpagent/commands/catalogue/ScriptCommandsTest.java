package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandRun;
import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.store.AgentCatalogue;
import dev.hmpagent.store.ScriptLaunch;
import dev.hmpagent.store.ScriptRow;
import dev.hmpagent.store.ScriptsDao;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScriptCommandsTest extends RegistryCommandsFixture {

    @Test
    void a_script_is_saved_changed_as_new_versions_listed_read_and_deleted() {
        List<CommandRun> runs = run(1, """
                [{"type": "script_add", "args": {"name": "greet", "description": "say hello", "code": "print('hi')"}},
                 {"type": "script_update", "args": {"name": "greet", "code": "print('hello')"}},
                 {"type": "script_add", "args": {"name": "count", "language": "sh", "code": "wc -l \\"$1\\"", "tags": "util"}},
                 {"type": "scripts_list"},
                 {"type": "script_read", "args": {"name": "greet"}},
                 {"type": "script_read", "args": {"name": "greet", "version": "1"}}]""");

        assertThat(runs).extracting(CommandRun::status).containsOnly("ok");
        assertThat(runs.get(0).result()).isEqualTo("script greet saved as version 1 (python)");
        assertThat(runs.get(1).result()).isEqualTo("script greet saved as version 2 (was 1)");
        assertThat(runs.get(3).result()).isEqualTo("your scripts (name, version, language, versions kept):\n"
                + "- count v1 (sh, 1 kept)\n- greet v2 (python, 2 kept): say hello");
        assertThat(runs.get(4).result()).isEqualTo("script greet v2 (python, updated 2026-11-21T10:00:00Z): say hello\n"
                + "print('hello')");
        assertThat(runs.get(5).result()).endsWith("\nprint('hi')");
        assertThat(rows("SELECT name, version, language, description, code, llm_id FROM agent_scripts ORDER BY id"))
                .containsExactly(List.of("greet", "1", "python", "say hello", "print('hi')", "m"),
                        List.of("greet", "2", "python", "say hello", "print('hello')", "m"),
                        java.util.Arrays.asList("count", "1", "sh", null, "wc -l \"$1\"", "m"));

        CommandRun delete = run("script_delete", "{\"name\": \"greet\"}");
        assertThat(delete.result()).isEqualTo("script greet deleted (2 versions)");
        assertThat(count("SELECT count(*) FROM agent_scripts WHERE name = 'greet'")).isZero();
    }

    @Test
    void the_reads_inform_and_the_changes_do_not() {
        for (String t : List.of("scripts_list", "script_read")) assertThat(registry.find(t).orElseThrow().informs()).isTrue();
        for (String t : List.of("script_add", "script_update", "script_delete")) {
            assertThat(registry.find(t).orElseThrow().informs()).as(t).isFalse();
        }
        assertThat(registry.find("script_run")).as("the integrator wires script_run through the shell policy").isEmpty();
    }

    @Test
    void bad_names_languages_duplicates_and_unknown_scripts_are_refused() {
        run("script_add", "{\"name\": \"greet\", \"code\": \"print(1)\"}");
        List<CommandRun> runs = run(1, """
                [{"type": "script_add", "args": {"name": "../evil", "code": "x"}},
                 {"type": "script_add", "args": {"name": "x", "language": "ruby", "code": "puts 1"}},
                 {"type": "script_add", "args": {"name": "greet", "code": "print(2)"}},
                 {"type": "script_update", "args": {"name": "nope", "code": "x"}},
                 {"type": "script_update", "args": {"name": "greet"}},
                 {"type": "script_update", "args": {"name": "greet", "code": "x", "version": "1"}},
                 {"type": "script_read", "args": {"name": "nope"}},
                 {"type": "script_add", "args": {"name": "y", "code": "x", "version": "1; rm -rf /"}}]""");
        assertThat(runs).extracting(CommandRun::status).containsOnly("error");
        assertThat(runs.get(0).result()).contains("args.name must be lower-case letters");
        assertThat(runs.get(1).result()).contains("args.language must be one of bash, python, sh");
        assertThat(runs.get(2).result()).isEqualTo("script_add: script greet exists (version 1); change it with "
                + "script_update or pick another name");
        assertThat(runs.get(3).result()).isEqualTo("script_update: no script nope; yours: greet");
        assertThat(runs.get(4).result()).contains("give at least one of args.code");
        assertThat(runs.get(5).result()).contains("already has a version 1");
        assertThat(runs.get(6).result()).isEqualTo("script_read: no script nope; yours: greet");
        assertThat(runs.get(7).result()).contains("args.version must be");
        assertThat(count("SELECT count(*) FROM agent_scripts")).isEqualTo(1);
    }

    @Test
    void a_script_row_becomes_a_file_and_the_command_line_that_runs_it() throws Exception {
        run("script_add", "{\"name\": \"greet\", \"code\": \"print('hi')\"}");
        run("script_add", "{\"name\": \"count\", \"language\": \"bash\", \"code\": \"echo $#\"}");
        ScriptsDao scripts = new ScriptsDao(store);
        Path scriptsDir = dir.resolve("my scripts");

        ScriptLaunch py = ScriptLaunch.prepare(scripts.latest("greet").orElseThrow(), scriptsDir, List.of());
        ScriptLaunch sh = ScriptLaunch.prepare(scripts.latest("count").orElseThrow(), scriptsDir,
                List.of("a b", "it's", "$(reboot)", "plain"));

        assertThat(py.file()).isEqualTo(scriptsDir.toAbsolutePath().resolve("greet-1.py"));
        assertThat(Files.readString(py.file())).isEqualTo("print('hi')");
        assertThat(py.argv()).containsExactly("python3", py.file().toString());
        assertThat(py.commandLine()).isEqualTo("python3 '" + py.file() + "'");
        assertThat(sh.commandLine()).isEqualTo("bash '" + sh.file() + "' 'a b' 'it'\\''s' '$(reboot)' plain");

        ScriptRow stale = scripts.latest("greet").orElseThrow();
        Files.writeString(py.file(), "import os; os.system('rm -rf ~')");
        ScriptLaunch.prepare(stale, scriptsDir, List.of());
        assertThat(Files.readString(py.file())).as("the file is rewritten from the database every time").isEqualTo("print('hi')");
        try (var listing = Files.list(scriptsDir)) {
            assertThat(listing.map(p -> p.getFileName().toString()).sorted()).containsExactly("count-1.sh", "greet-1.py");
        }
    }

    @Test
    void context_0_gets_one_capped_line_per_script_and_table() {
        AgentCatalogue catalogue = new AgentCatalogue(store);
        assertThat(catalogue.catalogueLines()).isEmpty();
        run("script_add", "{\"name\": \"greet\", \"description\": \"say hello\\nto   everyone\", \"code\": \"print(1)\"}");
        for (int i = 0; i < AgentCatalogue.MAX_EACH + 2; i++) {
            run("script_add", "{\"name\": \"s" + i + "\", \"description\": \"" + "long ".repeat(40) + "\", \"code\": \"x\"}");
        }
        run("table_create", "{\"name\": \"contacts\", \"description\": \"people\", \"columns\": {\"who\": \"text\"}}");

        String lines = catalogue.catalogueLines();

        assertThat(lines).startsWith("Your scripts (script_read shows one, script_run runs it):\n"
                + "- greet (python, v1): say hello to everyone\n");
        assertThat(lines).contains("- … and 3 more (scripts_list)\n")
                .endsWith("Your tables (table_query reads one, table_insert adds a row):\n- contacts (who): people\n");
        assertThat(lines.lines()).allSatisfy(l -> assertThat(l.length()).isLessThanOrEqualTo(AgentCatalogue.MAX_LINE));
        assertThat(lines.lines().count()).isEqualTo(1 + AgentCatalogue.MAX_EACH + 1 + 2);
    }
}

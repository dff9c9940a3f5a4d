package dev.hmpagent.cli;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.Stream;
import picocli.CommandLine;
import picocli.CommandLine.Model.UsageMessageSpec;

/**
 * What every command's help shares, after its own Examples (its footer): Environment, the variables that command
 * honours, and Exit codes, from {@link ExitCodes#MEANINGS}. Both are laid out here, one entry per line and never
 * wider than {@link #WIDTH}, rather than wrapped by picocli, so no URL or path is ever broken across lines.
 */
final class HelpSections {
    /** Help is laid out for this many columns (picocli's default usage width). */
    static final int WIDTH = 80;
    static final String ENVIRONMENT = "environment";
    static final String EXIT_CODES = "exitCodes";

    /** An environment variable and what it does, in lines that fit beside the name. */
    record Variable(String name, List<String> lines) {
        Variable {
            Objects.requireNonNull(name, "name");
            lines = List.copyOf(lines);
        }

        Variable(String name, String... lines) {
            this(name, List.of(lines));
        }
    }

    private static final List<Variable> CONFIG = List.of(
            new Variable("AGENT_DB", "the agent's SQLite file, like --db (default ./agent.db)"),
            new Variable("AGENT_<TABLE>_<KEY>", "any config key, e.g. AGENT_LLM_MODEL for llm.model;",
                    "`agent config` shows each value and where it came from"),
            new Variable("XDG_CONFIG_HOME", "user config file $XDG_CONFIG_HOME/hmp-agent/agent.toml,",
                    "else ~/.config/hmp-agent/agent.toml"));
    private static final List<Variable> LLM = List.of(
            new Variable("OPENAI_BASE_URL", "llm.base_url for provider openai, unless",
                    "AGENT_LLM_BASE_URL is set"),
            new Variable("OPENAI_API_KEY", "llm.api_key for provider openai, unless",
                    "AGENT_LLM_API_KEY is set (each llm.registry entry names",
                    "the variable of its own key)"),
            new Variable("ANTHROPIC_API_KEY", "llm.api_key for provider anthropic (ANTHROPIC_BASE_URL",
                    "gives its base URL)"),
            new Variable("OLLAMA_API_KEY", "llm.api_key for provider ollama (behind a proxy)"),
            new Variable("OLLAMA_HOST", "when nothing sets llm.base_url: Ollama's host[:port], as",
                    "Ollama reads it (gpu-box gives http://gpu-box:11434/v1)"));
    private static final List<Variable> SQLITE = List.of(
            new Variable("XDG_CACHE_HOME", "SQLite native library cache $XDG_CACHE_HOME/hmp-agent,",
                    "else ~/.cache/hmp-agent"));

    private static final List<Variable> COLOUR = List.of(
            new Variable("NO_COLOR", "set (not empty): plain output, like --no-color"),
            new Variable("CLICOLOR_FORCE", "set (not 0): colour even when output is not a terminal"));

    private static final int NAME_WIDTH = Stream.of(CONFIG, LLM, SQLITE, COLOUR).flatMap(List::stream)
            .mapToInt(v -> v.name().length()).max().orElse(0);

    private HelpSections() { }

    /** Adds Environment and Exit codes, in that order, after the footer (the Examples) of {@code cl}'s help. */
    static void install(CommandLine cl) {
        UsageMessageSpec usage = cl.getCommandSpec().usageMessage();
        String name = cl.getCommandName();
        List<String> keys = new ArrayList<>(usage.sectionKeys());
        keys.removeAll(List.of(ENVIRONMENT, EXIT_CODES));
        keys.addAll(keys.indexOf(UsageMessageSpec.SECTION_KEY_FOOTER) + 1,
                List.of(ENVIRONMENT, EXIT_CODES));
        Map<String, CommandLine.IHelpSectionRenderer> sections = new LinkedHashMap<>(usage.sectionMap());
        List<Variable> variables = variables(name);
        List<Integer> codes = codes(name);
        sections.put(ENVIRONMENT, help -> environmentSection(variables));
        sections.put(EXIT_CODES, help -> exitCodeSection(codes));
        usage.sectionKeys(keys).sectionMap(sections);
    }

    /** The variables a command honours; every command is named here, so a new one must say. */
    static List<Variable> variables(String command) {
        return switch (command) {
            case "agent" -> concat(CONFIG, LLM, SQLITE, COLOUR);
            case "run", "config" -> concat(CONFIG, LLM, SQLITE);
            case "note", "check", "halt", "unlock", "status", "log", "replay", "spawn" -> concat(CONFIG, SQLITE);
            case "mcp", "a2a", "serve", "list", "peers" -> concat(CONFIG, SQLITE);
            case "completion" -> List.of();
            default -> throw new IllegalStateException("say which environment variables `" + command + "` honours");
        };
    }

    /**
     * The codes a command can end with: all of them, except where only the command line can go wrong; 8 only for
     * {@code agent}, whose piped input is the one way a command waits for an answer to show.
     */
    static List<Integer> codes(String command) {
        return command.equals("completion") ? List.of(ExitCodes.OK, ExitCodes.FAILURE, ExitCodes.USAGE)
                : ExitCodes.MEANINGS.keySet().stream()
                        .filter(code -> code != ExitCodes.NOTHING_SHOWN || command.equals("agent")).toList();
    }

    static String environmentSection(List<Variable> variables) {
        StringBuilder text = new StringBuilder(String.format("%nEnvironment:%n"));
        if (variables.isEmpty()) text.append(String.format("  none%n"));
        for (Variable v : variables) {
            String name = v.name();
            for (String line : v.lines()) {
                text.append(String.format("  %-" + NAME_WIDTH + "s  %s%n", name, line));
                name = "";
            }
        }
        return text.toString();
    }

    /** "0 ok · 1 unexpected failure · …", packed into lines of at most {@link #WIDTH}, never splitting one. */
    static String exitCodeSection(List<Integer> codes) {
        StringBuilder text = new StringBuilder(String.format("%nExit codes:%n"));
        StringBuilder line = new StringBuilder();
        for (int code : codes) {
            String entry = code + " " + ExitCodes.MEANINGS.get(code);
            if (line.length() > 0 && 2 + line.length() + 3 + entry.length() > WIDTH) {
                text.append("  ").append(line).append(String.format("%n"));
                line.setLength(0);
            }
            line.append(line.length() > 0 ? " · " : "").append(entry);
        }
        return text.append("  ").append(line).append(String.format("%n")).toString();
    }

    @SafeVarargs
    private static List<Variable> concat(List<Variable>... groups) {
        return Stream.of(groups).flatMap(List::stream).toList();
    }
}

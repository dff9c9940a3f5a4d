package dev.hmpagent.repl;

import dev.hmpagent.text.EditDistance;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.jline.reader.Candidate;
import org.jline.reader.Completer;

/**
 * The REPL's commands by name: one registry feeds the dispatch, /help, Tab completion (with each command's
 * summary) and the "did you mean" of an unknown command. Aliases ({@code /exit} for {@code /quit}) run the same
 * command and are listed beside it. Letter case aside: {@code /STATUS} is {@code /status}.
 */
public final class SlashCommands {
    private static final int MAX_DISTANCE = 2;

    private final Map<String, SlashCommand> commands = new LinkedHashMap<>();
    private final Map<String, String> aliases = new LinkedHashMap<>();

    /** Adds {@code command}; a name given twice is a wiring mistake. */
    public SlashCommands add(SlashCommand command) {
        if (commands.containsKey(command.name()) || aliases.containsKey(command.name())) {
            throw new IllegalArgumentException("two commands named " + command.name());
        }
        commands.put(command.name(), command);
        return this;
    }

    /** {@code alias} runs {@code name}. */
    public SlashCommands alias(String alias, String name) {
        if (!commands.containsKey(name)) throw new IllegalArgumentException("no command " + name + " to alias");
        aliases.put(alias, name);
        return this;
    }

    public List<SlashCommand> all() {
        return List.copyOf(commands.values());
    }

    /** The command {@code name} (or its alias) names exactly. */
    public Optional<SlashCommand> find(String name) {
        String lower = name.toLowerCase(java.util.Locale.ROOT);
        SlashCommand exact = commands.get(aliases.getOrDefault(name, name));
        return Optional.ofNullable(exact != null ? exact : commands.get(aliases.getOrDefault(lower, lower)));
    }

    /** The command an unknown {@code name} most likely meant: the only one it begins, else the nearest by spelling. */
    public Optional<String> closest(String name) {
        List<String> prefixed = commands.keySet().stream().filter(n -> n.startsWith(name)).toList();
        if (prefixed.size() == 1) return Optional.of(prefixed.get(0));
        return commands.keySet().stream()
                .filter(n -> EditDistance.between(n, name) <= MAX_DISTANCE)
                .min(Comparator.comparingInt(n -> EditDistance.between(n, name)));
    }

    /**
     * Whether a typed line is meant as a command: it starts with '/' and its first word has no second '/'
     * (so "/etc/hosts is missing" goes to the agent as a message).
     */
    public static boolean isCommand(String line) {
        if (!line.startsWith("/") || line.length() < 2) return false;
        String first = line.split("\\s+", 2)[0];
        return first.indexOf('/', 1) < 0;
    }

    /** Runs a command line; an unknown command answers with the closest one. */
    public String run(String line) {
        String[] parts = line.strip().split("\\s+", 2);
        String rest = parts.length > 1 ? parts[1].strip() : "";
        Optional<SlashCommand> command = find(parts[0]);
        if (command.isEmpty()) {
            return "unknown command " + parts[0] + closest(parts[0]).map(c -> "; did you mean " + c + "?").orElse("")
                    + " (/help lists them)";
        }
        return command.get().handler().run(rest);
    }

    /** /help: every command with its arguments and summary, aligned. */
    public String help() {
        int width = commands.values().stream().mapToInt(c -> usage(c).length()).max().orElse(0);
        StringBuilder sb = new StringBuilder();
        for (SlashCommand c : commands.values()) {
            if (!sb.isEmpty()) sb.append('\n');
            sb.append("  ").append(String.format("%-" + width + "s", usage(c))).append("  ").append(c.summary());
        }
        return sb.toString();
    }

    private String usage(SlashCommand c) {
        StringBuilder names = new StringBuilder(c.name());
        aliases.forEach((alias, name) -> {
            if (name.equals(c.name())) names.append(", ").append(alias);
        });
        return c.args().isEmpty() ? names.toString() : names + " " + c.args();
    }

    /**
     * Tab completion: the command names (each with its summary) for the first word of a line starting with '/',
     * the command's argument values after it. Plain messages complete nothing.
     */
    public Completer completer() {
        return (reader, parsed, candidates) -> {
            String line = parsed.line();
            if (!line.startsWith("/")) return;
            if (parsed.wordIndex() == 0) {
                for (SlashCommand c : commands.values()) {
                    candidates.add(new Candidate(c.name(), c.name(), null, c.summary(), null, null, true));
                }
                return;
            }
            if (parsed.wordIndex() != 1) return;
            find(parsed.words().get(0)).ifPresent(c -> {
                List<String> values = new ArrayList<>(c.choices().get());
                for (String v : values) candidates.add(new Candidate(v, v, null, null, null, null, true));
            });
        };
    }
}

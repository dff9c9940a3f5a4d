package dev.hmpagent.commands;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/** The one list of command types: execution, {@code help} and the catalog in context 0 all read it. */
public final class CommandRegistry {
    private final Map<String, CommandHandler> handlers = new LinkedHashMap<>();

    public CommandRegistry register(CommandHandler handler) {
        if (handlers.putIfAbsent(handler.type(), handler) != null) {
            throw new IllegalArgumentException("command type registered twice: " + handler.type());
        }
        return this;
    }

    /** The built-in commands. */
    public static CommandRegistry builtIn() {
        CommandRegistry r = new CommandRegistry();
        BuiltInCommands.all().forEach(r::register);
        return r;
    }

    public Optional<CommandHandler> find(String type) {
        return Optional.ofNullable(handlers.get(type));
    }

    public List<CommandHandler> all() {
        return Collections.unmodifiableList(new ArrayList<>(handlers.values()));
    }

    public List<String> types() {
        return List.copyOf(handlers.keySet());
    }

    /** One line per command, for context 0 and {@code help}. */
    public String catalog() {
        StringBuilder sb = new StringBuilder();
        for (CommandHandler h : handlers.values()) {
            sb.append("- ").append(h.type()).append(' ').append(h.argsExample()).append(" — ").append(h.summary()).append('\n');
        }
        return sb.toString();
    }
}

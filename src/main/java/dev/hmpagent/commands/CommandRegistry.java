package dev.hmpagent.commands;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/** The one list of command types: execution, {@code help} and the catalog in context 0 all read it. */
public final class CommandRegistry {
    /** Command types that are never the LLM's: the human controls of the safety surface. */
    private static final Set<String> RESERVED_TYPES = Set.of("unlock", "halt");
    /** Words no LLM command type may contain: anything about budgets, policies, safety, guides or locks. */
    private static final List<String> RESERVED_WORDS = List.of("budget", "policy", "safety", "guide", "lock");

    private final Map<String, CommandHandler> handlers = new LinkedHashMap<>();

    /**
     * Whether a command type touches safety, so no handler may have it and an LLM command of that type is refused
     * (EPERM, critical): {@code unlock}, {@code halt}, or any type containing budget, policy, safety, guide or lock
     * (in any case).
     */
    public static boolean isReserved(String type) {
        String t = type.strip().toLowerCase(Locale.ROOT);
        return RESERVED_TYPES.contains(t) || RESERVED_WORDS.stream().anyMatch(t::contains);
    }

    public CommandRegistry register(CommandHandler handler) {
        if (isReserved(handler.type())) {
            throw new IllegalArgumentException("command type is reserved (it would touch safety): " + handler.type());
        }
        if (handlers.putIfAbsent(handler.type(), handler) != null) {
            throw new IllegalArgumentException("command type registered twice: " + handler.type());
        }
        return this;
    }

    /** The built-in commands. */
    public static CommandRegistry builtIn() {
        CommandRegistry r = new CommandRegistry();
        BuiltInCommands.all().forEach(r::register);
        for (List<CommandHandler> family : List.of(StrategyCommands.all(), ScriptCommands.all(), TableCommands.all(),
                LlmRegistryCommands.all(), IdentityCommands.all(), PeerCommands.all(), UserCommands.all(),
                ExternalServiceCommands.all())) {
            family.forEach(r::register);
        }
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

package dev.hmpagent.commands;

import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * One argument a command takes: its name, its JSON type, whether it must be given, and other names a model may
 * write for it (an alias is renamed to {@code name} before the handler sees the arguments).
 */
public record Param(String name, Kind kind, boolean required, List<String> aliases) {

    /** The JSON types an argument can have, as a JSON Schema names them. */
    public enum Kind {
        STRING, INTEGER, NUMBER, BOOLEAN, LIST, OBJECT,
        /** Any JSON value (a setting's value: a number, a word or an object); a JSON Schema gives it no type. */
        ANY;

        /** The JSON Schema {@code type} ({@code any} for {@link #ANY}, which a schema leaves out). */
        public String jsonType() {
            return this == LIST ? "array" : name().toLowerCase(Locale.ROOT);
        }

        /** The kind a JSON Schema type names ({@code string}, {@code array}, ...); throws for any other word. */
        public static Kind of(String jsonType) {
            for (Kind k : values()) if (k.jsonType().equals(jsonType)) return k;
            throw new IllegalArgumentException("not a JSON type: \"" + jsonType + "\"");
        }
    }

    public Param {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        aliases = List.copyOf(Objects.requireNonNull(aliases, "aliases"));
        if (name.isBlank()) throw new IllegalArgumentException("a parameter needs a name");
    }

    public static Param required(String name, Kind kind) {
        return new Param(name, kind, true, List.of());
    }

    public static Param optional(String name, Kind kind) {
        return new Param(name, kind, false, List.of());
    }

    /** This parameter, also accepted under {@code others}. */
    public Param alias(String... others) {
        return new Param(name, kind, required, List.of(others));
    }
}

package dev.hmpagent.cli;

import java.io.IOException;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import java.util.function.Predicate;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * What the process gets from its surroundings: environment, a way to make the terminal, the
 * clock, and how to tell from the terminal whether a person is typing. Tests pass their own.
 */
public record Launch(Map<String, String> env, TerminalFactory terminals, Clock clock, Predicate<Terminal> interactive) {

    /** Makes the terminal the REPL runs on. */
    @FunctionalInterface
    public interface TerminalFactory {
        Terminal create() throws IOException;
    }

    public Launch {
        env = Map.copyOf(Objects.requireNonNull(env, "env"));
        Objects.requireNonNull(terminals, "terminals");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(interactive, "interactive");
    }

    /**
     * The real process: system environment, system terminal, UTC clock. A person is typing when
     * JLine could open a real terminal; when input is a pipe it falls back to a dumb one.
     * (System.console() cannot tell on every JDK: from 22 on it is non-null for pipes too.)
     */
    public static Launch system() {
        return new Launch(System.getenv(), () -> TerminalBuilder.builder().name("hmp-agent").system(true).dumb(true).build(),
                Clock.systemUTC(), t -> !t.getType().startsWith(Terminal.TYPE_DUMB));
    }
}

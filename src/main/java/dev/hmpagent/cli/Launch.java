package dev.hmpagent.cli;

import java.io.IOException;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;

/**
 * What the process gets from its surroundings: environment, a way to make the terminal, the
 * clock, and whether a person is typing. Tests pass their own.
 */
public record Launch(Map<String, String> env, TerminalFactory terminals, Clock clock, boolean interactive) {

    /** Makes the terminal the REPL runs on. */
    @FunctionalInterface
    public interface TerminalFactory {
        Terminal create() throws IOException;
    }

    public Launch {
        env = Map.copyOf(Objects.requireNonNull(env, "env"));
        Objects.requireNonNull(terminals, "terminals");
        Objects.requireNonNull(clock, "clock");
    }

    /** The real process: system environment, system terminal (dumb when stdin is not a terminal), UTC clock. */
    public static Launch system() {
        return new Launch(System.getenv(), () -> TerminalBuilder.builder().name("hmp-agent").system(true).dumb(true).build(),
                Clock.systemUTC(), System.console() != null);
    }
}

package dev.hmpagent.runtime;

import dev.hmpagent.config.LlmSection;
import dev.hmpagent.cycle.TimeSource;
import dev.hmpagent.llm.LlmClient;
import java.io.Console;
import java.io.IOException;
import java.lang.reflect.Method;
import java.nio.file.Path;
import java.time.Clock;
import java.util.Map;
import java.util.Objects;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.jline.terminal.impl.DumbTerminal;
import org.jline.utils.OSUtils;

/**
 * What the process gets from its surroundings: environment, a way to make the terminal, the
 * clock, whether a person is typing, how to reach the LLM, its signals, and the time the tick loop
 * paces itself by ({@link TimeSource#system()}; a test passes one that moves with its fake clock), and
 * its working directory (where {@code AGENTS.md} is looked for: tests cannot change the JVM's, so they pass one).
 * Tests pass their own.
 */
public record Launch(Map<String, String> env, TerminalFactory terminals, Clock clock, boolean interactive,
                     LlmFactory llms, Signals signals, TimeSource time, Path workingDir) {

    /** Where the process learns of SIGTERM and SIGINT ("TERM", "INT"); tests pass one they can fire. */
    @FunctionalInterface
    public interface Signals {
        Signals NONE = (name, action) -> { };

        void on(String name, Runnable action);
    }

    /** Makes the terminal the REPL runs on. */
    @FunctionalInterface
    public interface TerminalFactory {
        Terminal create() throws IOException;

        /**
         * Where piped input is read: the terminal's own reader unless the factory knows better (the system's reads
         * standard input itself: JLine's reader on a pipe reads one byte per system call).
         */
        default java.io.Reader piped(Terminal made) {
            return made.reader();
        }
    }

    /** Makes the client for the configured LLM. */
    @FunctionalInterface
    public interface LlmFactory {
        LlmClient create(LlmSection llm);

        /**
         * The context window {@code llm}'s server says its model has, empty when it does not say: the real factory
         * asks the server ({@link LlmChain#REAL}); a test's clients are no server's, so none by default.
         */
        default java.util.OptionalInt contextWindow(LlmSection llm) {
            return java.util.OptionalInt.empty();
        }
    }

    public Launch {
        env = Map.copyOf(Objects.requireNonNull(env, "env"));
        Objects.requireNonNull(terminals, "terminals");
        Objects.requireNonNull(clock, "clock");
        Objects.requireNonNull(llms, "llms");
        Objects.requireNonNull(signals, "signals");
        Objects.requireNonNull(time, "time");
        workingDir = Objects.requireNonNull(workingDir, "workingDir").toAbsolutePath().normalize();
    }

    /** In the process's working directory. */
    public Launch(Map<String, String> env, TerminalFactory terminals, Clock clock, boolean interactive, LlmFactory llms,
                  Signals signals, TimeSource time) {
        this(env, terminals, clock, interactive, llms, signals, time, Path.of("").toAbsolutePath());
    }

    /** The tick loop paced by the machine's own time. */
    public Launch(Map<String, String> env, TerminalFactory terminals, Clock clock, boolean interactive, LlmFactory llms,
                  Signals signals) {
        this(env, terminals, clock, interactive, llms, signals, TimeSource.system());
    }

    /** This launch with the tick loop paced by {@code time} (a test's, moving with its fake clock). */
    public Launch pacedBy(TimeSource time) {
        return new Launch(env, terminals, clock, interactive, llms, signals, time, workingDir);
    }

    /** This launch as if started in {@code dir} (a test's folder holding its AGENTS.md). */
    public Launch in(Path dir) {
        return new Launch(env, terminals, clock, interactive, llms, signals, time, dir);
    }

    /** No signal handling: the JVM's own (tests). */
    public Launch(Map<String, String> env, TerminalFactory terminals, Clock clock, boolean interactive, LlmFactory llms) {
        this(env, terminals, clock, interactive, llms, Signals.NONE);
    }

    /** The real LLM client for the configuration. */
    public Launch(Map<String, String> env, TerminalFactory terminals, Clock clock, boolean interactive) {
        this(env, terminals, clock, interactive, LlmChain.REAL);
    }

    /** The real process: system environment, system terminal (dumb when input is a pipe), UTC clock. */
    public static Launch system() {
        boolean interactive = consoleIsTerminal();
        TerminalFactory terminals = new TerminalFactory() {
            @Override public Terminal create() throws IOException {
                return systemTerminal(interactive, System.getenv("TERM"));
            }

            @Override public java.io.Reader piped(Terminal made) {
                // nothing else reads standard input while it is a pipe: the terminal's reader is never asked
                return new java.io.InputStreamReader(new java.io.FileInputStream(java.io.FileDescriptor.in),
                        made.encoding());
            }
        };
        return new Launch(System.getenv(), terminals, Clock.systemUTC(), interactive, LlmChain.REAL,
                (name, action) -> sun.misc.Signal.handle(new sun.misc.Signal(name), s -> action.run()));
    }

    /**
     * The system terminal, made by JLine's native providers (JNI up to JDK 21, FFM from 22) without probing its
     * exec provider, which runs {@code test -t 1} as a process at every start merely to be listed; that provider
     * (it runs {@code stty} for everything) is asked alone when the native ones could not make the terminal.
     * On Windows, where Cygwin and MSYS terminals may need the exec provider, JLine chooses as it always did.
     */
    static Terminal systemTerminal(boolean interactive, String term) throws IOException {
        if (OSUtils.IS_WINDOWS) return systemTerminalBuilder().build();
        return nativeFirst(() -> systemTerminalBuilder().exec(false).build(),
                () -> systemTerminalBuilder().ffm(false).jni(false).build(), interactive, term);
    }

    private static TerminalBuilder systemTerminalBuilder() {
        return TerminalBuilder.builder().name("hmp-agent").system(true).dumb(true);
    }

    /**
     * {@code nativeOnly}'s terminal, unless it is a dumb one where a real one was expected (a person at a terminal,
     * and TERM not asking for dumb): then that one is closed and {@code any} makes the terminal.
     */
    public static Terminal nativeFirst(TerminalFactory nativeOnly, TerminalFactory any, boolean interactive, String term)
            throws IOException {
        Terminal terminal = nativeOnly.create();
        if (!(terminal instanceof DumbTerminal) || !interactive || term != null && term.startsWith("dumb")) return terminal;
        terminal.close();
        return any.create();
    }

    /**
     * Whether input and output are a terminal. Up to JDK 21 that is {@code System.console() != null};
     * from JDK 22 the console exists for pipes too and {@code Console.isTerminal()} tells.
     */
    static boolean consoleIsTerminal() {
        Console console = System.console();
        if (console == null) return false;
        try {
            Method isTerminal = Console.class.getMethod("isTerminal");
            return (Boolean) isTerminal.invoke(console);
        } catch (ReflectiveOperationException | RuntimeException e) {
            return true;   // JDK 17-21: no isTerminal(), and a console means a terminal
        }
    }
}

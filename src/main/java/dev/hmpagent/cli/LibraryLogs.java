package dev.hmpagent.cli;

import dev.hmpagent.text.Text;
import java.io.PrintStream;
import java.util.List;
import java.util.Objects;
import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * Keeps what libraries log (sqlite-jdbc, OkHttp, JLine use java.util.logging; the MCP SDK and Reactor log through
 * SLF4J, bound to it by slf4j-jdk14) from spilling
 * multi-line stack traces onto the user's terminal: the root logger's console handler is replaced by
 * one that prints WARNING and above as a single line, {@code hmp-agent: <logger>: <message> (<Exception>:
 * <its first line>)}, and nothing below WARNING. Call {@link #quiet()} first thing in {@code main}.
 */
public final class LibraryLogs {
    /**
     * The MCP SDK logs an error for every line a server writes on stdout that is not JSON-RPC (a chatty server's own
     * logging): a flood over the REPL's screen. It is not shown at all: every failure of a server reaches the agent as
     * an exception, which it says in one line of its own ("did not start: …", "died", a failed call's row).
     */
    static final String MCP_SDK = "io.modelcontextprotocol";
    /**
     * Reactor, which only the MCP SDK uses, logs an error it cannot deliver ("Operator called default onErrorDropped")
     * when a server's stream breaks as the agent closes it: a raw library line at exit. Not shown either, for the same
     * reason: what matters of it reaches the agent as a call's or a server's failure, said in its own words.
     */
    static final String REACTOR = "reactor";

    /**
     * The libraries' parent loggers, configured here and held for the life of the class: LogManager keeps
     * loggers only weakly, and a collected logger would come back later without this configuration.
     */
    private static final List<Logger> LIBRARY_LOGGERS = List.of(
            Logger.getLogger("org.sqlite"), Logger.getLogger("okhttp3"), Logger.getLogger("org.jline"),
            Logger.getLogger(MCP_SDK), Logger.getLogger(REACTOR));

    private LibraryLogs() { }

    /** Quiets library logging onto {@code System.err}; calling it again changes nothing. */
    public static void quiet() {
        quiet(System.err);
    }

    static void quiet(PrintStream err) {
        Objects.requireNonNull(err, "err");
        Logger root = LogManager.getLogManager().getLogger("");
        for (Handler h : root.getHandlers()) {
            if (h instanceof ConsoleHandler || h instanceof OneLineHandler) root.removeHandler(h);
        }
        root.addHandler(new OneLineHandler(err));
        root.setLevel(Level.WARNING);
        for (Logger library : LIBRARY_LOGGERS) {
            for (Handler h : library.getHandlers()) library.removeHandler(h);
            library.setUseParentHandlers(true);
            boolean mcp = library.getName().equals(MCP_SDK) || library.getName().equals(REACTOR);
            library.setLevel(mcp ? Level.OFF : Level.WARNING);
        }
    }

    /** One line: who logged it, what it said, and the exception's class and first line; never a trace. */
    static String oneLine(LogRecord record) {
        StringBuilder line = new StringBuilder("hmp-agent: ");
        String name = record.getLoggerName();
        if (name != null && !name.isEmpty()) line.append(name.substring(name.lastIndexOf('.') + 1)).append(": ");
        line.append(flatten(new SimpleMessage().formatMessage(record)));
        Throwable thrown = record.getThrown();
        if (thrown != null) {
            line.append(" (").append(thrown.getClass().getSimpleName());
            String message = thrown.getMessage();
            if (message != null && !message.isBlank()) line.append(": ").append(firstLine(message));
            line.append(')');
        }
        return line.toString();
    }

    private static String flatten(String s) {
        return s == null ? "" : s.strip().replaceAll("\\s*\\R\\s*", " ");
    }

    private static String firstLine(String s) {
        return Text.firstLine(s);
    }

    /** Only for {@link Formatter#formatMessage}, which fills in {0}-style parameters. */
    private static final class SimpleMessage extends Formatter {
        @Override
        public String format(LogRecord record) {
            return formatMessage(record);
        }
    }

    /** Prints WARNING and above as one line each to the stream it was given. */
    private static final class OneLineHandler extends Handler {
        private final PrintStream out;

        OneLineHandler(PrintStream out) {
            this.out = out;
            setLevel(Level.WARNING);
        }

        @Override
        public void publish(LogRecord record) {
            if (!isLoggable(record)) return;
            out.println(oneLine(record));
            out.flush();
        }

        @Override
        public void flush() {
            out.flush();
        }

        @Override
        public void close() {
            flush(); // the stream is the process's stderr: not ours to close
        }
    }
}

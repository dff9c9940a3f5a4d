package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.NoSuchFileException;
import java.util.List;
import java.util.logging.Handler;
import java.util.logging.Level;
import java.util.logging.LogManager;
import java.util.logging.Logger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** What libraries log reaches the terminal as one line at most, never as a stack trace. */
class LibraryLogsTest {
    final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    final PrintStream err = new PrintStream(captured, true, StandardCharsets.UTF_8);
    final Logger root = LogManager.getLogManager().getLogger("");
    List<Handler> rootHandlers;
    Level rootLevel;

    @BeforeEach
    void remember() {
        rootHandlers = List.of(root.getHandlers());
        rootLevel = root.getLevel();
    }

    @AfterEach
    void restore() {
        for (Handler h : root.getHandlers()) root.removeHandler(h);
        rootHandlers.forEach(root::addHandler);
        root.setLevel(rootLevel);
        for (String name : List.of("org.sqlite", "okhttp3", "org.jline", "reactor")) Logger.getLogger(name).setLevel(null);
    }

    @Test
    void a_library_warning_with_an_exception_is_one_line() {
        LibraryLogs.quiet(err);
        Logger.getLogger("org.sqlite.SQLiteJDBCLoader").log(Level.SEVERE, "Failed to delete old native lib",
                new NoSuchFileException("/tmp/sqlite-3.54.1.0-8ac8-libsqlitejdbc.so"));
        assertThat(output()).isEqualTo("hmp-agent: SQLiteJDBCLoader: Failed to delete old native lib"
                + " (NoSuchFileException: /tmp/sqlite-3.54.1.0-8ac8-libsqlitejdbc.so)" + System.lineSeparator());
    }

    @Test
    void a_multi_line_message_and_a_nested_cause_stay_on_one_line() {
        LibraryLogs.quiet(err);
        Logger.getLogger("org.jline").log(Level.WARNING, "Unable to create a system terminal,\ncreating a dumb terminal",
                new IllegalStateException("no tty\n\tat somewhere", new RuntimeException("cause")));
        assertThat(output()).isEqualTo("hmp-agent: jline: Unable to create a system terminal, creating a dumb terminal"
                + " (IllegalStateException: no tty)" + System.lineSeparator());
    }

    @Test
    void a_reactor_error_dropped_as_an_mcp_server_closes_is_not_shown() {
        LibraryLogs.quiet(err);
        Logger.getLogger("reactor.core.publisher.Operators").log(Level.SEVERE, "Operator called default"
                + " onErrorDropped", new IllegalStateException("Connection reset"));

        assertThat(output()).isEmpty();
    }

    @Test
    void info_and_debug_chatter_is_not_shown() {
        LibraryLogs.quiet(err);
        Logger.getLogger("okhttp3.internal.concurrent.TaskRunner").info("Q10000 scheduled after 0 µs");
        Logger.getLogger("org.jline").fine("using the dumb terminal");
        assertThat(output()).isEmpty();
    }

    @Test
    void the_mcp_sdks_error_for_each_line_a_server_writes_that_is_not_json_rpc_is_not_shown() {
        LibraryLogs.quiet(err);
        Logger sdk = Logger.getLogger("io.modelcontextprotocol.client.transport.StdioClientTransport");
        for (int i = 0; i < 50; i++) sdk.severe("Error processing inbound message for line: Starting server " + i);
        sdk.warning("a warning");
        assertThat(output()).as("the agent says a server's failure itself, in one line").isEmpty();
        Logger.getLogger("okhttp3.OkHttpClient").warning("other libraries still speak");
        assertThat(output()).contains("other libraries still speak");
    }

    @Test
    void quieting_twice_still_prints_once_and_no_console_handler_is_left() {
        LibraryLogs.quiet(err);
        LibraryLogs.quiet(err);
        Logger.getLogger("okhttp3.OkHttpClient").warning("A connection to https://x/ was leaked");
        assertThat(output()).isEqualTo("hmp-agent: OkHttpClient: A connection to https://x/ was leaked" + System.lineSeparator());
        assertThat(root.getHandlers()).noneMatch(h -> h instanceof java.util.logging.ConsoleHandler);
    }

    private String output() {
        return captured.toString(StandardCharsets.UTF_8);
    }
}

package dev.hmpagent.cli;

import dev.hmpagent.repl.JLineScreen;
import dev.hmpagent.repl.SlashCommands;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import org.jline.keymap.KeyMap;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.Reference;
import org.jline.reader.impl.DefaultParser;
import org.jline.reader.impl.LineReaderImpl;
import org.jline.terminal.Terminal;

/**
 * The REPL's line reader: history in a file (owner-only, shared by every start on the same database), no history
 * expansion (a '!' or a backslash is text, not an event), no quoting rules (an apostrophe never asks for another
 * line), Enter through the screen's accept widget (the live region leaves nothing behind), Alt-Enter for a newline
 * inside the message, and no colour in completion lists when colour is off.
 */
final class ReplReader {
    static final String NEWLINE = "hmp-newline";

    private ReplReader() { }

    /** @param history the history file, or null for none (piped input is not history) */
    static LineReader build(Terminal terminal, Path history, boolean colour) {
        LineReaderBuilder b = LineReaderBuilder.builder().terminal(terminal).appName("hmp-agent")
                .parser(new DefaultParser().escapeChars(new char[0]).quoteChars(new char[0]))
                .option(LineReader.Option.DISABLE_EVENT_EXPANSION, true)
                .option(LineReader.Option.HISTORY_IGNORE_SPACE, true)
                .option(LineReader.Option.HISTORY_IGNORE_DUPS, true)
                .option(LineReader.Option.AUTO_FRESH_LINE, true)
                .variable(LineReader.HISTORY_SIZE, 1_000)
                .variable(LineReader.HISTORY_FILE_SIZE, 10_000);
        if (history != null && ownerOnly(history)) b.variable(LineReader.HISTORY_FILE, history);
        if (!colour) {
            for (String style : new String[] {LineReader.COMPLETION_STYLE_STARTING, LineReader.COMPLETION_STYLE_DESCRIPTION,
                    LineReader.COMPLETION_STYLE_GROUP, LineReader.COMPLETION_STYLE_SELECTION,
                    LineReader.COMPLETION_STYLE_BACKGROUND, LineReader.COMPLETION_STYLE_LIST_STARTING,
                    LineReader.COMPLETION_STYLE_LIST_DESCRIPTION, LineReader.COMPLETION_STYLE_LIST_GROUP,
                    LineReader.COMPLETION_STYLE_LIST_SELECTION, LineReader.COMPLETION_STYLE_LIST_BACKGROUND}) {
                b.variable(style, "");
            }
        }
        LineReader reader = b.build();
        reader.getWidgets().put(NEWLINE, () -> {
            reader.getBuffer().write('\n');
            return true;
        });
        KeyMap<org.jline.reader.Binding> main = reader.getKeyMaps().get(LineReader.MAIN);
        main.bind(new Reference(NEWLINE), KeyMap.alt('\r'), KeyMap.alt('\n'));
        main.bind(new Reference(JLineScreen.ACCEPT), "\r", "\n");
        return reader;
    }

    /** Tab completes the registry's commands, each with its summary. */
    static void complete(LineReader reader, SlashCommands commands) {
        if (reader instanceof LineReaderImpl impl) impl.setCompleter(commands.completer());
    }

    /** Writes what the history holds (it is appended as lines are typed; this is the last word at exit). */
    static void saveHistory(LineReader reader) {
        try {
            reader.getHistory().save();
        } catch (IOException | RuntimeException e) {
            // the lines were appended as they were typed; a failed last save loses nothing of them
        }
    }

    /**
     * Creates the history file readable by its owner only (what a person typed may be private); an existing one is
     * narrowed to that. False when it cannot be made (then no history is written).
     */
    static boolean ownerOnly(Path file) {
        try {
            Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        } catch (FileAlreadyExistsException e) {
            try {
                Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rw-------"));
            } catch (IOException | UnsupportedOperationException again) {
                return Files.isWritable(file);
            }
        } catch (UnsupportedOperationException e) {
            try {
                if (!Files.exists(file)) Files.createFile(file);
            } catch (IOException again) {
                return false;
            }
        } catch (IOException e) {
            return false;
        }
        return true;
    }
}

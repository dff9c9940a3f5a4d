package dev.hmpagent.repl;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import org.jline.reader.LineReader;
import org.jline.reader.impl.LineReaderImpl;
import org.jline.terminal.Terminal;
import org.jline.utils.AttributedCharSequence;
import org.jline.utils.AttributedString;

/**
 * The {@link Screen} on a JLine terminal. The live region and, below it, the status line are drawn as the first
 * lines of a multi-line prompt, so JLine redraws them together with what the person is typing and never clobbers
 * the input. Both are changed from any thread through a widget, which JLine runs under its own lock while a line is
 * being read; between two reads the change waits for the next prompt. A dumb terminal gets neither: only lines
 * above the prompt.
 *
 * <p>Not JLine's {@code Status}: with a prompt that grows and shrinks as a reply streams, JLine 3.30's status bar
 * (a scroll region at the bottom) and its line display disagree about where the cursor is, and each growth left a
 * stale copy of the first live line on screen (seen in tmux).
 */
public final class JLineScreen implements Screen, AutoCloseable {
    static final String REFRESH = "hmp-refresh";
    public static final String ACCEPT = "hmp-accept";

    private final LineReader reader;
    private final Terminal terminal;
    private final boolean colour;
    private final boolean live;
    private final String basePrompt;
    /** Where everything but answers goes (a pipe's stderr), or null: above the prompt like the answers. */
    private final PrintWriter notices;
    private volatile List<AttributedString> liveLines = List.of();
    private volatile List<AttributedString> statusLines = List.of();
    /** From Enter until the next read: the prompt without the live region, so the accepted line leaves none behind. */
    private volatile boolean accepting;

    /**
     * @param colour     whether styles (dim, colour) are sent to the terminal
     * @param basePrompt the prompt proper, below the live region
     */
    public JLineScreen(LineReader reader, boolean colour, String basePrompt) {
        this(reader, colour, basePrompt, null);
    }

    /**
     * A screen that keeps answers apart: they go to the terminal, every other line to {@code notices} (a pipe:
     * answers on stdout, errors, notices and figures on stderr, so a script reads the answers alone).
     */
    public static JLineScreen apart(LineReader reader, boolean colour, String basePrompt, PrintWriter notices) {
        return new JLineScreen(reader, colour, basePrompt, Objects.requireNonNull(notices, "notices"));
    }

    private JLineScreen(LineReader reader, boolean colour, String basePrompt, PrintWriter notices) {
        this.notices = notices;
        this.reader = Objects.requireNonNull(reader, "reader");
        this.basePrompt = Objects.requireNonNull(basePrompt, "basePrompt");
        this.terminal = reader.getTerminal();
        this.colour = colour;
        this.live = capable(terminal) && reader instanceof LineReaderImpl;
        reader.getWidgets().put(REFRESH, this::redraw);
        reader.getWidgets().put(ACCEPT, () -> {
            if (live) {
                // until the next line is read, the prompt has no live region: the accepted line leaves none behind
                accepting = true;
                reader.unsetOpt(LineReader.Option.ERASE_LINE_ON_FINISH);   // the accepted line stays, as typed
                redraw();
            }
            reader.callWidget(LineReader.ACCEPT_LINE);
            return true;
        });
    }

    /** Whether the terminal can move the cursor: not dumb (a pipe, an unknown TERM). */
    public static boolean capable(Terminal terminal) {
        String type = terminal.getType();
        return type != null && !type.startsWith(Terminal.TYPE_DUMB);
    }

    @Override
    public void above(AttributedString line) {
        if (notices == null) {
            answer(line);
            return;
        }
        notices.println(text(line));
        notices.flush();
    }

    @Override
    public void answer(AttributedString line) {
        reader.printAbove(text(wrapped(line)));
        terminal.writer().flush();
    }

    /**
     * {@code line} broken at word boundaries on a terminal that shows rows (the terminal would break it mid-word);
     * as it is for a pipe or a dumb terminal, where a script or the terminal decides.
     */
    private AttributedString wrapped(AttributedString line) {
        return live ? Wrap.lines(line, width() - 1) : line;
    }

    /**
     * What is sent for {@code line}: with colour, its escape sequences; also where the terminal is dumb (a pipe
     * with CLICOLOR_FORCE), which JLine's own {@code toAnsi(terminal)} would leave plain.
     */
    private String text(AttributedString line) {
        if (!colour) return line.toString();
        return capable(terminal) ? line.toAnsi(terminal) : line.toAnsi(256, AttributedCharSequence.ForceMode.None);
    }

    @Override
    public void live(List<AttributedString> lines) {
        if (!live || lines.equals(liveLines)) return;   // the clock's redraw of an unchanged screen costs nothing
        liveLines = List.copyOf(lines);
        push();
    }

    @Override
    public void status(List<AttributedString> lines) {
        if (!live || lines.equals(statusLines)) return;
        statusLines = List.copyOf(lines);
        push();
    }

    @Override
    public boolean hasLiveRegion() {
        return live;
    }

    @Override
    public boolean styled() {
        return colour;
    }

    @Override
    public int width() {
        int w = terminal.getWidth();
        return w > 0 ? w : 80;
    }

    /** The prompt to read a line with: the live region, then the prompt proper. */
    public String prompt() {
        return prompt(basePrompt);
    }

    /** {@code base} (a continuation prompt, say) under the live region. */
    public String prompt(String base) {
        if (!live || accepting || liveLines.isEmpty() && statusLines.isEmpty()) return base;
        StringBuilder sb = new StringBuilder();
        List<AttributedString> lines = new ArrayList<>(liveLines);
        lines.addAll(statusLines);
        for (AttributedString line : lines) {
            sb.append(escape(text(line))).append('\n');
        }
        return sb.append(base).toString();
    }

    private volatile String currentBase;

    /** Remembers which prompt proper the line being read has (the base, or a continuation). */
    public String reading(String base) {
        currentBase = base;
        accepting = false;
        // a read ended otherwise than by Enter (Ctrl-C, the loop's end) takes the live region, the status line and
        // the typed line with it: JLine would leave them on screen, frozen, above the next prompt
        if (live) reader.setOpt(LineReader.Option.ERASE_LINE_ON_FINISH);
        return prompt(base);
    }

    private void push() {
        try {
            reader.callWidget(REFRESH);
        } catch (IllegalStateException e) {
            // no line is being read right now: the next prompt draws it
        }
    }

    private boolean redraw() {
        if (!live) return true;
        if (reader instanceof LineReaderImpl impl) {
            impl.setPrompt(prompt(currentBase == null ? basePrompt : currentBase));
        }
        reader.callWidget(LineReader.REDISPLAY);
        return true;
    }

    /** JLine expands '%' in prompts. */
    private static String escape(String s) {
        return s.replace("%", "%%");
    }

    /** Takes the live region and the status line away, so leaving leaves a clean prompt line behind. */
    @Override
    public void close() {
        liveLines = List.of();
        statusLines = List.of();
    }
}

package dev.hmpagent.repl;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.jline.utils.AttributedString;

/** A screen that keeps what was printed above the prompt and the live region and status line as last drawn. */
final class RecordingScreen implements Screen {
    private final int width;
    final List<String> above = new CopyOnWriteArrayList<>();
    /** The answers among {@link #above}: what a pipe prints on stdout. */
    final List<String> answers = new CopyOnWriteArrayList<>();
    /** {@link #above} with its styles. */
    final List<AttributedString> styledAbove = new CopyOnWriteArrayList<>();
    volatile List<String> live = List.of();
    volatile List<String> status = List.of();
    private final boolean hasLive;
    private final boolean styled;

    RecordingScreen(boolean hasLive) {
        this(hasLive, 60);
    }

    RecordingScreen(boolean hasLive, int width) {
        this(hasLive, width, false);
    }

    /** @param styled whether styles reach the person (colour on) */
    RecordingScreen(boolean hasLive, int width, boolean styled) {
        this.hasLive = hasLive;
        this.width = width;
        this.styled = styled;
    }

    @Override
    public void above(AttributedString line) {
        above.add(line.toString());
        styledAbove.add(line);
    }

    @Override
    public boolean styled() {
        return styled;
    }

    @Override
    public void answer(AttributedString line) {
        answers.add(line.toString());
        above(line);
    }

    @Override
    public void live(List<AttributedString> lines) {
        live = plain(lines);
    }

    @Override
    public void status(List<AttributedString> lines) {
        status = plain(lines);
    }

    @Override
    public boolean hasLiveRegion() {
        return hasLive;
    }

    @Override
    public int width() {
        return width;
    }

    private static List<String> plain(List<AttributedString> lines) {
        List<String> out = new ArrayList<>();
        lines.forEach(l -> out.add(l.toString()));
        return List.copyOf(out);
    }
}

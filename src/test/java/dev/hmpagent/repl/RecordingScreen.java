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
    volatile List<String> live = List.of();
    volatile List<String> status = List.of();
    private final boolean hasLive;

    RecordingScreen(boolean hasLive) {
        this(hasLive, 60);
    }

    RecordingScreen(boolean hasLive, int width) {
        this.hasLive = hasLive;
        this.width = width;
    }

    @Override
    public void above(AttributedString line) {
        above.add(line.toString());
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

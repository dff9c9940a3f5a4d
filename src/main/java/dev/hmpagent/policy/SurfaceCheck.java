package dev.hmpagent.policy;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/** Whether one simple command touches the control surface: runs a control program or names one of its files. */
final class SurfaceCheck {
    private final ControlSurface controlSurface;
    private final Path home;

    SurfaceCheck(ControlSurface controlSurface, Path home) {
        this.controlSurface = Objects.requireNonNull(controlSurface, "controlSurface");
        this.home = Objects.requireNonNull(home, "home");
    }

    /** What makes the part touch the control surface ("runs sqlite3", "names agent.db"), if anything. */
    Optional<String> touches(ShellCommand part, Path workingDir, List<Path> exempt) {
        if (ControlSurface.isControlProgram(part.programName())) {
            return Optional.of("runs " + part.programName());
        }
        List<String> all = Stream.of(part.assignments(), part.words(), part.redirects())
                .flatMap(List::stream).toList();
        for (String word : all) {
            Optional<String> name = controlSurface.nameIn(word);
            if (name.isPresent()) {
                return Optional.of("names " + name.get());
            }
        }
        for (String word : all) {
            Optional<String> file = namedFile(word, workingDir, exempt);
            if (file.isPresent()) {
                return file;
            }
        }
        return Optional.empty();
    }

    private Optional<String> namedFile(String word, Path workingDir, List<Path> exempt) {
        for (String candidate : pathsIn(word)) {
            if (resolve(candidate, workingDir).filter(p -> exempt.contains(Canonical.of(p).path())).isPresent()) {
                continue;
            }
            Optional<Path> file = resolve(candidate, workingDir).flatMap(controlSurface::covering);
            if (file.isPresent()) {
                return Optional.of("names " + file.get() + " (as " + ShellPolicy.clip(candidate) + ")");
            }
        }
        return Optional.empty();
    }

    /** The word and, for {@code --db=path} or {@code X=path}, what follows the first {@code =}. */
    static List<String> pathsIn(String word) {
        List<String> out = new ArrayList<>();
        if (!word.isEmpty() && !word.startsWith("-")) {
            out.add(word);
        }
        int eq = word.indexOf('=');
        if (eq >= 0 && eq + 1 < word.length()) {
            out.add(word.substring(eq + 1));
        }
        return out;
    }

    private Optional<Path> resolve(String word, Path workingDir) {
        try {
            if (word.equals("~")) {
                return Optional.of(home);
            }
            if (word.startsWith("~/")) {
                return Optional.of(home.resolve(word.substring(2)));
            }
            return Optional.of(workingDir.resolve(word));
        } catch (InvalidPathException e) {
            return Optional.empty();
        }
    }
}

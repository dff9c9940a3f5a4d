package dev.hmpagent.policy;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/** Whether one simple command touches the control surface: runs a control program or names one of its files. */
final class SurfaceCheck {
    /** Programs that only read the files they name (none has an option that writes one). */
    private static final Set<String> READERS = Set.of("cat", "head", "tail", "grep", "egrep", "fgrep", "wc", "diff",
            "cmp", "ls", "stat", "nl", "md5sum", "sha1sum", "sha256sum");

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

    /**
     * What makes the part a possible write to a file a person must approve writes to (AGENTS.md), if anything: a
     * redirection naming it, or, for a program not known to only read, a word naming it or one only known when it
     * runs that could. {@code cat AGENTS.md} and {@code grep x AGENTS.md} stay allowed.
     */
    Optional<String> mayWriteAsked(ShellCommand part, Path workingDir) {
        if (controlSurface.askedBeforeWrites().isEmpty()) return Optional.empty();
        boolean reader = READERS.contains(part.programName());
        List<String> named = reader ? part.redirects() : Stream.of(part.assignments(), part.words(), part.redirects())
                .flatMap(List::stream).toList();
        for (String word : named) {
            Optional<String> file = controlSurface.askedNameIn(word).or(() -> askedFile(word, workingDir));
            if (file.isPresent()) return Optional.of("may write " + file.get());
        }
        if (reader) return Optional.empty();
        return part.wildcards().stream().map(controlSurface::couldNameAsked).flatMap(Optional::stream).findFirst()
                .map(file -> "has a word only known when it runs (a glob, $…, or names from xargs/find) that could"
                        + " name " + file);
    }

    private Optional<String> askedFile(String word, Path workingDir) {
        return pathsIn(word).stream().map(candidate -> resolve(candidate, workingDir)
                .flatMap(controlSurface::askedFor)).flatMap(Optional::stream).findFirst().map(Path::toString);
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

package dev.hmpagent.policy;

import dev.hmpagent.store.HaltFlag;
import dev.hmpagent.store.NoteSpool;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/**
 * The files and programs that control the agent, which the LLM may never touch whatever the rules
 * say (DESIGN.md, "The control surface is not the LLM's"): the database and its {@code -wal},
 * {@code -shm}, {@code -journal}, halt flag and inbox spool, the config files, the history file, the
 * scripts folder, and the programs {@code agent} and {@code sqlite3}. One list, built once: the text
 * policy refuses commands that name them, and the sandbox never lets a confined process see them.
 */
public final class ControlSurface {
    /** Program names denied as the program of any part, compared without case. */
    public static final Set<String> PROGRAMS = Set.of("agent", "sqlite3");

    private final List<Path> paths;
    private final List<Path> folders;
    private final Set<String> names;
    /** Files the LLM may read but may write only with a person's yes (AGENTS.md), absolute and normalised. */
    private final List<Path> asked;
    /** Whether every command runs in a sandbox that shows none of this surface ({@link #guardedBySandbox}). */
    private final boolean sandboxed;

    /** @param protectedPaths every file to protect, as given (relative ones resolve against the working directory) */
    public ControlSurface(List<Path> protectedPaths) {
        this(protectedPaths, List.of());
    }

    /**
     * @param protectedPaths   every file to protect, as given (relative ones resolve against the working directory)
     * @param protectedFolders folders protected with everything in them (the scripts folder)
     */
    public ControlSurface(List<Path> protectedPaths, List<Path> protectedFolders) {
        this(protectedPaths, protectedFolders, List.of());
    }

    private ControlSurface(List<Path> protectedPaths, List<Path> protectedFolders, List<Path> askedPaths) {
        this(protectedPaths, protectedFolders, askedPaths, false);
    }

    private ControlSurface(List<Path> protectedPaths, List<Path> protectedFolders, List<Path> askedPaths,
                           boolean sandboxed) {
        this.sandboxed = sandboxed;
        this.asked = Objects.requireNonNull(askedPaths, "askedPaths").stream()
                .map(p -> p.toAbsolutePath().normalize()).distinct().toList();
        this.folders = Objects.requireNonNull(protectedFolders, "protectedFolders").stream()
                .map(p -> p.toAbsolutePath().normalize()).distinct().toList();
        Set<Path> absolute = new LinkedHashSet<>();
        Set<String> fileNames = new LinkedHashSet<>();
        for (Path p : Objects.requireNonNull(protectedPaths, "protectedPaths")) {
            Path abs = p.toAbsolutePath().normalize();
            absolute.add(abs);
            if (abs.getFileName() != null) {
                fileNames.add(abs.getFileName().toString().toLowerCase(Locale.ROOT));
            }
        }
        this.paths = List.copyOf(absolute);
        this.names = Set.copyOf(fileNames);
    }

    /**
     * The agent's own control surface: {@code db} with {@code -wal}, {@code -shm}, {@code -journal}, its
     * halt flag, its inbox spool and the REPL's history file, plus {@code others} (the config files that exist or may, the history file).
     */
    public static ControlSurface forDatabase(Path db, List<Path> others) {
        return forDatabase(db, List.of(), others);
    }

    /** As {@link #forDatabase(Path, List)}, with {@code folders} (the scripts folder) protected whole. */
    public static ControlSurface forDatabase(Path db, List<Path> folders, List<Path> others) {
        Path abs = Objects.requireNonNull(db, "db").toAbsolutePath();
        List<Path> all = new ArrayList<>(List.of(abs, Path.of(abs + "-wal"), Path.of(abs + "-shm"),
                Path.of(abs + "-journal"), new HaltFlag(abs).file(), NoteSpool.fileFor(abs),
                abs.resolveSibling(abs.getFileName() + ".history")));
        all.addAll(others);
        return new ControlSurface(all, folders);
    }

    /**
     * This surface, and {@code files} (the person's standing instructions, AGENTS.md) that the LLM may read but not
     * write unless a person says yes: a file_write or a shell command that may write one is asked, and refused when
     * nobody can answer.
     */
    public ControlSurface askingBeforeWrites(List<Path> files) {
        return new ControlSurface(paths, folders, files);
    }

    /** The files a write to is asked of a person, absolute and normalised, whether they exist or not. */
    public List<Path> askedBeforeWrites() {
        return asked;
    }

    /**
     * This surface as a shell policy sees it when every command runs in a sandbox: the sandbox binds each asked file
     * that exists read-only (so no program, however it names the file, can write it), a command that makes one that
     * did not exist has it moved aside when it ends ({@code ShellCommands}), and the rest of the surface is never
     * mounted, so a word only known when the command runs ({@code echo rc=$?}, {@code $f}, a glob) is not held against
     * any of it. A word that names an asked file is still refused, with the reason, as a first filter.
     */
    public ControlSurface guardedBySandbox() {
        return new ControlSurface(paths, folders, asked, true);
    }

    /** The asked files a word only known when the command runs must be held against (none under a sandbox). */
    List<Path> askedUnguarded() {
        return sandboxed ? List.of() : asked;
    }

    /** The protected files, absolute and normalised, whether they exist or not. */
    public List<Path> paths() {
        return paths;
    }

    /** The protected folders, absolute and normalised, whether they exist or not. */
    public List<Path> folders() {
        return folders;
    }

    static boolean isControlProgram(String programName) {
        return PROGRAMS.contains(programName.toLowerCase(Locale.ROOT));
    }

    /** The protected file name {@code word} contains, ignoring case ({@code --db=Agent.DB} names agent.db). */
    Optional<String> nameIn(String word) {
        String lower = word.toLowerCase(Locale.ROOT);
        if (PROCESS_SECRETS.matcher(lower).find()) return Optional.of(PROCESS_SECRETS_NAME);
        return names.stream().filter(lower::contains).findFirst();
    }

    /** The name of a file asked before writes that {@code word} contains, ignoring case ({@code agents.MD}). */
    Optional<String> askedNameIn(String word) {
        String lower = word.toLowerCase(Locale.ROOT);
        return asked.stream().map(p -> String.valueOf(p.getFileName()))
                .filter(name -> lower.contains(name.toLowerCase(Locale.ROOT))).findFirst();
    }

    /** The file asked before writes that {@code path} is, canonicalised, or a hard link to. */
    Optional<Path> askedFor(Path path) {
        return sameFile(asked, Canonical.of(path.toAbsolutePath()));
    }

    /**
     * A process's environment and memory ({@code /proc/<pid>/environ}, {@code mem}): the agent's own hold its API
     * key, and its children are started with a scrubbed environment, so reading the parent's would undo that.
     */
    private static final Pattern PROCESS_SECRETS = Pattern.compile("/proc/[^/]*/+(task/[^/]*/+)?(environ|mem)\\b");
    private static final String PROCESS_SECRETS_NAME = "/proc/<pid>/environ (the agent's environment holds its API key)";
    private static final List<String> PROCESS_SECRET_SAMPLES = List.of("/proc/self/environ", "/proc/1/environ",
            "/proc/12345/environ", "/proc/self/mem", "/proc/12345/mem");

    /**
     * The protected file {@code path} is, after both are canonicalised (symbolic links, {@code ..}), or a
     * hard link to (same file key); or the protected folder it is (or is inside).
     */
    Optional<Path> covering(Path path) {
        Canonical target = Canonical.of(path.toAbsolutePath());
        for (Path folder : folders) {
            if (target.path().startsWith(Canonical.of(folder).path()) || target.path().startsWith(folder)) {
                return Optional.of(folder);
            }
        }
        return sameFile(paths, target);
    }

    /** The file of {@code among} that {@code target} is, canonicalised, or a hard link to (same file key). */
    private static Optional<Path> sameFile(List<Path> among, Canonical target) {
        Optional<Object> targetKey = target.exists() ? fileKey(target.path()) : Optional.empty();
        for (Path p : among) {
            Canonical c = Canonical.of(p);
            if (c.path().equals(target.path()) || p.equals(target.path())) {
                return Optional.of(p);
            }
            if (targetKey.isPresent() && c.exists() && targetKey.equals(fileKey(c.path()))) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /**
     * A protected file a word only known when the shell runs could name: {@code regex} (a glob or an
     * expansion, see {@link ShellCommand#wildcards()}) is tried on each protected file's name, its
     * absolute path and the tails of it, and {@code ./} and {@code ../} forms.
     */
    Optional<String> couldBeNamedBy(String regex) {
        if (sandboxed) return Optional.empty();
        Optional<Pattern> pattern = pattern(regex);
        if (pattern.isEmpty()) return paths.stream().map(p -> String.valueOf(p.getFileName())).findFirst();
        return namedBy(paths, pattern.get()).or(() -> PROCESS_SECRET_SAMPLES.stream()
                .filter(sample -> pattern.get().matcher(sample).matches()).map(sample -> PROCESS_SECRETS_NAME)
                .findFirst());
    }

    /** A file asked before writes that a word only known when the shell runs could name (as {@link #couldBeNamedBy}). */
    Optional<String> couldNameAsked(String regex) {
        Optional<Pattern> pattern = pattern(regex);
        List<Path> unguarded = askedUnguarded();
        if (pattern.isEmpty()) return unguarded.stream().map(p -> String.valueOf(p.getFileName())).findFirst();
        return namedBy(unguarded, pattern.get());
    }

    private static Optional<Pattern> pattern(String regex) {
        try {
            return Optional.of(Pattern.compile(regex, Pattern.CASE_INSENSITIVE | Pattern.DOTALL));
        } catch (PatternSyntaxException e) {
            return Optional.empty();
        }
    }

    private static Optional<String> namedBy(List<Path> among, Pattern pattern) {
        for (Path p : among) {
            for (String candidate : candidates(p)) {
                if (pattern.matcher(candidate).matches()) {
                    return Optional.of(String.valueOf(p.getFileName()));
                }
            }
        }
        return Optional.empty();
    }

    private static List<String> candidates(Path p) {
        List<String> out = new ArrayList<>();
        String name = String.valueOf(p.getFileName());
        out.add(name);
        out.add("./" + name);
        out.add("../" + name);
        out.add("../../" + name);
        for (int i = 0; i < p.getNameCount(); i++) {
            out.add(p.subpath(i, p.getNameCount()).toString());
        }
        out.add(p.toString());
        return out;
    }

    /** Device and inode where the platform has them; empty when it has not or the file is gone. */
    static Optional<Object> fileKey(Path path) {
        try {
            return Optional.ofNullable(
                    Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS).fileKey());
        } catch (IOException e) {
            return Optional.empty();
        }
    }
}

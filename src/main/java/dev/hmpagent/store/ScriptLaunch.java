package dev.hmpagent.store;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.regex.Pattern;

/**
 * How an agent script runs: its code written to a file under a scripts folder, and the command line that starts
 * that file with its interpreter ({@code python3 <file> args…}, {@code sh <file>}, {@code bash <file>}). The command
 * line then goes through the shell policy and the process runner like any {@code shell} command; nothing here runs it.
 */
public record ScriptLaunch(Path file, List<String> argv) {
    private static final Map<String, String> INTERPRETERS = Map.of("python", "python3", "sh", "sh", "bash", "bash");
    private static final Map<String, String> EXTENSIONS = Map.of("python", ".py", "sh", ".sh", "bash", ".sh");
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9_./=:,+@%-]+");

    public ScriptLaunch {
        Objects.requireNonNull(file, "file");
        argv = List.copyOf(argv);
    }

    /**
     * Writes the script's code to {@code <scriptsDir>/<name>-<version>.<ext>} (replacing a stale copy, so the file
     * always matches the database) and returns how to start it with {@code args}.
     *
     * @throws UncheckedIOException when the folder or the file cannot be written
     */
    public static ScriptLaunch prepare(ScriptRow script, Path scriptsDir, List<String> args) {
        ScriptsDao.check(script.name(), script.version(), script.language(), script.code());
        Path dir = scriptsDir.toAbsolutePath().normalize();
        Path file = dir.resolve(script.name() + "-" + script.version() + EXTENSIONS.get(script.language()));
        try {
            Files.createDirectories(dir);
            Path tmp = Files.createTempFile(dir, "." + script.name() + "-", ".tmp");
            Files.writeString(tmp, script.code(), StandardCharsets.UTF_8);
            try {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write script " + script.name() + " to " + dir, e);
        }
        List<String> argv = new ArrayList<>();
        argv.add(INTERPRETERS.get(script.language()));
        argv.add(file.toString());
        argv.addAll(args);
        return new ScriptLaunch(file, argv);
    }

    /** The argv as one POSIX shell line: every word that is not plain is single-quoted. */
    public String commandLine() {
        List<String> words = new ArrayList<>();
        for (String word : argv) words.add(quote(word));
        return String.join(" ", words);
    }

    static String quote(String word) {
        if (!word.isEmpty() && PLAIN.matcher(word).matches()) return word;
        return "'" + word.replace("'", "'\\''") + "'";
    }
}

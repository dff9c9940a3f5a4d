package dev.hmpagent.process;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Turns one {@link ProcessSpec} into the argv of the process the {@link ProcessRunner} starts, and tidies up after
 * it: {@code /bin/sh -c} as it is ({@link #plain}), or inside an OS sandbox ({@link Sandbox}).
 */
public interface Launcher {

    /** The argv that runs {@code spec}'s command line (the runner gives it the environment and working directory). */
    List<String> argv(ProcessSpec spec);

    /** After the process of {@code spec} and its tree are gone (or it failed to start): release what argv made. */
    default void ended(ProcessSpec spec) {
    }

    /**
     * What an exit with {@code code} and {@code output} means: the command's output without the launcher's own lines,
     * how many processes the command left running as the launcher counted them inside (empty: the runner counts what
     * it has to kill), and, when the launcher itself failed before the command ran, one line saying what broke.
     */
    default Exit exited(int code, String output) {
        return new Exit(output, OptionalInt.empty(), Optional.empty());
    }

    /** The output of a command that did not exit by itself (a timeout, a stop), without the launcher's own lines. */
    default String shown(String output) {
        return output;
    }

    /**
     * Whether the launcher confines the command (a sandbox): then a failure to start it is the confinement's, not
     * the command's.
     */
    default boolean confines() {
        return false;
    }

    /** What an exit means; {@code failedBefore} present: the command never ran, the launcher broke. */
    record Exit(String output, OptionalInt leftovers, Optional<String> failedBefore) {
        public Exit {
            Objects.requireNonNull(output, "output");
            Objects.requireNonNull(leftovers, "leftovers");
            Objects.requireNonNull(failedBefore, "failedBefore");
        }
    }

    /** The pid a person can use for the process the runner started, as {@code process_list} shows it. */
    default String pidNote() {
        return "";
    }

    /** {@code /bin/sh -c command}, nothing more. */
    Launcher UNCONFINED = spec -> List.of(ProcessRunner.SHELL, "-c", spec.command());

    /**
     * {@code /bin/sh -c command} with the largest file it may write capped through {@code prlimit} (when the machine
     * has it): the fallback when no sandbox is in force. A process of root may raise its own limit again.
     */
    static Launcher plain(long maxFileBytes, Optional<Path> prlimit) {
        Objects.requireNonNull(prlimit, "prlimit");
        if (prlimit.isEmpty()) return UNCONFINED;
        String fsize = "--fsize=" + maxFileBytes;
        return spec -> {
            List<String> argv = new ArrayList<>(List.of(prlimit.get().toString(), fsize, "--"));
            argv.addAll(UNCONFINED.argv(spec));
            return argv;
        };
    }
}

package dev.hmpagent.config;

import java.util.Locale;
import java.util.Objects;

/**
 * The [sandbox] section: how the processes the LLM starts ({@code shell}, {@code script_run}) are confined by the
 * operating system.
 *
 * @param mode         {@link Mode#AUTO}: bubblewrap where it works, else the text policy's fallback, said at start;
 *                     {@link Mode#REQUIRED}: no process without it; {@link Mode#OFF}: the fallback, chosen
 * @param network      whether a confined process may use the network
 * @param maxFileBytes the largest file one command may write (RLIMIT_FSIZE)
 * @param maxProcesses the most processes one confined command may have at once
 * @param taskMaxBytes what the commands of one task may add to the file roots, in bytes
 * @param taskMaxFiles what the commands of one task may add to the file roots, in files and folders
 */
public record SandboxSection(Mode mode, boolean network, long maxFileBytes, int maxProcesses, long taskMaxBytes,
                             long taskMaxFiles) {
    /** The default {@code sandbox.max_file_bytes}: 64 MiB. */
    public static final long DEFAULT_MAX_FILE_BYTES = 64L * 1024 * 1024;
    /** The default {@code sandbox.max_processes}. */
    public static final int DEFAULT_MAX_PROCESSES = 128;
    /** The default {@code sandbox.task_max_bytes}: 4 GiB. */
    public static final long DEFAULT_TASK_MAX_BYTES = 4L * 1024 * 1024 * 1024;
    /** The default {@code sandbox.task_max_files}. */
    public static final long DEFAULT_TASK_MAX_FILES = 200_000;

    public SandboxSection {
        Objects.requireNonNull(mode, "mode");
        if (maxFileBytes < 1) throw new IllegalArgumentException("maxFileBytes must be positive, was " + maxFileBytes);
        if (maxProcesses < 1) throw new IllegalArgumentException("maxProcesses must be positive, was " + maxProcesses);
        if (taskMaxBytes < 1 || taskMaxFiles < 1) throw new IllegalArgumentException("task quotas must be positive");
    }

    /** With the default quotas of a task. */
    public SandboxSection(Mode mode, boolean network, long maxFileBytes, int maxProcesses) {
        this(mode, network, maxFileBytes, maxProcesses, DEFAULT_TASK_MAX_BYTES, DEFAULT_TASK_MAX_FILES);
    }

    /** The defaults: auto, no network, 64 MiB, 128 processes, 4 GiB and 200,000 files a task. */
    public static SandboxSection defaults() {
        return new SandboxSection(Mode.AUTO, false, DEFAULT_MAX_FILE_BYTES, DEFAULT_MAX_PROCESSES);
    }

    /** {@code sandbox.mode}. */
    public enum Mode {
        AUTO, REQUIRED, OFF;

        public String configName() {
            return name().toLowerCase(Locale.ROOT);
        }

        public static Mode fromConfigName(String name) {
            return valueOf(name.toUpperCase(Locale.ROOT));
        }
    }
}

package dev.hmpagent.process;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * What the commands of one task may add to the file roots: bytes and files (files and folders), counted as the roots'
 * growth since the task's first command, by a walk of the roots that follows no link. A command is refused once the
 * task is over either ({@link #over}), and while commands run, a meter ({@link #meter}) walks the roots every second
 * or so and stops them all the moment the task goes over, so one command cannot fill the disk either. Deleting what
 * the task made brings it back under; a new task (a person's next message) starts from what is there then.
 */
public final class WriteQuota {
    /** How the meter's stop begins, so a stopped command's row can say which limit stopped it. */
    public static final String STOPPED = "stopped over the task's write quota: ";

    /** What the roots hold: the bytes of their files, and their files and folders. */
    public record Usage(long bytes, long files) { }

    private final List<Path> roots;
    private final long maxBytes;
    private final long maxFiles;
    /** The task the baseline belongs to (its start, as the safety counters say), and the roots then. */
    private String task;
    private Usage baseline;
    private static final long CHEAP_WALK_MS = 50;
    private volatile long lastWalkNanos;
    private volatile long lastWalkAt;
    private volatile Usage lastUsage;
    private Thread meter;

    /** No quota: nothing is walked, nothing refused (for code that builds the commands by hand). */
    public static WriteQuota unlimited() {
        return new WriteQuota(List.of(), Long.MAX_VALUE, Long.MAX_VALUE);
    }

    public WriteQuota(List<Path> roots, long maxBytes, long maxFiles) {
        this.roots = Objects.requireNonNull(roots, "roots").stream().distinct().toList();
        if (maxBytes < 1 || maxFiles < 1) throw new IllegalArgumentException("quotas must be positive");
        this.maxBytes = maxBytes;
        this.maxFiles = maxFiles;
    }

    /**
     * Before a command of {@code task} (any text that changes when a new task starts; null before the first): one
     * line saying why it is refused when the task has already added more than it may, else empty. The first call
     * of a task takes its baseline.
     */
    public Optional<String> over(String task) {
        if (limitless()) return Optional.empty();
        synchronized (this) {
            if (baseline == null || !Objects.equals(task, this.task)) {
                this.task = task;
                baseline = measure();
                return Optional.empty();
            }
        }
        Usage now = recent();
        synchronized (this) {
            return overBy(now);
        }
    }

    /**
     * What the roots hold: walked again, unless the roots are so big that a walk takes over {@value #CHEAP_WALK_MS}
     * ms, when the last walk serves for ten times as long as it took (the meter keeps walking while commands run).
     */
    private Usage recent() {
        Usage last = lastUsage;
        long took = lastWalkNanos;
        if (last != null && took > TimeUnit.MILLISECONDS.toNanos(CHEAP_WALK_MS)
                && System.nanoTime() - lastWalkAt < 10 * took) {
            return last;
        }
        return measure();
    }

    /**
     * Starts, once, the meter that stops every command of {@code runner} when the task goes over while they run
     * (each stopped with the line {@link #over} would give). It walks only while a command runs, at most every
     * second, and never more than a tenth of the time.
     */
    public synchronized void meter(ProcessRunner runner) {
        Objects.requireNonNull(runner, "runner");
        if (meter != null || limitless()) return;
        meter = new Thread(() -> {
            while (!Thread.currentThread().isInterrupted()) {
                LockSupport.parkNanos(Math.max(TimeUnit.SECONDS.toNanos(1), 10 * lastWalkNanos));
                if (runner.running().isEmpty()) continue;
                Optional<String> over;
                Usage now = measure();
                synchronized (this) {
                    over = baseline == null ? Optional.empty() : overBy(now);
                }
                over.ifPresent(line -> runner.stopAll(STOPPED + line));
            }
        }, "hmp-write-quota");
        meter.setDaemon(true);
        meter.start();
    }

    private boolean limitless() {
        return maxBytes == Long.MAX_VALUE && maxFiles == Long.MAX_VALUE;
    }

    private Optional<String> overBy(Usage now) {
        long bytes = now.bytes() - baseline.bytes();
        long files = now.files() - baseline.files();
        if (bytes <= maxBytes && files <= maxFiles) return Optional.empty();
        String which = bytes > maxBytes ? "sandbox.task_max_bytes (" + size(maxBytes) + ")"
                : "sandbox.task_max_files (" + String.format(Locale.ROOT, "%,d", maxFiles) + ")";
        return Optional.of("this task's commands have added " + size(Math.max(0, bytes)) + " and "
                + String.format(Locale.ROOT, "%,d", Math.max(0, files)) + " files to the file roots, over " + which
                + ": delete what it made that is not needed, or a person's next message starts a new task (a person"
                + " may raise " + (bytes > maxBytes ? "sandbox.task_max_bytes" : "sandbox.task_max_files")
                + " in agent.toml)");
    }

    /** {@code 1,200 bytes}, {@code 3.4 MiB}, {@code 4.0 GiB}. */
    static String size(long n) {
        if (n < 1024 * 1024) return String.format(Locale.ROOT, "%,d bytes", n);
        if (n < 1024L * 1024 * 1024) return String.format(Locale.ROOT, "%.1f MiB", n / (1024.0 * 1024));
        return String.format(Locale.ROOT, "%.1f GiB", n / (1024.0 * 1024 * 1024));
    }

    /** What the roots hold now (a root inside another is counted once). */
    Usage measure() {
        long start = System.nanoTime();
        long[] total = new long[2];
        for (Path root : roots) {
            if (roots.stream().anyMatch(other -> !other.equals(root) && root.startsWith(other))) continue;
            try {
                Files.walkFileTree(root, new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attrs) {
                        total[1]++;
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) {
                        total[0] += attrs.isRegularFile() ? attrs.size() : 0;
                        total[1]++;
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(Path file, IOException e) {
                        return FileVisitResult.CONTINUE;   // gone while walking, or unreadable: not counted
                    }
                });
            } catch (IOException e) {
                // a root that is not there counts as empty
            }
        }
        Usage usage = new Usage(total[0], total[1]);
        lastWalkAt = System.nanoTime();
        lastWalkNanos = lastWalkAt - start;
        lastUsage = usage;
        return usage;
    }
}

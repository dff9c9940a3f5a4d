package dev.hmpagent.store;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.jar.JarEntry;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.LibraryLoaderUtil;

/**
 * Gives sqlite-jdbc its native library from a stable per-user cache instead of the system temp dir.
 *
 * <p>By default sqlite-jdbc, on the first connection of every JVM, copies the library (≈ 1.1 MB) into
 * {@code java.io.tmpdir} under a fresh name and first "cleans up" that directory, deleting other
 * processes' copies; under many concurrent {@code agent note} processes two of them race to delete the
 * same file and the loser logs a 43-line stack trace. Its cleanup runs even when {@code org.sqlite.lib.path}
 * is set, in the directory named by {@code org.sqlite.tmpdir}.
 *
 * <p>{@link #install(Path)} therefore copies the library once into {@code <cacheRoot>/sqlite-<version>/}
 * (written to a temporary file in that directory, then renamed atomically, so a process never sees half
 * a file; when processes race the last rename wins and every copy is identical), checks an existing copy
 * against the size and CRC-32 the jar records for it (cheap: no decompression, no cryptographic hash), loads
 * it, and sets {@code org.sqlite.lib.path}, {@code org.sqlite.lib.name} and {@code org.sqlite.tmpdir} so
 * that sqlite-jdbc loads that file and its cleanup looks only in that directory, where nothing matches.
 * Call it before the first connection. When anything fails (no home, a read-only or noexec cache, a
 * platform without a bundled library, properties already set by the user) it changes nothing and
 * sqlite-jdbc behaves as it always did.
 *
 * <p>Which of the bundled libraries fits this machine is worked out once and remembered beside the copy
 * ({@code <os.name>-<os.arch>.resource}): sqlite-jdbc's own detection reads every entry of
 * {@code /proc/self/map_files} and runs {@code uname -o}: 55 ms of a start on the (busy) development machine.
 * A remembered library that cannot be loaded here (a home shared with a musl machine of the same architecture)
 * fails like any other failure above, and sqlite-jdbc finds its own.
 *
 * <p>The only state is the three system properties, which are sqlite-jdbc's own interface; installing
 * twice is harmless.
 */
public final class NativeSqlite {
    static final String LIB_PATH = "org.sqlite.lib.path";
    static final String LIB_NAME = "org.sqlite.lib.name";
    static final String TMPDIR = "org.sqlite.tmpdir";

    /** The bundled library for this platform: where it lives in the jar and what it must look like. */
    record Bundled(String resource, String fileName, String version, long size, long crc) { }

    private NativeSqlite() { }

    /** {@code $XDG_CACHE_HOME/hmp-agent}, else {@code <home>/.cache/hmp-agent}. */
    public static Optional<Path> defaultCacheRoot(Map<String, String> env, String userHome) {
        String xdg = env.get("XDG_CACHE_HOME");
        if (xdg != null && !xdg.isBlank() && Path.of(xdg).isAbsolute()) return Optional.of(Path.of(xdg, "hmp-agent"));
        if (userHome == null || userHome.isBlank() || userHome.equals("?")) return Optional.empty();
        return Optional.of(Path.of(userHome, ".cache", "hmp-agent"));
    }

    /** {@link #install(Path)} into {@link #defaultCacheRoot}; for {@code Main}, before anything opens a Store. */
    public static Optional<Path> install() {
        return defaultCacheRoot(System.getenv(), System.getProperty("user.home")).flatMap(NativeSqlite::install);
    }

    /**
     * Makes sqlite-jdbc load its library from {@code cacheRoot}, extracting it there first if needed.
     *
     * @return the library file sqlite-jdbc will load, or empty when it fell back to sqlite-jdbc's default
     */
    public static Optional<Path> install(Path cacheRoot) {
        Objects.requireNonNull(cacheRoot, "cacheRoot");
        if (System.getProperty(LIB_PATH) != null || System.getProperty(LIB_NAME) != null) return Optional.empty();
        try {
            Path dir = cacheRoot.toAbsolutePath().resolve("sqlite-" + SQLiteJDBCLoader.getVersion());
            Optional<Bundled> remembered = remembered(dir);
            Optional<Bundled> bundled = remembered.isPresent() ? remembered : bundled();
            if (bundled.isEmpty()) return Optional.empty();
            Path lib = extract(dir, bundled.get());
            System.load(lib.toString()); // sqlite-jdbc's own System.load of the same file is then a no-op
            if (remembered.isEmpty()) remember(dir, bundled.get());
            System.setProperty(TMPDIR, dir.toString());
            System.setProperty(LIB_NAME, lib.getFileName().toString());
            System.setProperty(LIB_PATH, dir.toString());
            return Optional.of(lib);
        } catch (IOException | RuntimeException | LinkageError e) {
            // the documented promise: any failure leaves sqlite-jdbc's default behaviour in place
            return Optional.empty();
        }
    }

    /** The library sqlite-jdbc bundles for this OS and architecture, if it bundles one, found as sqlite-jdbc finds it. */
    static Optional<Bundled> bundled() throws IOException {
        return bundledAt(LibraryLoaderUtil.getNativeLibResourcePath() + "/" + LibraryLoaderUtil.getNativeLibName());
    }

    /** The library remembered in {@code dir} for this platform, if one is and the jar still bundles it. */
    static Optional<Bundled> remembered(Path dir) throws IOException {
        Path memo = memo(dir);
        if (!Files.isRegularFile(memo)) return Optional.empty();
        String resource = Files.readString(memo).strip();
        return resource.startsWith("/") ? bundledAt(resource) : Optional.empty();
    }

    /**
     * Remembers in {@code dir} that {@code bundled} is this platform's library, atomically (a reader sees all of it or
     * nothing). Best effort: when it cannot be written, the next start works it out again.
     */
    static void remember(Path dir, Bundled bundled) {
        try {
            Path tmp = Files.createTempFile(dir, ".platform.", ".tmp");
            try {
                Files.writeString(tmp, bundled.resource() + "\n");
                Files.move(tmp, memo(dir), StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } finally {
                Files.deleteIfExists(tmp);
            }
        } catch (IOException | RuntimeException e) {
            // the library is loaded already; only the shortcut for the next start is lost
        }
    }

    private static Path memo(Path dir) {
        String platform = System.getProperty("os.name") + "-" + System.getProperty("os.arch");
        return dir.resolve(platform.replaceAll("[^A-Za-z0-9._-]", "_") + ".resource");
    }

    /** The library at {@code resource} in sqlite-jdbc's jar, with its size and CRC-32; empty when the jar has none there. */
    static Optional<Bundled> bundledAt(String resource) throws IOException {
        String fileName = resource.substring(resource.lastIndexOf('/') + 1);
        URL url = SQLiteJDBCLoader.class.getResource(resource);
        if (url == null) return Optional.empty();
        URLConnection connection = url.openConnection();
        if (connection instanceof JarURLConnection jar) {
            JarEntry entry = jar.getJarEntry();
            if (entry.getSize() >= 0 && entry.getCrc() >= 0) {
                return Optional.of(new Bundled(resource, fileName, SQLiteJDBCLoader.getVersion(), entry.getSize(),
                        entry.getCrc()));
            }
        }
        try (InputStream in = connection.getInputStream()) { // not in a jar (an exploded class path): measure it
            CRC32 crc = new CRC32();
            long size = 0;
            byte[] buffer = new byte[64 * 1024];
            for (int n; (n = in.read(buffer)) > 0; size += n) crc.update(buffer, 0, n);
            return Optional.of(new Bundled(resource, fileName, SQLiteJDBCLoader.getVersion(), size, crc.getValue()));
        }
    }

    /**
     * Ensures {@code dir/<fileName>} holds the bundled library, writing it only when it is missing or
     * differs; safe to run from several threads or processes at once.
     *
     * @return the verified library file
     * @throws IOException when the directory cannot be created or written, or the copy comes out wrong
     */
    static Path extract(Path dir, Bundled bundled) throws IOException {
        Path lib = dir.resolve(bundled.fileName());
        if (matches(lib, bundled)) return lib;
        createPrivateDirectories(dir);
        Path tmp = Files.createTempFile(dir, "." + bundled.fileName() + ".", ".tmp");
        try {
            long crc;
            try (InputStream raw = SQLiteJDBCLoader.class.getResourceAsStream(bundled.resource())) {
                if (raw == null) throw new IOException("resource vanished: " + bundled.resource());
                CheckedInputStream in = new CheckedInputStream(raw, new CRC32());
                try (OutputStream out = Files.newOutputStream(tmp)) {
                    in.transferTo(out);
                }
                crc = in.getChecksum().getValue();
            }
            if (crc != bundled.crc() || Files.size(tmp) != bundled.size()) {
                throw new IOException("the copy of " + bundled.resource() + " does not match the jar");
            }
            if (matches(lib, bundled)) return lib; // another process won the race meanwhile: use its file
            Files.move(tmp, lib, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            return lib;
        } finally {
            Files.deleteIfExists(tmp);
        }
    }

    /** Whether {@code lib} has the bundled library's size and CRC-32. */
    static boolean matches(Path lib, Bundled bundled) throws IOException {
        if (!Files.isRegularFile(lib) || Files.size(lib) != bundled.size()) return false;
        CRC32 crc = new CRC32();
        crc.update(Files.readAllBytes(lib));
        return crc.getValue() == bundled.crc();
    }

    private static void createPrivateDirectories(Path dir) throws IOException {
        if (Files.isDirectory(dir)) return;
        Path parent = dir.getParent();
        if (parent != null) createPrivateDirectories(parent);
        try {
            if (dir.getFileSystem().supportedFileAttributeViews().contains("posix")) {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectory(dir);
            }
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir)) throw e; // another process created it meanwhile: fine
        }
    }
}

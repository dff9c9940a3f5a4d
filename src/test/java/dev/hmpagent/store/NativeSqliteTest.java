package dev.hmpagent.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteJDBCLoader;

/**
 * The native library is extracted once into a per-user cache. In-process tests only extract (this JVM has
 * loaded sqlite-jdbc long ago); one child JVM shows the whole install and that the temp dir stays untouched.
 */
class NativeSqliteTest {
    @TempDir Path dir;

    @Test
    void extracting_twice_writes_the_file_once() throws Exception {
        NativeSqlite.Bundled bundled = NativeSqlite.bundled().orElseThrow();
        Path lib = NativeSqlite.extract(dir.resolve("sqlite-x"), bundled);
        Object firstFile = Files.readAttributes(lib, "unix:ino").get("ino");
        Path again = NativeSqlite.extract(dir.resolve("sqlite-x"), bundled);
        assertThat(again).isEqualTo(lib);
        assertThat(Files.readAttributes(again, "unix:ino").get("ino")).as("not rewritten").isEqualTo(firstFile);
        assertThat(Files.readAllBytes(lib)).isEqualTo(resourceBytes(bundled));
        assertThat(list(dir.resolve("sqlite-x"))).containsExactly(bundled.fileName());
    }

    @Test
    void a_damaged_copy_of_the_same_size_is_replaced() throws Exception {
        NativeSqlite.Bundled bundled = NativeSqlite.bundled().orElseThrow();
        Path lib = NativeSqlite.extract(dir.resolve("sqlite-x"), bundled);
        byte[] damaged = Files.readAllBytes(lib);
        damaged[damaged.length / 2] ^= 0x5a;
        Files.write(lib, damaged);
        assertThat(NativeSqlite.matches(lib, bundled)).isFalse();
        NativeSqlite.extract(dir.resolve("sqlite-x"), bundled);
        assertThat(Files.readAllBytes(lib)).isEqualTo(resourceBytes(bundled));
    }

    @Test
    void threads_extracting_at_once_leave_one_good_file_and_no_temporaries() throws Exception {
        NativeSqlite.Bundled bundled = NativeSqlite.bundled().orElseThrow();
        int n = 8;
        CountDownLatch start = new CountDownLatch(1);
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            List<Future<Path>> results = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                results.add(pool.submit(() -> {
                    start.await();
                    return NativeSqlite.extract(dir.resolve("cache/sqlite-x"), bundled);
                }));
            }
            start.countDown();
            for (Future<Path> f : results) assertThat(f.get(60, TimeUnit.SECONDS)).isEqualTo(dir.resolve("cache/sqlite-x/" + bundled.fileName()));
        } finally {
            pool.shutdownNow();
        }
        assertThat(list(dir.resolve("cache/sqlite-x"))).containsExactly(bundled.fileName());
        assertThat(Files.readAllBytes(dir.resolve("cache/sqlite-x/" + bundled.fileName()))).isEqualTo(resourceBytes(bundled));
    }

    @Test
    void the_platform_library_once_remembered_is_found_without_detection() throws Exception {
        Path cache = Files.createDirectories(dir.resolve("sqlite-x"));
        assertThat(NativeSqlite.remembered(cache)).isEmpty();
        NativeSqlite.Bundled detected = NativeSqlite.bundled().orElseThrow();
        NativeSqlite.remember(cache, detected);
        assertThat(NativeSqlite.remembered(cache)).contains(detected);
        assertThat(list(cache)).hasSize(1).allMatch(name -> name.endsWith(".resource"));   // no temporaries left
    }

    @Test
    void a_remembered_library_the_jar_does_not_bundle_is_ignored() throws Exception {
        Path cache = Files.createDirectories(dir.resolve("sqlite-x"));
        NativeSqlite.Bundled detected = NativeSqlite.bundled().orElseThrow();
        NativeSqlite.remember(cache, new NativeSqlite.Bundled("/org/sqlite/native/Plan9/mips/libsqlitejdbc.so",
                "libsqlitejdbc.so", detected.version(), 1, 1));
        assertThat(NativeSqlite.remembered(cache)).isEmpty();
    }

    @Test
    void an_unusable_cache_falls_back_silently_and_sets_nothing() throws Exception {
        Path notADirectory = Files.writeString(dir.resolve("file"), "x");
        assertThat(NativeSqlite.install(notADirectory.resolve("cache"))).isEmpty();
        assertThat(System.getProperty(NativeSqlite.LIB_PATH)).isNull();
        assertThat(System.getProperty(NativeSqlite.TMPDIR)).isNull();
    }

    @Test
    void the_cache_root_follows_xdg_then_home() {
        assertThat(NativeSqlite.defaultCacheRoot(Map.of("XDG_CACHE_HOME", "/c"), "/home/u")).contains(Path.of("/c/hmp-agent"));
        assertThat(NativeSqlite.defaultCacheRoot(Map.of("XDG_CACHE_HOME", "relative"), "/home/u"))
                .contains(Path.of("/home/u/.cache/hmp-agent"));
        assertThat(NativeSqlite.defaultCacheRoot(Map.of(), "/home/u")).contains(Path.of("/home/u/.cache/hmp-agent"));
        assertThat(NativeSqlite.defaultCacheRoot(Map.of(), "?")).isEmpty();
    }

    @Test
    void a_fresh_jvm_loads_the_cached_library_and_leaves_the_temp_dir_alone() throws Exception {
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        // another process's copy, as sqlite-jdbc names them; its default start-up deletes it
        String othersCopy = "sqlite-" + SQLiteJDBCLoader.getVersion() + "-0000-libsqlitejdbc.so";
        Files.writeString(tmp.resolve(othersCopy), "in use by another process");
        Path cache = dir.resolve("cache");
        for (int run = 0; run < 2; run++) {
            String out = runChild(dir, tmp, "cache", dir.resolve("agent.db")); // a relative root works too
            assertThat(out).contains("library=" + cache.resolve("sqlite-" + SQLiteJDBCLoader.getVersion()));
            assertThat(out).contains("notes=0");
            assertThat(out).contains("tmp=[" + othersCopy + "]");
            // sqlite-jdbc's platform detection (a scan of /proc/self/map_files and `uname -o`) runs at the first start only
            assertThat(out.contains("org.sqlite.util.OSInfo ")).as("detection at run " + run).isEqualTo(run == 0);
        }
        assertThat(list(cache.resolve("sqlite-" + SQLiteJDBCLoader.getVersion())))
                .containsExactlyInAnyOrder(NativeSqlite.bundled().orElseThrow().fileName(),
                        (System.getProperty("os.name") + "-" + System.getProperty("os.arch")).replaceAll("[^A-Za-z0-9._-]", "_")
                                + ".resource");
    }

    /**
     * Runs {@link NativeSqliteChild} in a new JVM in {@code cwd} whose temp dir is {@code tmp}; returns its output, with a
     * line for every class it loaded.
     */
    private static String runChild(Path cwd, Path tmp, String cache, Path db) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        String classPath = Stream.of(System.getProperty("java.class.path").split(File.pathSeparator))
                .map(entry -> Path.of(entry).toAbsolutePath().toString()).collect(Collectors.joining(File.pathSeparator));
        Process p = new ProcessBuilder(java.toString(), "-Djava.io.tmpdir=" + tmp, "-Xlog:class+load=info", "-cp", classPath,
                NativeSqliteChild.class.getName(), cache, db.toString())
                .directory(cwd.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(p.exitValue()).as(out).isZero();
        return out;
    }

    private static byte[] resourceBytes(NativeSqlite.Bundled bundled) throws Exception {
        try (InputStream in = SQLiteJDBCLoader.class.getResourceAsStream(bundled.resource())) {
            return in.readAllBytes();
        }
    }

    private static List<String> list(Path folder) throws Exception {
        try (Stream<Path> s = Files.list(folder)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }
}

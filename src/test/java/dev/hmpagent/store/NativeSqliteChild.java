package dev.hmpagent.store;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.util.stream.Stream;

/** Run by {@link NativeSqliteTest} in a fresh JVM: install, open a Store, say where the library came from and what the temp dir holds. */
public final class NativeSqliteChild {
    private NativeSqliteChild() { }

    public static void main(String[] args) throws IOException {
        NativeSqlite.install(Path.of(args[0]));
        try (Store store = Store.open(Path.of(args[1]), Clock.systemUTC())) {
            System.out.println("library=" + System.getProperty(NativeSqlite.LIB_PATH));
            System.out.println("notes=" + store.queryLong("SELECT count(*) FROM notes"));
            try (Stream<Path> tmp = Files.list(Path.of(System.getProperty("java.io.tmpdir")))) {
                System.out.println("tmp=" + tmp.map(f -> f.getFileName().toString()).sorted().toList());
            }
        }
    }
}

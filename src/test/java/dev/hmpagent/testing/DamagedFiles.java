package dev.hmpagent.testing;

import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

/** Makes a real damaged SQLite file: random bytes over the middle of the notes table's first leaf page (its oldest rows). */
public final class DamagedFiles {
    private DamagedFiles() { }

    /** Damages {@code db}, an agent file (closed, checkpointed) whose notes table spans many pages. */
    public static void damageNotes(Path db) throws Exception {
        long page;
        long pageSize;
        try (Connection c = DriverManager.getConnection("jdbc:sqlite:" + db); Statement st = c.createStatement()) {
            List<Long> leaves = new ArrayList<>();
            try (ResultSet rs = st.executeQuery(
                    "SELECT pageno FROM dbstat WHERE name = 'notes' AND pagetype = 'leaf' ORDER BY pageno")) {
                while (rs.next()) leaves.add(rs.getLong(1));
            }
            if (leaves.size() < 10) throw new IllegalStateException("fill the notes table first");
            page = leaves.get(0);
            try (ResultSet rs = st.executeQuery("PRAGMA page_size")) {
                rs.next();
                pageSize = rs.getLong(1);
            }
            st.execute("PRAGMA wal_checkpoint(TRUNCATE)");
        }
        byte[] junk = new byte[256];
        new Random(7).nextBytes(junk);
        try (FileChannel ch = FileChannel.open(db, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(junk), (page - 1) * pageSize + pageSize / 2);
        }
    }
}

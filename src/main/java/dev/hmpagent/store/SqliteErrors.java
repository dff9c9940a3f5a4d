package dev.hmpagent.store;

import dev.hmpagent.text.Text;
import dev.hmpagent.store.StoreException.Kind;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

/** Turns a failed SQLite call into a {@link StoreException}: its {@link Kind} and a one-line message. */
final class SqliteErrors {
    /** sqlite-jdbc's messages read "[SQLITE_FULL] Insertion failed … (database or disk is full)". */
    private static final Pattern DRIVER_MESSAGE = Pattern.compile("^\\[[A-Z_]+\\][^(]*(?:\\((.*)\\))?\\s*$");

    private SqliteErrors() { }

    static StoreException translate(String what, SQLException e, Path path) {
        return translate(what, e, path, Store.BUSY_TIMEOUT_MS);
    }

    static StoreException translate(String what, SQLException e, Path path, int busyTimeoutMs) {
        Kind kind = kind(e);
        String detail = detail(e);
        String message = switch (kind) {
            // the holder may be this very process (the agent's tick writing while the REPL stores a typed line)
            case BUSY -> path + " stayed locked by another write (the running agent's or another process's) for over "
                    + duration(busyTimeoutMs);
            case FULL -> "disk full while writing " + path + " (" + detail + "): free some space; nothing was committed";
            case IO -> "I/O error on " + path + " (" + detail + "): check the disk and that the file and its"
                    + " directory are still in place and accessible, or choose another --db";
            case READ_ONLY -> "cannot write " + path + " (" + detail + "): check its permissions or choose another --db";
            case CORRUPT -> path + " is damaged (" + detail + "): " + runCheck(path);
            case NOT_A_DATABASE -> path + " is not an SQLite database, or its header is damaged (" + detail
                    + "): if it is the agent's file, " + runCheck(path) + "; otherwise choose another file with --db";
            case SCHEMA, OTHER -> "database error in " + path + " during " + oneLine(what) + ": " + detail;
        };
        return new StoreException(kind, message, e);
    }

    /** The advice every damaged-file message ends with. */
    static String runCheck(Path path) {
        return "stop the agent and run `agent check --db " + path + "`";
    }

    static Kind kind(SQLException e) {
        int code = e instanceof SQLiteException se ? se.getResultCode().code : e.getErrorCode();
        return switch (code & 0xff) {
            case 5, 6, 15 -> Kind.BUSY;             // SQLITE_BUSY, SQLITE_LOCKED, SQLITE_PROTOCOL (WAL lock race)
            case 13 -> Kind.FULL;                   // SQLITE_FULL
            case 10, 14, 22 -> Kind.IO;             // SQLITE_IOERR, SQLITE_CANTOPEN, SQLITE_NOLFS
            case 8, 3 -> Kind.READ_ONLY;            // SQLITE_READONLY, SQLITE_PERM
            case 11 -> Kind.CORRUPT;                // SQLITE_CORRUPT
            case 26 -> Kind.NOT_A_DATABASE;         // SQLITE_NOTADB
            default -> Kind.OTHER;
        };
    }

    /** Whether SQLite may have rolled the whole open transaction back by itself after this error. */
    static boolean mayEndTransaction(SQLException e) {
        int code = e.getErrorCode() & 0xff;
        return code == SQLiteErrorCode.SQLITE_FULL.code || code == SQLiteErrorCode.SQLITE_IOERR.code
                || code == SQLiteErrorCode.SQLITE_BUSY.code || code == SQLiteErrorCode.SQLITE_NOMEM.code
                || code == SQLiteErrorCode.SQLITE_INTERRUPT.code || code == SQLiteErrorCode.SQLITE_CORRUPT.code;
    }

    /** "cannot rollback - no transaction is active": SQLite had already ended the transaction. */
    static boolean noTransactionActive(SQLException e) {
        return (e.getErrorCode() & 0xff) == SQLiteErrorCode.SQLITE_ERROR.code
                && String.valueOf(e.getMessage()).contains("no transaction is active");
    }

    /** SQLite's own words for the error, without the driver's "[CODE] description" wrapping. */
    static String detail(SQLException e) {
        String line = oneLine(e.getMessage());
        Matcher m = DRIVER_MESSAGE.matcher(line);
        if (m.matches() && m.group(1) != null && !m.group(1).isBlank()) return m.group(1);
        return line.replaceFirst("^\\[[A-Z_]+\\]\\s*", "");
    }

    private static String duration(int ms) {
        return ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms";
    }

    /** First line, clipped: messages stay one line. */
    static String oneLine(String s) {
        return Text.cut(Text.firstLine(s), 160);
    }
}

package dev.hmpagent.cli;

import dev.hmpagent.store.NativeSqlite;

/** Process entry point. */
public final class Main {
    private Main() { }

    public static void main(String[] args) {
        LibraryLogs.quiet();        // no library may print a stack trace at the user
        NativeSqlite.install();     // before the first connection: one copy per user, never the temp dir
        int code = Cli.commandLine(Launch.system()).execute(args);
        System.exit(code);
    }
}

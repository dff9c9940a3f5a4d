package dev.hmpagent.cli;

import dev.hmpagent.runtime.Launch;
import dev.hmpagent.store.NativeSqlite;

/** Process entry point. */
public final class Main {
    private Main() { }

    public static void main(String[] args) {
        if (Cli.bareVersion(args)) {
            // the line picocli would print, without picocli's model of the root (a tenth of a second of CPU)
            System.out.println(Version.line());
            System.exit(ExitCodes.OK);
        }
        picocli.CommandLine cl = Cli.commandLine(Launch.system(), args);
        // before any command runs, and only then (--version and --help need neither):
        Cli.setUpBeforeRunning(cl, () -> {
            LibraryLogs.quiet();        // no library may print a stack trace at the user
            NativeSqlite.install();     // before the first connection: one copy per user, never the temp dir
        });
        System.exit(cl.execute(args));
    }
}

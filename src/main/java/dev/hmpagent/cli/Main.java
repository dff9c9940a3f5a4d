package dev.hmpagent.cli;

/** Process entry point. */
public final class Main {
    private Main() { }

    public static void main(String[] args) {
        int code = Cli.commandLine(Launch.system()).execute(args);
        System.exit(code);
    }
}

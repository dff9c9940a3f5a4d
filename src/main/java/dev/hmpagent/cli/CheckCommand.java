package dev.hmpagent.cli;

import dev.hmpagent.context.StandingInstructions;
import dev.hmpagent.mcp.McpProfiles;
import dev.hmpagent.process.Confinement;
import dev.hmpagent.runtime.Launch;
import dev.hmpagent.runtime.Confinements;
import dev.hmpagent.runtime.Wiring;
import dev.hmpagent.store.IntegrityReport;
import dev.hmpagent.store.Store;
import java.nio.file.Path;
import java.util.Optional;
import picocli.CommandLine.Command;

/**
 * {@code agent check}: how commands are confined, AGENTS.md, the MCP servers configured (each one's transport and
 * sandbox profile, without starting it), then the full SQLite integrity check of the agent's file, read-only, and
 * what to do next when it is damaged. Exit 0 when the file is sound (or not there yet: an agent makes it when it first
 * starts), 5 when it is not.
 */
@Command(name = "check", mixinStandardHelpOptions = true,
        description = {"Say how shell commands are confined (the sandbox in force, or why not), whether AGENTS.md"
                + " (the standing instructions) is in the working directory and if it is cut, list the MCP servers"
                + " with their transport and sandbox profile (without starting them: agent mcp list does), check"
                + " the agent's SQLite file for damage (read-only) and say what to do next.",
                "Exit code 0: the file is sound, or not made yet; 3: the sandbox cannot be used with this configuration;"
                        + " 5: the file is damaged, or cannot be read."},
        footerHeading = "%nExamples:%n",
        footer = {
                "  agent check",
                "  agent --db ~/agents/ops.db check && cp ~/agents/ops.db /backup/"})
final class CheckCommand extends Subcommand {

    CheckCommand(AgentCommand root, Launch launch) {
        super(root, launch);
    }

    /** What [a2a] exposes: nothing, the loopback without a token, or an address with tokens (named, never shown). */
    static String a2aExposure(dev.hmpagent.config.A2aSection a2a, java.util.Map<String, String> env) {
        if (!a2a.serves()) return "A2A: not served (a2a.listen is empty): no other agent can send to this one";
        java.util.List<String> unset = a2a.tokens().stream().filter(n -> env.getOrDefault(n, "").isBlank()).toList();
        String who = a2a.tokens().isEmpty() ? "anyone on this machine, no token (loopback only)"
                : "callers with a bearer token from " + String.join(", ", a2a.tokens())
                + (unset.isEmpty() ? "" : "; not set now: " + String.join(", ", unset) + " (the agent will not start)");
        return "A2A: " + a2a.listen() + " serves the agent card and its JSON-RPC to " + who + "; a caller's message is"
                + " a note from a peer (data: it cannot unlock, halt or change policy), at most " + a2a.maxMessageBytes()
                + " bytes, " + a2a.ratePerMinute() + " a minute";
    }

    @Override
    public Integer call() {
        Optional<Confinement> confinement = sandbox();
        say(StandingInstructions.read(launch().workingDir()).line());
        // without a confinement the agent does not start at all (said above): no server profile to show
        confinement.ifPresent(c -> McpProfiles.checkLines(config().mcp().servers(), c, launch().env()::get)
                .forEach(this::say));
        children(dev.hmpagent.runtime.KnownSecrets.of(config(), launch().env())).forEach(this::say);
        say(a2aExposure(config().a2a(), launch().env()));
        boolean confinable = confinement.isPresent();
        Path db = config().agent().db().toAbsolutePath();
        if (!java.nio.file.Files.exists(db)) {
            say(db + ": not there yet: made at first start (agent, or agent run, creates it)");
            return confinable ? ExitCodes.OK : ExitCodes.CONFIG;
        }
        IntegrityReport report = Store.checkIntegrity(db);
        if (report.ok()) {
            say(db + ": ok (SQLite's integrity_check found nothing wrong)");
            return confinable ? ExitCodes.OK : ExitCodes.CONFIG;
        }
        say(db + " is damaged; SQLite's integrity_check says:");
        report.problems().forEach(p -> say("  " + p));
        if (report.truncated()) say("  … and more");
        String q = quoted(db.toString());
        String copy = quoted(db + ".damaged");
        String recovered = quoted(db.resolveSibling(db.getFileName() + ".recovered").toString());
        say("What to do:");
        say("  1. stop every agent using it, and keep the damaged file:  mv " + q + " " + copy
                + "  (and its -wal and -shm files, if any, the same way)");
        say("  2. recover what SQLite can still read:  sqlite3 " + copy + " .recover | sqlite3 " + recovered);
        say("  3. check the result:  agent check --db " + recovered);
        say("  4. put it in place:  mv " + recovered + " " + q + "   (or start with --db " + recovered + ")");
        say("  A backup of the file, if you have one, is the surer way back.");
        return ExitCodes.DATABASE;
    }

    /** Says which sandbox mode is in force and why; empty when this configuration cannot start with the sandbox. */
    private Optional<Confinement> sandbox() {
        try {
            Confinement c = Wiring.confinement(config(), configFiles(), launch().env());
            say(c.line());
            if (!c.sandboxed()) Confinements.fallbackLines(config().policy()).forEach(this::say);
            return Optional.of(c);
        } catch (dev.hmpagent.config.ConfigException e) {
            say(e.getMessage());
            return Optional.empty();
        }
    }

    /**
     * What of the agent's environment its children get, by name, and which of the variables shell.env names are
     * refused for holding a key; how many secret values every result is redacted of.
     */
    static java.util.List<String> children(dev.hmpagent.runtime.KnownSecrets secrets) {
        String line = "child processes get only " + String.join(", ",
                new java.util.TreeSet<>(secrets.children().variables().keySet()))
                + " of the environment; " + secrets.values().size() + " secret value"
                + (secrets.values().size() == 1 ? " is" : "s are") + " redacted from every result, row, prompt and line";
        String refused = secrets.children().refusedLine();
        return refused.isEmpty() ? java.util.List.of(line) : java.util.List.of(line, refused);
    }

    /** {@code s} quoted for a POSIX shell. */
    static String quoted(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }
}

package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.Args;
import dev.hmpagent.commands.CommandContext;
import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.SimpleCommand;
import static dev.hmpagent.commands.catalogue.RegistryArgs.MAX_TEXT;
import static dev.hmpagent.commands.catalogue.RegistryArgs.listing;
import static dev.hmpagent.commands.catalogue.RegistryArgs.oneLine;

import dev.hmpagent.store.ScriptRow;
import dev.hmpagent.store.ScriptsDao;
import java.util.List;
import java.util.Optional;
import java.util.TreeSet;

/**
 * The agent's own scripts ({@code agent_scripts}). Running one ({@code script_run}) goes through the shell policy and
 * the process runner like any shell command; it is wired where those live, from {@link dev.hmpagent.store.ScriptLaunch}.
 */
public final class ScriptCommands {
    /** The most code {@code script_read} shows. */
    static final int MAX_SHOWN_CODE = 8_000;

    private ScriptCommands() { }

    public static List<CommandHandler> all() {
        return List.of(scriptAdd(), scriptUpdate(), scriptDelete(), scriptsList(), scriptRead());
    }

    static CommandHandler scriptAdd() {
        return new SimpleCommand("script_add", "save a new script of yours (python, sh or bash) as version 1",
                "{\"name\": \"fetch_feed\", \"description\": \"...\", \"language\": \"python\", \"code\": \"print(1)\"}",
                (args, ctx) -> {
            String name = name(args);
            String code = code(args, args.requiredText("code"));
            String language = language(args, args.optionalText("language").orElse("python"));
            String version = version(args).orElse("1");
            ScriptsDao scripts = ctx.tables().scripts();
            Optional<ScriptRow> existing = scripts.latest(name);
            if (existing.isPresent()) {
                return CommandOutcome.error("script_add: script " + name + " exists (version " + existing.get().version()
                        + "); change it with script_update or pick another name");
            }
            scripts.add(name, version, language, args.optionalText("description").orElse(null),
                    args.optionalText("tags").orElse(null), code, ctx.llmId());
            return CommandOutcome.ok("script " + name + " saved as version " + version + " (" + language + ")");
        }).takes("name: string, code: string, language?: string, description?: string, tags?: string, version?: string");
    }

    static CommandHandler scriptUpdate() {
        return new SimpleCommand("script_update",
                "change a script of yours: saves a new version with the fields given (the others are kept)",
                "{\"name\": \"fetch_feed\", \"code\": \"...\", \"description\": \"...\"}", (args, ctx) -> {
            String name = name(args);
            ScriptsDao scripts = ctx.tables().scripts();
            Optional<ScriptRow> latest = scripts.latest(name);
            if (latest.isEmpty()) return CommandOutcome.error("script_update: no script " + name + "; " + known(ctx));
            ScriptRow old = latest.get();
            Optional<String> code = args.optionalText("code").map(c -> code(args, c));
            Optional<String> language = args.optionalText("language").map(l -> language(args, l));
            Optional<String> description = args.optionalText("description");
            Optional<String> tags = args.optionalText("tags");
            if (code.isEmpty() && language.isEmpty() && description.isEmpty() && tags.isEmpty()) {
                throw args.bad("give at least one of args.code, args.description, args.language, args.tags");
            }
            String version = version(args).orElseGet(() -> scripts.nextVersion(name));
            if (scripts.version(name, version).isPresent()) {
                return CommandOutcome.error("script_update: " + name + " already has a version " + version
                        + "; leave args.version out to get the next number");
            }
            scripts.add(name, version, language.orElse(old.language()), description.orElse(old.description()),
                    tags.orElse(old.tags()), code.orElse(old.code()), ctx.llmId());
            return CommandOutcome.ok("script " + name + " saved as version " + version + " (was " + old.version() + ")");
        }).takes("name: string, code?: string, language?: string, description?: string, tags?: string, version?: string");
    }

    static CommandHandler scriptDelete() {
        return new SimpleCommand("script_delete", "delete a script of yours (every version, or the one given)",
                "{\"name\": \"fetch_feed\"}", (args, ctx) -> {
            String name = name(args);
            Optional<String> version = version(args);
            int n = ctx.tables().scripts().delete(name, version.orElse(null));
            if (n == 0) {
                return CommandOutcome.error("script_delete: no script " + name
                        + version.map(v -> " version " + v).orElse("") + "; " + known(ctx));
            }
            return CommandOutcome.ok("script " + name + " deleted (" + n + " version" + (n == 1 ? "" : "s") + ")");
        }).takes("name: string, version?: string");
    }

    static CommandHandler scriptsList() {
        return SimpleCommand.informing("scripts_list", "list your scripts (newest version of each)", "{}",
                (args, ctx) -> {
            ScriptsDao scripts = ctx.tables().scripts();
            return CommandOutcome.ok(listing("your scripts (name, version, language, versions kept):",
                    scripts.latestAll().stream().map(s -> "- " + s.name() + " v" + s.version() + " (" + s.language()
                            + ", " + scripts.versionCount(s.name()) + " kept)"
                            + (s.description().isEmpty() ? "" : ": " + oneLine(s.description(), MAX_TEXT))).toList(),
                    "you have no scripts yet; script_add saves one"));
        });
    }

    static CommandHandler scriptRead() {
        return SimpleCommand.informing("script_read", "show a script's code (the newest version, or the one given)",
                "{\"name\": \"fetch_feed\"}", (args, ctx) -> {
            String name = name(args);
            Optional<String> version = version(args);
            ScriptsDao scripts = ctx.tables().scripts();
            Optional<ScriptRow> row = version.isPresent() ? scripts.version(name, version.get()) : scripts.latest(name);
            return row.map(s -> {
                String code = s.code();
                String shown = code.length() <= MAX_SHOWN_CODE ? code : code.substring(0, MAX_SHOWN_CODE)
                        + "\n[… " + (code.length() - MAX_SHOWN_CODE) + " more characters not shown]";
                return CommandOutcome.ok("script " + s.name() + " v" + s.version() + " (" + s.language() + ", updated "
                        + s.updatedAt() + ")" + (s.description().isEmpty() ? "" : ": " + oneLine(s.description(), MAX_TEXT))
                        + (s.tags().isEmpty() ? "" : " [" + s.tags() + "]") + "\n" + shown);
            }).orElseGet(() -> CommandOutcome.error("script_read: no script " + name
                    + version.map(v -> " version " + v).orElse("") + "; " + known(ctx)));
        }).takes("name: string, version?: string");
    }

    private static String name(Args args) {
        String name = args.requiredText("name").strip();
        if (!ScriptsDao.NAME.matcher(name).matches()) {
            throw args.bad("args.name must be lower-case letters, digits and _, starting with a letter, at most 41 long");
        }
        return name;
    }

    private static Optional<String> version(Args args) {
        Optional<String> v = args.optionalText("version").map(String::strip).filter(s -> !s.isEmpty());
        if (v.isPresent() && !ScriptsDao.VERSION.matcher(v.get()).matches()) {
            throw args.bad("args.version must be letters, digits, '.', '_' or '-', at most 20 long");
        }
        return v;
    }

    private static String language(Args args, String language) {
        String l = language.strip().toLowerCase(java.util.Locale.ROOT);
        if (!ScriptsDao.LANGUAGES.contains(l)) {
            throw args.bad("args.language must be one of " + String.join(", ", new TreeSet<>(ScriptsDao.LANGUAGES)));
        }
        return l;
    }

    private static String code(Args args, String code) {
        if (code.isBlank()) throw args.bad("args.code must not be empty");
        if (code.length() > ScriptsDao.MAX_CODE) throw args.bad("args.code is over " + ScriptsDao.MAX_CODE + " characters");
        return code;
    }

    private static String known(CommandContext ctx) {
        List<String> names = ctx.tables().scripts().latestAll().stream().map(ScriptRow::name).toList();
        if (names.isEmpty()) return "you have no scripts";
        return "yours: " + String.join(", ", names.subList(0, Math.min(names.size(), 20))) + (names.size() > 20 ? ", …" : "");
    }
}

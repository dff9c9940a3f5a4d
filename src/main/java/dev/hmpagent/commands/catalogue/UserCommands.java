package dev.hmpagent.commands.catalogue;

import dev.hmpagent.text.Json;
import dev.hmpagent.commands.Args;
import dev.hmpagent.commands.CommandContext;
import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.SimpleCommand;
import static dev.hmpagent.commands.catalogue.RegistryArgs.MAX_TEXT;
import static dev.hmpagent.commands.catalogue.RegistryArgs.listing;
import static dev.hmpagent.commands.catalogue.RegistryArgs.oneLine;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.hmpagent.store.UsersDao;
import dev.hmpagent.store.UsersDao.Group;
import dev.hmpagent.store.UsersDao.User;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The people who may write to the agent ({@code users}, by DID as in {@code notes.user_did}) and their groups
 * ({@code users_group}). Whether someone is an operator or banned is a person's to set, never the LLM's.
 */
public final class UserCommands {
    private static final ObjectMapper JSON = Json.mapper();
    /** Text columns the LLM may fill, besides username, did and groups. */
    private static final List<String> TEXT_FIELDS = List.of("mail", "language", "badges");
    /** JSON columns the LLM may fill: an object or list is stored as JSON, a string as given. */
    private static final List<String> JSON_FIELDS = List.of("info", "profile", "contacts");
    /** The columns {@link #fields} reads. */
    private static final String FIELDS = "group?: string, groups?: array, mail?: string, language?: string, badges?: string, "
            + "info?: any, profile?: any, contacts?: any";

    private UserCommands() { }

    public static List<CommandHandler> all() {
        return List.of(usersList(), userAdd(), userUpdate(), usersGroupAdd(), usersGroupList());
    }

    static CommandHandler usersList() {
        return SimpleCommand.informing("users_list", "list the people who may write to you, with their DIDs and groups",
                "{}", (args, ctx) -> {
            UsersDao users = ctx.tables().users();
            List<String> lines = users.all(RegistryArgs.MAX_LINES).stream().map(UserCommands::line).toList();
            String out = listing("users (id. name <did> groups):", lines, "no users are registered yet");
            long more = users.count() - lines.size();
            return CommandOutcome.ok(more > 0 ? out + "\n… and " + more + " more" : out);
        });
    }

    static CommandHandler userAdd() {
        return new SimpleCommand("user_add", "register a person who may write to you, by DID, optionally in a group",
                "{\"username\": \"Ann\", \"did\": \"did:hmp:ann\", \"group\": \"friends\", \"language\": \"en\"}",
                (args, ctx) -> {
            String did = did(args);
            UsersDao users = ctx.tables().users();
            Optional<User> existing = users.byDid(did);
            if (existing.isPresent()) {
                return CommandOutcome.error("user_add: " + did + " is already user " + existing.get().userId()
                        + "; change it with user_update");
            }
            Map<String, String> fields = fields(args);
            Optional<String> name = args.optionalText("username").or(() -> args.optionalText("name"));
            name.map(String::strip).ifPresent(n -> fields.put("username", n));
            Optional<CommandOutcome> refused = checkGroupsAndMail("user_add", ctx, fields, 0);
            if (refused.isPresent()) return refused.get();
            long id = users.add(did, fields);
            return CommandOutcome.ok("user " + id + " " + name.orElse(did) + " <" + did + "> added"
                    + (fields.containsKey("groups") ? " to " + fields.get("groups") : ""));
        }).takes("did: string, username|name?: string, " + FIELDS);
    }

    static CommandHandler userUpdate() {
        return new SimpleCommand("user_update",
                "change a user's name, mail, language, groups and other fields (by did or user_id)",
                "{\"did\": \"did:hmp:ann\", \"language\": \"en,ru\", \"groups\": [\"friends\"]}", (args, ctx) -> {
            UsersDao users = ctx.tables().users();
            Optional<Long> byId = args.optionalLong("user_id");
            Optional<User> user = byId.isPresent() ? users.byId(byId.get()) : users.byDid(did(args));
            if (user.isEmpty()) {
                return CommandOutcome.error("user_update: no such user; users_list shows them");
            }
            Map<String, String> fields = fields(args);
            args.optionalText("username").or(() -> args.optionalText("name")).map(String::strip)
                    .ifPresent(n -> fields.put("username", n));
            if (fields.isEmpty()) throw args.bad("give at least one field to change: username, mail, language, badges, "
                    + "info, profile, contacts, groups");
            Optional<CommandOutcome> refused = checkGroupsAndMail("user_update", ctx, fields, user.get().userId());
            if (refused.isPresent()) return refused.get();
            users.update(user.get().userId(), fields);
            return CommandOutcome.ok("user " + user.get().userId() + " updated: " + String.join(", ", fields.keySet()));
        }).takes("did?: string, user_id?: integer, username|name?: string, " + FIELDS);
    }

    static CommandHandler usersGroupAdd() {
        return new SimpleCommand("users_group_add", "add a group of users", "{\"group_name\": \"friends\", "
                + "\"description\": \"...\"}", (args, ctx) -> {
            String name = args.optionalText("group_name").or(() -> args.optionalText("name")).map(String::strip)
                    .filter(s -> !s.isEmpty()).orElseThrow(() -> args.bad("args.group_name is required"));
            if (name.length() > 80) throw args.bad("args.group_name is over 80 characters");
            UsersDao users = ctx.tables().users();
            if (users.group(name).isPresent()) return CommandOutcome.error("users_group_add: group " + name + " exists");
            long id = users.addGroup(name, args.optionalText("description").orElse(null));
            return CommandOutcome.ok("group " + id + " \"" + name + "\" added");
        }).takes("group_name|name: string, description?: string");
    }

    static CommandHandler usersGroupList() {
        return SimpleCommand.informing("users_group_list", "list the groups of users and how many each holds", "{}",
                (args, ctx) -> CommandOutcome.ok(listing("groups (name: members, description):", ctx.tables().users()
                        .groups().stream().map(g -> "- " + g.name() + ": " + g.members() + " member"
                                + (g.members() == 1 ? "" : "s")
                                + (g.description().isEmpty() ? "" : ", " + oneLine(g.description(), MAX_TEXT))).toList(),
                        "no groups yet; users_group_add makes one")));
    }

    private static String did(Args args) {
        String did = args.requiredText("did").strip();
        if (!UsersDao.DID.matcher(did).matches()) throw args.bad("args.did must be a DID, e.g. did:hmp:ann");
        return did;
    }

    /** The text and JSON columns given, and {@code group} (one) or {@code groups} (a list) as a JSON array. */
    private static Map<String, String> fields(Args args) {
        Map<String, String> fields = new LinkedHashMap<>(RegistryArgs.texts(args, TEXT_FIELDS));
        for (String name : JSON_FIELDS) {
            JsonNode v = args.node().get(name);
            if (v != null && !v.isNull()) fields.put(name, v.isContainerNode() ? v.toString() : v.asText());
        }
        List<String> groups = new ArrayList<>(args.list("groups"));
        groups.addAll(args.list("group"));
        if (args.node().has("groups") || args.node().has("group")) {
            ArrayNode array = JSON.createArrayNode();
            groups.stream().map(String::strip).filter(g -> !g.isEmpty()).distinct().forEach(array::add);
            fields.put("groups", array.toString());
        }
        return fields;
    }

    /** Refuses groups that do not exist (naming the known ones) and a mail another user has. */
    private static Optional<CommandOutcome> checkGroupsAndMail(String type, CommandContext ctx, Map<String, String> fields, long self) {
        UsersDao users = ctx.tables().users();
        if (fields.containsKey("groups")) {
            List<String> known = users.groups().stream().map(Group::name).toList();
            try {
                for (JsonNode g : JSON.readTree(fields.get("groups"))) {
                    if (!known.contains(g.asText())) {
                        return Optional.of(CommandOutcome.error(type + ": no group \"" + oneLine(g.asText(), 60) + "\"; "
                                + (known.isEmpty() ? "there are none yet (users_group_add makes one)"
                                : "groups: " + String.join(", ", known))));
                    }
                }
            } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                throw new IllegalStateException("groups built as JSON do not read back", e);
            }
        }
        String mail = fields.get("mail");
        if (mail != null && users.mailTaken(mail, self)) {
            return Optional.of(CommandOutcome.error(type + ": another user has the mail " + oneLine(mail, 80)));
        }
        return Optional.empty();
    }

    private static String line(User u) {
        return u.userId() + ". " + (u.username().isEmpty() ? "(no name)" : u.username()) + " <" + u.did() + ">"
                + (u.groups().equals("[]") ? "" : " groups " + u.groups())
                + (u.language().isEmpty() ? "" : ", language " + u.language())
                + (u.operator() ? ", operator" : "")
                + (u.ban() == null ? "" : ", banned until " + u.ban());
    }
}

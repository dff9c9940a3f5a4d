package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.Args;
import dev.hmpagent.commands.CommandContext;
import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.SimpleCommand;
import static dev.hmpagent.commands.catalogue.RegistryArgs.MAX_TEXT;
import static dev.hmpagent.commands.catalogue.RegistryArgs.listing;
import static dev.hmpagent.commands.catalogue.RegistryArgs.oneLine;

import dev.hmpagent.store.ExternalServicesDao;
import dev.hmpagent.store.ExternalServicesDao.Account;
import dev.hmpagent.store.ExternalServicesDao.Service;
import dev.hmpagent.store.SecretRef;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Outside services ({@code external_services}) and the agent's accounts on them ({@code external_accounts}). An
 * account says where its secret lives ({@code secret_ref}: {@code env:NAME} or {@code keyring:entry}); a secret given
 * in its place, or in any argument named like one, is refused without being repeated, and nothing here shows one.
 */
public final class ExternalServiceCommands {
    /** Argument names that would carry a secret itself. */
    private static final List<String> SECRET_ARGS = List.of("password", "secret", "token", "api_key", "key");
    /** A service named by its id or name. */
    private static final String SERVICE = "service|service_id: string";

    private ExternalServiceCommands() { }

    public static List<CommandHandler> all() {
        return List.of(servicesList(), serviceAdd(), serviceUpdate(), serviceDelete(), accountsList(), accountAdd(),
                accountUpdate(), accountDelete());
    }

    static CommandHandler servicesList() {
        return SimpleCommand.informing("services_list", "list the outside services you know (forums, blogs, ...)", "{}",
                (args, ctx) -> CommandOutcome.ok(listing("external services (id. name (type) base_url accounts):",
                        ctx.tables().externalServices().services().stream().map(ExternalServiceCommands::line).toList(),
                        "no external services yet; service_add adds one")));
    }

    static CommandHandler serviceAdd() {
        return new SimpleCommand("service_add", "add an outside service (type: blog, forum, social, ...)",
                "{\"name\": \"Reddit\", \"type\": \"forum\", \"base_url\": \"https://reddit.com\", \"description\": \"...\"}",
                (args, ctx) -> {
            Map<String, Object> fields = serviceFields(args);
            for (String required : List.of("name", "type", "base_url")) {
                if (!fields.containsKey(required)) throw args.bad("args." + required + " is required");
            }
            ExternalServicesDao services = ctx.tables().externalServices();
            if (services.findService(fields.get("name").toString()).isPresent()) {
                return CommandOutcome.error("service_add: a service named " + fields.get("name") + " exists; "
                        + "change it with service_update");
            }
            long id = services.addService(fields);
            return CommandOutcome.ok("service " + id + " " + fields.get("name") + " added");
        }).takes("name: string, type: string, base_url|url: string, description?: string, active?: boolean, inactive_reason?: string");
    }

    static CommandHandler serviceUpdate() {
        return new SimpleCommand("service_update",
                "change a service (name, type, base_url, description, active, inactive_reason)",
                "{\"service\": \"Reddit\", \"active\": false, \"inactive_reason\": \"...\"}", (args, ctx) -> {
            Optional<Service> service = service(args, ctx);
            if (service.isEmpty()) return unknownService("service_update", args, ctx);
            Map<String, Object> fields = serviceFields(args);
            if (fields.isEmpty()) throw args.bad("give at least one field to change");
            ctx.tables().externalServices().updateService(service.get().id(), fields);
            return CommandOutcome.ok("service " + service.get().id() + " updated: " + String.join(", ", fields.keySet()));
        }).takes(SERVICE + ", name?: string, type?: string, base_url?: string, description?: string, active?: boolean, inactive_reason?: string");
    }

    static CommandHandler serviceDelete() {
        return new SimpleCommand("service_delete", "delete a service and your accounts on it",
                "{\"service\": \"Reddit\"}", (args, ctx) -> {
            Optional<Service> service = service(args, ctx);
            if (service.isEmpty()) return unknownService("service_delete", args, ctx);
            ctx.tables().externalServices().deleteService(service.get().id());
            return CommandOutcome.ok("service " + service.get().id() + " " + service.get().name() + " deleted with "
                    + service.get().accounts() + " account" + (service.get().accounts() == 1 ? "" : "s"));
        }).takes(SERVICE);
    }

    static CommandHandler accountsList() {
        return SimpleCommand.informing("accounts_list",
                "list your accounts on outside services and where their secrets live (never the secrets)",
                "{\"service\": \"Reddit\"}", (args, ctx) -> {
            Long serviceId = null;
            if (args.optionalText("service").isPresent()) {
                Optional<Service> service = service(args, ctx);
                if (service.isEmpty()) return unknownService("accounts_list", args, ctx);
                serviceId = service.get().id();
            }
            return CommandOutcome.ok(listing("accounts (id. login on service: purpose, secret location):",
                    ctx.tables().externalServices().accounts(serviceId).stream().map(ExternalServiceCommands::line).toList(),
                    "no accounts yet; account_add adds one"));
        }).takes("service|service_id?: string");
    }

    static CommandHandler accountAdd() {
        return new SimpleCommand("account_add",
                "record an account of yours on a service and where its secret lives (env: or keyring:)",
                "{\"service\": \"Reddit\", \"login\": \"hmp-bot\", \"secret_ref\": \"env:REDDIT_TOKEN\", \"purpose\": \"...\"}",
                (args, ctx) -> {
            Map<String, Object> fields = accountFields(args);
            if (!fields.containsKey("login")) throw args.bad("args.login is required");
            if (!fields.containsKey("secret_ref")) {
                throw args.bad("args.secret_ref is required: where the secret lives, env:VARIABLE or keyring:entry");
            }
            Optional<Service> service = service(args, ctx);
            if (service.isEmpty()) return unknownService("account_add", args, ctx);
            long id = ctx.tables().externalServices().addAccount(service.get().id(), fields);
            return CommandOutcome.ok("account " + id + " " + fields.get("login") + " on " + service.get().name()
                    + " added; its secret is read from " + fields.get("secret_ref"));
        }).takes(SERVICE + ", login: string, secret_ref: string, purpose?: string, active?: boolean, inactive_reason?: string");
    }

    static CommandHandler accountUpdate() {
        return new SimpleCommand("account_update",
                "change an account (login, purpose, secret_ref, active, inactive_reason)",
                "{\"id\": 3, \"secret_ref\": \"keyring:hmp-agent/reddit\"}", (args, ctx) -> {
            long id = args.requiredLong("id");
            Map<String, Object> fields = accountFields(args);
            if (fields.isEmpty()) throw args.bad("give at least one field to change");
            if (!ctx.tables().externalServices().updateAccount(id, fields)) {
                return CommandOutcome.error("account_update: no account " + id + "; accounts_list shows them");
            }
            return CommandOutcome.ok("account " + id + " updated: " + String.join(", ", fields.keySet()));
        }).takes("id: integer, login?: string, secret_ref?: string, purpose?: string, active?: boolean, inactive_reason?: string");
    }

    static CommandHandler accountDelete() {
        return new SimpleCommand("account_delete", "delete an account record (the secret itself stays where it is)",
                "{\"id\": 3}", (args, ctx) -> {
            long id = args.requiredLong("id");
            return ctx.tables().externalServices().deleteAccount(id) ? CommandOutcome.ok("account " + id + " deleted")
                    : CommandOutcome.error("account_delete: no account " + id + "; accounts_list shows them");
        }).takes("id: integer");
    }

    private static Map<String, Object> serviceFields(Args args) {
        Map<String, Object> fields = new LinkedHashMap<>();
        RegistryArgs.texts(args, List.of("name", "type", "base_url", "description", "inactive_reason"))
                .forEach((k, v) -> fields.put(k, v.strip()));
        Object url = fields.get("base_url");
        if (url != null) {
            try {
                ExternalServicesDao.checkBaseUrl(url.toString());
            } catch (IllegalArgumentException e) {
                throw args.bad(e.getMessage());
            }
        }
        RegistryArgs.optionalBoolean(args, "active").ifPresent(a -> fields.put("active", a));
        return fields;
    }

    private static Map<String, Object> accountFields(Args args) {
        for (String name : SECRET_ARGS) {
            if (args.node().has(name)) {
                throw args.bad("an account never holds a secret (args." + name + " refused and not stored): put it in "
                        + "an environment variable or a keyring entry and give args.secret_ref, e.g. env:REDDIT_TOKEN");
            }
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        RegistryArgs.texts(args, List.of("login", "purpose", "inactive_reason")).forEach((k, v) -> fields.put(k, v.strip()));
        Object login = fields.get("login");
        if (login != null && SecretRef.looksLikeSecret(login.toString())) {
            throw args.bad("args.login looks like a secret (refused and not stored); give the account's user name");
        }
        Optional<String> ref = args.optionalText("secret_ref");
        if (ref.isPresent()) {
            try {
                fields.put("secret_ref", SecretRef.parse(ref.get()).toString());
            } catch (IllegalArgumentException e) {
                throw args.bad("args.secret_ref refused (and not stored): " + e.getMessage());
            }
        }
        RegistryArgs.optionalBoolean(args, "active").ifPresent(a -> fields.put("active", a));
        return fields;
    }

    private static Optional<Service> service(Args args, CommandContext ctx) {
        String wanted = args.optionalText("service").or(() -> args.optionalText("service_id")).map(String::strip)
                .filter(s -> !s.isEmpty()).orElseThrow(() -> args.bad("args.service is required (its id or name)"));
        return ctx.tables().externalServices().findService(wanted);
    }

    private static CommandOutcome unknownService(String type, Args args, CommandContext ctx) {
        List<String> names = ctx.tables().externalServices().services().stream().map(s -> s.id() + " " + s.name()).toList();
        String wanted = args.optionalText("service").or(() -> args.optionalText("service_id")).orElse("");
        return CommandOutcome.error(type + ": no service \"" + oneLine(wanted, 60) + "\"; "
                + (names.isEmpty() ? "there are none yet (service_add adds one)" : "services: " + String.join(", ", names)));
    }

    private static String line(Service s) {
        return s.id() + ". " + s.name() + " (" + s.type() + ") " + s.baseUrl() + ", " + s.accounts() + " account"
                + (s.accounts() == 1 ? "" : "s") + (s.active() ? "" : ", INACTIVE"
                + (s.inactiveReason().isEmpty() ? "" : " (" + oneLine(s.inactiveReason(), 80) + ")"))
                + (s.description().isEmpty() ? "" : ": " + oneLine(s.description(), MAX_TEXT));
    }

    private static String line(Account a) {
        return a.id() + ". " + a.login() + " on " + a.serviceName() + (a.purpose().isEmpty() ? "" : ": "
                + oneLine(a.purpose(), MAX_TEXT)) + ", secret in " + a.secretRef() + (a.active() ? "" : ", INACTIVE"
                + (a.inactiveReason().isEmpty() ? "" : " (" + oneLine(a.inactiveReason(), 80) + ")"));
    }
}

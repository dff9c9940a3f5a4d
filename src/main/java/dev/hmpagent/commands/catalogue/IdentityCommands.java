package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.SimpleCommand;
import static dev.hmpagent.commands.catalogue.RegistryArgs.listing;
import static dev.hmpagent.commands.catalogue.RegistryArgs.oneLine;

import dev.hmpagent.store.IdentityDao;
import dev.hmpagent.store.IdentityDao.Identity;
import java.util.List;
import java.util.TreeSet;

/** Who the agent is ({@code identity}): its name and metadata are the LLM's to change; its id and keys are not. */
public final class IdentityCommands {
    private IdentityCommands() { }

    public static List<CommandHandler> all() {
        return List.of(identityGet(), identityUpdate());
    }

    static CommandHandler identityGet() {
        return SimpleCommand.informing("identity_get", "show your identity (id, name, public key, metadata)", "{}",
                (args, ctx) -> CommandOutcome.ok(listing("your identity:", ctx.tables().identity().all().stream()
                        .map(IdentityCommands::line).toList(), "you have no identity yet; identity_update "
                        + "{\"field\": \"name\", \"value\": \"...\"} creates one")));
    }

    static CommandHandler identityUpdate() {
        String fields = String.join(", ", new TreeSet<>(IdentityDao.LLM_FIELDS.keySet()));
        return new SimpleCommand("identity_update", "change your identity's " + fields + " (creates one if you have none)",
                "{\"field\": \"name\", \"value\": \"...\"}", (args, ctx) -> {
            String field = args.requiredText("field").strip();
            if (!IdentityDao.LLM_FIELDS.containsKey(field)) {
                return CommandOutcome.error("identity_update: \"" + oneLine(field, 40) + "\" is not yours to change; "
                        + "you may change: " + fields);
            }
            com.fasterxml.jackson.databind.JsonNode raw = args.node().get("value");
            String value = raw != null && raw.isContainerNode() ? raw.toString()
                    : args.optionalText("value").orElseThrow(() -> args.bad("args.value is required"));
            IdentityDao identity = ctx.tables().identity();
            List<Identity> all = identity.all();
            String id;
            if (args.optionalText("id").isPresent()) {
                id = args.optionalText("id").get().strip();
            } else if (all.size() > 1) {
                return CommandOutcome.error("identity_update: you have " + all.size() + " identities; say which with "
                        + "args.id (" + String.join(", ", all.stream().map(Identity::id).toList()) + ")");
            } else {
                id = all.isEmpty() ? identity.create() : all.get(0).id();
            }
            if (!identity.update(id, field, value)) {
                return CommandOutcome.error("identity_update: no identity " + oneLine(id, 60) + "; identity_get shows yours");
            }
            return CommandOutcome.ok("identity " + id + ": " + field + " set");
        }).takes("field: string, value: any, id?: string");
    }

    private static String line(Identity i) {
        return "- id " + i.id() + (i.name().isEmpty() ? "" : ", name " + i.name())
                + (i.pubkey().isEmpty() ? ", no public key" : ", public key " + oneLine(i.pubkey(), 80))
                + (i.metadata().isEmpty() ? "" : ", metadata " + oneLine(i.metadata(), RegistryArgs.MAX_TEXT))
                + (i.updatedAt().isEmpty() ? "" : ", updated " + i.updatedAt());
    }
}

package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.Args;
import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.text.Text;
import dev.hmpagent.commands.SimpleCommand;
import com.fasterxml.jackson.databind.JsonNode;
import dev.hmpagent.store.ConceptRow;
import dev.hmpagent.store.ConceptsDao;
import dev.hmpagent.store.LinkRow;
import java.util.List;
import java.util.Optional;

/**
 * The semantic graph ({@code concepts} and {@code links}): add, read, update, delete, pin, link, unlink and the
 * neighbours of a concept. A concept is named by {@code id} or by {@code name}; a pinned concept shows in
 * context 3 every tick with its links until unpinned.
 */
public final class ConceptCommands {
    static final int MAX_NEIGHBOURS = 30;
    private static final String WHERE_CONCEPTS = "diary_read {\"query\": \"...\"} shows matching concepts in context 3";
    /** A concept is named by name or by id (an id that is not a number is taken as a name). */
    private static final String TARGET = "name?: string, id?: integer";

    private ConceptCommands() { }

    public static List<CommandHandler> all() {
        return List.of(add(), read(), update(), delete(), pin(), unpin(), linkAdd(), linkDelete("link_delete"),
                linkDelete("unlink"), neighbours());
    }

    static CommandHandler add() {
        return new SimpleCommand("concept_add", "add a concept to the semantic graph (or update its description)",
                "{\"name\": \"mesh\", \"description\": \"...\"}", (args, ctx) -> {
            String name = args.requiredText("name").strip();
            long id = ctx.concepts().upsert(name, args.optionalText("description").orElse(null), ctx.llmId());
            return CommandOutcome.ok("concept " + id + " \"" + name + "\" saved");
        }).takes("name|concept: string, description?: string");
    }

    static CommandHandler read() {
        return SimpleCommand.informing("concept_read", "a concept's description and its links (with link ids)",
                "{\"name\": \"mesh\"}", (args, ctx) -> {
            Target t = target(args, "name");
            return t.find(ctx.concepts()).map(c -> {
                List<LinkRow> links = ctx.concepts().linksOf(c.id());
                StringBuilder sb = new StringBuilder("concept " + c.id() + " \"" + c.name() + "\"" + (c.pinned() ? " (pinned)" : "")
                        + (c.description().isEmpty() ? "" : ": " + Text.oneLine(c.description(), 400)));
                sb.append(links.isEmpty() ? "\nno links" : "\nlinks:");
                for (LinkRow l : links) sb.append("\n- [link ").append(l.id()).append("] ").append(l.text());
                return CommandOutcome.ok(sb.toString());
            }).orElseGet(() -> missing("concept_read", t));
        }).takes(TARGET);
    }

    static CommandHandler update() {
        return new SimpleCommand("concept_update", "rename a concept or change its description",
                "{\"id\": 3, \"name\": \"new name\", \"description\": \"...\"}", (args, ctx) -> {
            boolean byId = args.node().hasNonNull("id");
            Target t = target(args, byId ? "id" : "name");
            String rename = (byId ? args.optionalText("name") : Optional.<String>empty())
                    .or(() -> args.optionalText("new_name")).map(String::strip).filter(s -> !s.isEmpty()).orElse(null);
            String description = args.optionalText("description").orElse(null);
            if (rename == null && description == null) {
                throw args.bad("give a new name (args.name with args.id, or args.new_name) or args.description");
            }
            Optional<ConceptRow> found = t.find(ctx.concepts());
            if (found.isEmpty()) return missing("concept_update", t);
            long id = found.get().id();
            if (rename != null) {
                Optional<Long> other = ctx.concepts().idOf(rename).filter(o -> o != id);
                if (other.isPresent()) {
                    return CommandOutcome.error("concept_update: a concept named \"" + rename + "\" exists already (id "
                            + other.get() + "); delete or rename that one first");
                }
            }
            ctx.concepts().update(id, rename, description);
            return CommandOutcome.ok("concept " + id + " \"" + (rename == null ? found.get().name() : rename) + "\" updated");
        }).takes("id?: integer, name?: string, new_name?: string, description?: string");
    }

    static CommandHandler delete() {
        return new SimpleCommand("concept_delete", "delete a concept and every link to or from it",
                "{\"name\": \"mesh\"}", (args, ctx) -> {
            Target t = target(args, "name");
            return t.find(ctx.concepts()).map(c -> {
                int links = ctx.concepts().delete(c.id());
                return CommandOutcome.ok("concept " + c.id() + " \"" + c.name() + "\" deleted with "
                        + Text.count(links, "link", "links"));
            }).orElseGet(() -> missing("concept_delete", t));
        }).takes(TARGET);
    }

    static CommandHandler pin() {
        return new SimpleCommand("concept_pin", "keep a concept and its links in context 3 every tick until concept_unpin",
                "{\"name\": \"mesh\"}", (args, ctx) -> {
            Target t = target(args, "name");
            return t.find(ctx.concepts()).map(c -> {
                ctx.concepts().pin(c.id(), ctx.tickId());
                return CommandOutcome.ok("concept " + c.id() + " \"" + c.name()
                        + "\" pinned: it shows in context 3 every tick until concept_unpin");
            }).orElseGet(() -> missing("concept_pin", t));
        }).takes(TARGET);
    }

    static CommandHandler unpin() {
        return new SimpleCommand("concept_unpin", "stop showing a pinned concept every tick", "{\"name\": \"mesh\"}",
                (args, ctx) -> {
            Target t = target(args, "name");
            return t.find(ctx.concepts()).map(c -> {
                ctx.concepts().unpin(c.id());
                return CommandOutcome.ok("concept " + c.id() + " \"" + c.name() + "\"" + (c.pinned() ? " unpinned" : " was not pinned"));
            }).orElseGet(() -> missing("concept_unpin", t));
        }).takes(TARGET);
    }

    static CommandHandler linkAdd() {
        return new SimpleCommand("link_add", "link two concepts by name with a relation (is_a, causes, related_to, ...)",
                "{\"from\": \"mesh\", \"to\": \"network\", \"relation_type\": \"is_a\"}", (args, ctx) -> {
            String from = args.requiredText("from").strip();
            String to = args.requiredText("to").strip();
            String relation = args.optionalText("relation_type").filter(s -> !s.isBlank()).orElse("related_to");
            Optional<Long> fromId = ctx.concepts().idOf(from);
            Optional<Long> toId = ctx.concepts().idOf(to);
            if (fromId.isEmpty() || toId.isEmpty()) {
                return CommandOutcome.notFound("link_add: no concept named \"" + (fromId.isEmpty() ? from : to)
                        + "\"; add it first with concept_add");
            }
            long id = ctx.concepts().link(fromId.get(), toId.get(), relation, ctx.llmId());
            return CommandOutcome.ok("link " + id + ": " + from + " " + relation + " " + to);
        }).takes("from: string, to: string, relation_type|relation?: string");
    }

    static CommandHandler linkDelete(String type) {
        String summary = type.equals("unlink") ? "the same as link_delete"
                : "delete a link by id, or the links from one concept to another";
        return new SimpleCommand(type, summary,
                "{\"from\": \"mesh\", \"to\": \"network\", \"relation_type\": \"is_a\"}", (args, ctx) -> {
            Optional<Long> id = args.optionalLong("id");
            if (id.isPresent()) {
                return ctx.concepts().linkById(id.get()).map(l -> {
                    ctx.concepts().unlink(l.id());
                    return CommandOutcome.ok("link " + l.id() + " deleted: " + l.text());
                }).orElseGet(() -> CommandOutcome.notFound(type + ": no link with id " + id.get()
                        + "; concept_read shows a concept's links with their ids"));
            }
            if (!args.node().hasNonNull("from") || !args.node().hasNonNull("to")) {
                throw args.bad("give args.id, or args.from and args.to (concept names)");
            }
            String from = args.requiredText("from").strip();
            String to = args.requiredText("to").strip();
            String relation = args.optionalText("relation_type").filter(s -> !s.isBlank()).orElse(null);
            Optional<Long> fromId = ctx.concepts().idOf(from);
            Optional<Long> toId = ctx.concepts().idOf(to);
            if (fromId.isEmpty() || toId.isEmpty()) {
                return CommandOutcome.notFound(type + ": no concept named \"" + (fromId.isEmpty() ? from : to) + "\"; "
                        + WHERE_CONCEPTS);
            }
            int n = ctx.concepts().unlink(fromId.get(), toId.get(), relation);
            String what = from + " " + (relation == null ? "(any relation)" : relation) + " " + to;
            return n == 0 ? CommandOutcome.notFound(type + ": no link " + what + "; concept_read \"" + from
                    + "\" shows its links") : CommandOutcome.ok(Text.count(n, "link", "links") + " deleted: " + what);
        }).takes("id?: integer, from?: string, to?: string, relation_type|relation?: string");
    }

    static CommandHandler neighbours() {
        return SimpleCommand.informing("concept_neighbours", "the concepts linked to one, up to 2 links away",
                "{\"name\": \"mesh\", \"depth\": 1}", (args, ctx) -> {
            Target t = target(args, "name");
            int depth = args.intWithin("depth", 1, 2, 1);
            return t.find(ctx.concepts()).map(c -> {
                List<ConceptsDao.Neighbour> near = ctx.concepts().neighbours(c.id(), depth, MAX_NEIGHBOURS);
                if (near.isEmpty()) return CommandOutcome.ok("\"" + c.name() + "\" has no links");
                StringBuilder sb = new StringBuilder(Text.count(near.size(), "concept", "concepts") + " within "
                        + Text.count(depth, "link", "links") + " of \"" + c.name() + "\" (nearest first):");
                for (ConceptsDao.Neighbour n : near) {
                    sb.append("\n- ").append(n.name()).append(" (").append(Text.count(n.distance(), "link", "links"))
                            .append(" away; via [link ").append(n.via().id()).append("] ").append(n.via().text()).append(')');
                }
                if (near.size() == MAX_NEIGHBOURS) sb.append("\n(stopped at ").append(MAX_NEIGHBOURS).append(")");
                return CommandOutcome.ok(sb.toString());
            }).orElseGet(() -> missing("concept_neighbours", t));
        }).takes(TARGET + ", depth?: integer");
    }

    /** How the command named its concept: by id, or by name (an id that is not a number is taken as a name). */
    private record Target(Long id, String name) {
        Optional<ConceptRow> find(ConceptsDao concepts) {
            return id != null ? concepts.get(id) : concepts.idOf(name).flatMap(concepts::get);
        }

        String describe() {
            return id != null ? "with id " + id : "named \"" + name + "\"";
        }
    }

    /** The concept named by args.id, else by args.{@code nameField}. */
    private static Target target(Args args, String nameField) {
        JsonNode id = args.node().get("id");
        if (id != null && !id.isNull()) {
            if (id.isIntegralNumber() || id.asText().strip().matches("\\d{1,18}")) return new Target(args.requiredLong("id"), null);
            return new Target(null, args.requiredText("id").strip());
        }
        if (!nameField.equals("id") && args.node().hasNonNull(nameField)) return new Target(null, args.requiredText(nameField).strip());
        throw args.bad("args.id or args.name is required (the concept)");
    }

    private static CommandOutcome missing(String type, Target t) {
        return CommandOutcome.notFound(type + ": no concept " + t.describe() + "; " + WHERE_CONCEPTS);
    }
}

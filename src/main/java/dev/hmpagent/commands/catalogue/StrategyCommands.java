package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.Args;
import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.SimpleCommand;
import static dev.hmpagent.commands.catalogue.RegistryArgs.MAX_TEXT;
import static dev.hmpagent.commands.catalogue.RegistryArgs.listing;
import static dev.hmpagent.commands.catalogue.RegistryArgs.oneLine;

import dev.hmpagent.store.RatingsDao;
import dev.hmpagent.store.RatingsDao.Rated;
import dev.hmpagent.store.RatingsDao.Target;
import java.util.List;
import java.util.Locale;

/** Ways out of stagnation, thinking methods, and the ratings that give them a reputation. */
public final class StrategyCommands {
    private StrategyCommands() { }

    public static List<CommandHandler> all() {
        return List.of(strategiesList(), thinkingMethodsList(), ratingAdd(), ratingsList());
    }

    static CommandHandler strategiesList() {
        return SimpleCommand.informing("strategies_list",
                "list the ways out of cognitive stagnation (stagnation_strategies) with their reputation", "{}",
                (args, ctx) -> CommandOutcome.ok(listing("stagnation strategies (id. name [tags] reputation):",
                        ctx.tables().ratings().strategies().stream().map(StrategyCommands::line).toList(),
                        "no stagnation strategies yet")));
    }

    static CommandHandler thinkingMethodsList() {
        return SimpleCommand.informing("thinking_methods_list",
                "list thinking methods (what to do when no solution comes) with their reputation", "{}",
                (args, ctx) -> CommandOutcome.ok(listing("thinking methods (id. name (type) [tags] reputation):",
                        ctx.tables().ratings().thinkingMethods().stream().map(StrategyCommands::line).toList(),
                        "no thinking methods yet")));
    }

    static CommandHandler ratingAdd() {
        return new SimpleCommand("rating_add",
                "rate what you tried: a strategy -1 (no help) to +1 (helped), a thinking method 1 to 5",
                "{\"target_type\": \"thinking_method\", \"target_id\": 2, \"rating\": 4, \"comment\": \"...\"}",
                (args, ctx) -> {
            Target target = target(args, args.requiredText("target_type"));
            long id = args.requiredLong("target_id");
            long rating = args.requiredLong("rating");
            if (rating < target.min() || rating > target.max()) {
                throw args.bad("args.rating of a " + target.type() + " must be from " + target.scale());
            }
            RatingsDao ratings = ctx.tables().ratings();
            return ratings.nameOf(target, id).map(name -> {
                ratings.add(ctx.tables().identity().selfId(), target, id, (int) rating,
                        args.optionalText("comment").orElse(null));
                return CommandOutcome.ok("rated " + target.type() + " " + id + " \"" + name + "\" " + shown(target, rating)
                        + "; its reputation is now " + format(ratings.reputation(target, id)));
            }).orElseGet(() -> CommandOutcome.error("rating_add: no " + target.type() + " with id " + id + "; "
                    + (target == Target.STAGNATION_STRATEGY ? "strategies_list" : "thinking_methods_list")
                    + " shows the ids"));
        }).takes("target_type: string, target_id: integer, rating: integer, comment?: string");
    }

    static CommandHandler ratingsList() {
        return SimpleCommand.informing("ratings_list", "list the latest ratings, of one strategy or method if given",
                "{\"target_type\": \"thinking_method\", \"target_id\": 2, \"limit\": 10}", (args, ctx) -> {
            Target target = args.optionalText("target_type").filter(s -> !s.isBlank()).map(t -> target(args, t))
                    .orElse(null);
            Long id = args.optionalLong("target_id").orElse(null);
            long limit = args.optionalLong("limit").orElse(10L);
            if (limit < 1 || limit > 50) throw args.bad("args.limit must be from 1 to 50");
            return CommandOutcome.ok(listing("ratings (newest first):", ctx.tables().ratings()
                    .ratings(target, id, (int) limit).stream().map(r -> "- " + r.targetType() + " " + r.targetId()
                            + " \"" + r.targetName() + "\": "
                            + shown(Target.of(r.targetType()).orElse(Target.THINKING_METHOD), r.rating()) + " by " + r.agentId() + " at "
                            + r.timestamp() + (r.comment().isEmpty() ? "" : ": " + oneLine(r.comment(), MAX_TEXT)))
                    .toList(), "no ratings yet"));
        }).takes("target_type?: string, target_id?: integer, limit?: integer");
    }

    private static Target target(Args args, String type) {
        return Target.of(type.strip()).orElseThrow(
                () -> args.bad("args.target_type must be stagnation_strategy or thinking_method"));
    }

    private static String line(Rated r) {
        return r.id() + ". " + r.name() + (r.type().isEmpty() ? "" : " (" + r.type() + ")")
                + (r.tags().isEmpty() ? "" : " [" + r.tags() + "]") + " " + format(r.reputation())
                + (r.active() ? "" : " INACTIVE" + (r.inactiveReason().isEmpty() ? "" : " (" + r.inactiveReason() + ")"))
                + ": " + oneLine(r.description(), MAX_TEXT);
    }

    /** A rating as shown: "+1" on a strategy's scale, "4/5" on a thinking method's. */
    private static String shown(Target target, long rating) {
        return target.min() < 0 ? (rating > 0 ? "+" : "") + rating : rating + "/" + target.max();
    }

    private static String format(double reputation) {
        return String.format(Locale.ROOT, "%.1f", reputation);
    }
}

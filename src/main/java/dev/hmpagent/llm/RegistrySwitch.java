package dev.hmpagent.llm;

import java.util.Objects;
import java.util.Optional;

/**
 * The reflex's "switch LLM": the next {@code llm_registry} entry by priority (a provider this agent speaks, a base URL
 * and a model) thinks until a novel reply, then the configured LLM again. The entry's key is read from the variable
 * it names and sent only to its own base URL.
 */
public final class RegistrySwitch {
    private final OtherLlms others;
    private final String mainModel;
    private final SwitchableLlm target;

    /** @param mainModel the model of the configured LLM, which a restore names */
    public RegistrySwitch(OtherLlms others, String mainModel, SwitchableLlm target) {
        this.others = Objects.requireNonNull(others, "others");
        this.mainModel = Objects.requireNonNull(mainModel, "mainModel");
        this.target = Objects.requireNonNull(target, "target");
    }

    /** Whether a switch may happen now: none is in force, and another LLM is there. */
    public boolean available() {
        return !target.switched() && next().isPresent();
    }

    /** Switches to the next entry; returns a line saying to what. */
    public String switchToNext() {
        OtherLlms.Entry e = next().orElseThrow(() -> new IllegalStateException("no other LLM is configured"));
        target.use(e.client());
        return "thinking with " + e.model() + " at " + e.shownUrl() + " (llm_registry " + e.id() + ") until a novel reply";
    }

    /** Back to the LLM in use before the switch, if one was in force; a line saying so. */
    public Optional<String> restore() {
        if (!target.useMain()) return Optional.empty();
        // the LLM it returns to is the one a person chose with /model, when they chose one (it wraps that choice)
        return Optional.of(target.model().equals(mainModel) ? "back to the configured LLM, " + mainModel
                : "back to " + target.model() + ", the LLM in use before the switch");
    }

    private Optional<OtherLlms.Entry> next() {
        return others.reachable().stream().findFirst();
    }
}

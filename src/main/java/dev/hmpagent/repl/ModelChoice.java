package dev.hmpagent.repl;

import java.util.List;
import java.util.Objects;

/**
 * The LLMs a person may have the cycle think with (/model): the configured one, the registry entries it can reach,
 * and any model by name at the configured endpoint (as {@code llm -m} and aider's {@code /model} take one). Each
 * entry's key goes only to its own base URL.
 */
public interface ModelChoice {
    /**
     * An entry one may switch to.
     *
     * @param id       what /model takes ({@code main} for the LLM agent.toml configures, else the llm_registry id)
     * @param name     the entry's name ("" when none)
     * @param model    the model it asks for
     * @param endpoint where requests go, credentials masked
     */
    record Choice(String id, String name, String model, String endpoint) {
        public Choice {
            Objects.requireNonNull(id, "id");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(model, "model");
            Objects.requireNonNull(endpoint, "endpoint");
        }
    }

    /**
     * What the cycle thinks with now, e.g. {@code model-b at http://host/v1 (llm_registry spare, chosen with /model)}:
     * the model and its endpoint, never a key.
     */
    String current();

    /** The entries one may switch to, the configured one first. */
    List<Choice> choices();

    /**
     * Sends the cycle's next calls to the entry {@code id} (one of {@link #choices()}); returns the line to show.
     *
     * @throws IllegalArgumentException when {@code id} is not one of the choices or cannot be reached (not an
     *                                  http(s) URL); its message is one line for the person
     */
    String use(String id);

    /**
     * Sends the cycle's next calls to model {@code name} at the configured LLM's endpoint, with its key and settings;
     * returns the line to show (which says so when the endpoint's own list does not name it).
     *
     * @throws IllegalArgumentException when {@code name} cannot be a model's name; its message is one line
     */
    String useModel(String name);

    /**
     * The names of the models the configured endpoint lists, sorted; the list is asked for once, the first time,
     * waiting at most {@code wait} for it. Empty when the endpoint did not (yet) say.
     */
    List<String> offered(java.time.Duration wait);

    /** Why {@link #offered} is empty ("" when it is not, or the list was not asked for yet). */
    default String notOffered() {
        return "";
    }
}

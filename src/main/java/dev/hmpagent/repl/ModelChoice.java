package dev.hmpagent.repl;

import java.util.List;
import java.util.Objects;

/**
 * The LLMs a person may have the cycle think with (/model): the configured one and the registry entries it can
 * reach. Only configured entries are offered; each entry's key goes only to its own base URL.
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
}

package dev.hmpagent.llm;

import java.util.List;

/**
 * The LLMs other than the configured one that a running agent may think with (the {@code llm_registry} entries), as
 * {@code llm} sees them: a port the runtime implements over the table and the configuration.
 */
public interface OtherLlms {
    /** One entry a client can be made for. */
    interface Entry {
        String id();

        String model();

        /** Its base URL, any credentials masked. */
        String shownUrl();

        /**
         * A client of its own: its provider, base URL and model, the key read from the variable the entry names and
         * sent only there.
         *
         * @throws IllegalArgumentException when the entry's base URL is not an http(s) URL
         */
        LlmClient client();
    }

    /** The entries other than the configured LLM a client can be made for, in priority order. */
    List<Entry> reachable();
}

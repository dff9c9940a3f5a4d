package dev.hmpagent.stagnation;

import java.util.Optional;

/** Another LLM to think with for a while (the registry's next entry); {@link #NONE} while there is none. */
public interface ModelSwitch {
    ModelSwitch NONE = new ModelSwitch() {
        @Override
        public boolean available() { return false; }

        @Override
        public String switchToNext() { throw new IllegalStateException("no other LLM is configured"); }

        @Override
        public Optional<String> restore() { return Optional.empty(); }
    };

    boolean available();

    /** Switches; returns a line saying to what. */
    String switchToNext();

    /** After a novel reply: back to the configured LLM; a line saying so when another one was in use. */
    Optional<String> restore();
}

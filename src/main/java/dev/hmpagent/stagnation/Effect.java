package dev.hmpagent.stagnation;

/**
 * What firing a strategy does here: the thirteen effects of the catalogue ({@code stagnation_strategies.effect}, a code
 * name), read once where the catalogue is read, and {@link #NONE} for a strategy hmp-agent does nothing for.
 */
enum Effect {
    /** Temperature and penalties up a step until a novel reply. */
    REFLEX_TUNING("reflex_tuning"),
    /** A diary entry far from the recent replies, into context 3. */
    FLASHBACK("flashback"),
    /** The concept untouched longest, into context 3. */
    INTEREST_MEMORY("interest_memory"),
    /** The meta-question, with the best-rated thinking method. */
    META_ANALYSIS("meta_analysis"),
    /** Restate the goal in one sentence. */
    GOAL_REFORMULATION("goal_reformulation"),
    /** A change of frame, picked at random. */
    CREATIVE_FRAME("creative_frame"),
    /** A command type the LLM may use, picked at random. */
    RANDOM_ACTION("random_action"),
    /** Context 1 shows one reply for a few ticks. */
    CHANGE_CONTEXT("change_context"),
    /** The pinned task frozen for a while, another pinned instead. */
    TASK_SWITCH("task_switch"),
    /** A question to the person. */
    ASK_PERSON("ask_person"),
    /** "What would you explore now?" to the peers [a2a] allows (issue 37); their answers come back as results. */
    MESH_REQUEST("mesh_request"),
    /** Another LLM of the registry thinks until a novel reply. */
    SWITCH_LLM("switch_llm"),
    /** The LLM idles for the configured sleep. */
    SLEEP("sleep"),
    /** Nothing here (NULL in the catalogue, or a code this version does not know): never available. */
    NONE("");

    private final String code;

    Effect(String code) {
        this.code = code;
    }

    /** The code name in {@code stagnation_strategies.effect}; empty for {@link #NONE}. */
    String code() {
        return code;
    }

    /**
     * Whether it changes more than the wording of the next replies: everything but the tuning and the meta-question.
     * A run with recent progress in the world gets only the gentle two (issue 23): a pause, another LLM, a hidden
     * history, a frozen task, a random command, a question to the person or to the mesh would stall work that is moving.
     */
    boolean strong() {
        return this != REFLEX_TUNING && this != META_ANALYSIS;
    }

    /** The effect of a code name; {@link #NONE} for null, blank or unknown. */
    static Effect of(String code) {
        if (code == null || code.isEmpty()) return NONE;
        for (Effect e : values()) {
            if (e.code.equals(code)) return e;
        }
        return NONE;
    }
}

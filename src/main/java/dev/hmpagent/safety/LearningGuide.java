package dev.hmpagent.safety;

/** {@code learning} (the default): a failure marks a boundary; find another way to the goal. */
final class LearningGuide implements Guide {
    @Override
    public String name() {
        return "learning";
    }

    @Override
    public String explain(FailureFact fact, int repeats) {
        String meaning = ErrorCode.EPERM.equals(fact.code())
                ? "You found a boundary: this is not allowed here. Find another way to reach your goal."
                : "You found a boundary: this way does not work. Find another way to reach your goal.";
        return Guides.fact(fact, repeats) + " " + meaning + " " + Guides.CHANGE_STRATEGY;
    }
}

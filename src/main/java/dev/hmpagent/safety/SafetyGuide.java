package dev.hmpagent.safety;

/** {@code safety}: a refusal (EPERM) is a violation not to be tried again; any other failure is not to be repeated. */
final class SafetyGuide implements Guide {
    @Override
    public String name() {
        return "safety";
    }

    @Override
    public String explain(FailureFact fact, int repeats) {
        String meaning = ErrorCode.EPERM.equals(fact.code())
                ? "This is a safety violation: the action is forbidden. Do not try it again, in this form or any other."
                : "The action failed; doing it again unchanged will fail again.";
        return Guides.fact(fact, repeats) + " " + meaning + " " + Guides.CHANGE_STRATEGY;
    }
}

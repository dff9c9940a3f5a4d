package dev.hmpagent.cli;

import dev.hmpagent.safety.ErrorCode;
import dev.hmpagent.safety.FailureFact;
import dev.hmpagent.safety.Guide;
import dev.hmpagent.safety.Guides;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What a command returned, read back from the text its {@code process_log} row keeps: that is what the LLM was shown,
 * the SafetyMonitor's words around the world's — an alert line before it, a stop line after it, and for a failure the
 * Guide's meaning ("PAIN low (0.3) from command shell: EEXIT(1): … This is failure 2 …"). A trace holds the world's
 * part alone, since that is what a replay feeds the rules again: the monitor's own words in it would make every
 * repeated result look new. A failure with EINVAL the Guide never explained was an argument slip of the model's (the
 * monitor passes those through untouched).
 *
 * @param output what the command returned (a failure: its message)
 * @param slip   the model's argument slip, which no rule counts
 */
record RecordedOutput(String output, boolean slip) {
    /** What the monitor puts after a result that stopped or rested the agent: "[the agent is locked: …]". */
    private static final Pattern STOP_LINE = Pattern.compile("\\n\\[the agent (?:is|rests)[^\\n]*\\]\\z");
    /** The poll hint the monitor puts after a result equal to the two before it. */
    private static final Pattern HINT_LINE = Pattern.compile("\\n\\(the same result as the two times before:[^\\n]*\\)\\z");
    private static final String ALERT = "SYSTEM ALERT:";
    private static final String MARK = "\u0001";

    /** The world's part of {@code shown}, the text of a row of command {@code type} with status failed or not. */
    static RecordedOutput of(String type, boolean failed, String code, String shown) {
        String text = HINT_LINE.matcher(STOP_LINE.matcher(shown).replaceFirst("")).replaceFirst("");
        while (text.startsWith(ALERT) && text.indexOf('\n') >= 0) text = text.substring(text.indexOf('\n') + 1);
        if (!failed || code == null || ErrorCode.ESANDBOX.equals(code)) return new RecordedOutput(text, false);
        Optional<String> detail = explained(type, code, text);
        if (detail.isPresent()) return new RecordedOutput(detail.get(), false);
        return new RecordedOutput(text, ErrorCode.EINVAL.equals(code) && !type.equals("chanting"));
    }

    /** The failure's message, when {@code text} is one of the Guides' explanations of it (any repeat count). */
    private static Optional<String> explained(String type, String code, String text) {
        for (String name : Guides.NAMES) {
            Guide guide = Guides.byName(name);
            FailureFact fact = FailureFact.command(type, "", code, MARK);
            String once = guide.explain(fact, 1);
            String twice = guide.explain(fact, 2);
            String tailOnce = once.substring(once.indexOf(MARK) + 1);
            String tailTwice = twice.substring(twice.indexOf(MARK) + 1);
            int count = tailTwice.indexOf('2');
            // the severity and pain are the fact's, which a refusal of the policy may set apart from the code's
            Pattern p = Pattern.compile("PAIN [a-z]+ \\([0-9.]+\\) from [a-z]+ " + Pattern.quote(type + ": " + code
                    + ": ") + "(.*?)(?:" + Pattern.quote(tailOnce) + "|" + Pattern.quote(tailTwice.substring(0, count))
                    + "\\d+" + Pattern.quote(tailTwice.substring(count + 1)) + ")", Pattern.DOTALL);
            Matcher m = p.matcher(text);
            if (m.matches()) return Optional.of(m.group(1));
        }
        return Optional.empty();
    }
}

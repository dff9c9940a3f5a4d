package dev.hmpagent.repl;

import dev.hmpagent.event.AgentEvent;
import dev.hmpagent.text.Text;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The one line a failing LLM gets while the agent waits to ask again: what failed, the try, when the next one comes,
 * the messages queued and the fix, in that order, fitted to the terminal: "no LLM at http://localhost:11434
 * (connection refused) · try 3 · next in 16 s · 1 message queued · start Ollama or set llm.base_url; /model to
 * switch". The LLM layer's own sentences (150 characters and more, with the advice inside) stay for /verbose full: a
 * narrower screen gets shorter words for the failure and the fix, never a line cut before the try and the wait.
 */
final class OutageLine {
    /** How the LLM layer begins its paragraph about an outage: shown at /verbose full only, the line says it all. */
    static final String PARAGRAPH = "No LLM answers";

    private static final Pattern UNREACHABLE = Pattern.compile("LLM endpoint (\\S+) is not reachable \\(([^)]*)\\)");
    private static final Pattern NO_HOST = Pattern.compile("LLM endpoint (\\S+): host \"([^\"]*)\" not found");
    private static final Pattern STATUS = Pattern.compile("LLM endpoint (\\S+) [^(]*\\(HTTP (\\d{3})");
    private static final Pattern SLOW = Pattern.compile("LLM endpoint (\\S+) did not (?:answer|accept|finish)");

    /** One failure said four ways, longest first; and its fix three ways (empty when there is none to give). */
    record Words(List<String> what, List<String> fix) { }

    private OutageLine() { }

    /** The line for {@code r} at {@code now}, at most {@code width} columns. */
    static String line(AgentEvent.Retrying r, Instant now, int queued, int width) {
        Words w = words(Printable.oneLine(r.text(), 2_000));
        long next = Math.max(0, (Duration.between(now, r.nextTry()).toMillis() + 999) / 1000);
        String timing = " · try " + r.attempt() + " · " + (next > 0 ? "next in " + next + " s" : "trying now");
        String many = queued == 1 ? " message" : " messages";
        String[] waiting = {queued > 0 ? " · " + queued + many + " queued" : "", queued > 0 ? " · " + queued + " queued" : "", ""};
        // (what, waiting, fix) from the richest to the barest: the first that fits is shown; why it failed outweighs
        // the queue, which the status line counts too
        int[][] levels = {{0, 0, 0}, {0, 0, 1}, {1, 1, 1}, {1, 2, 1}, {2, 1, 1}, {3, 1, 1}, {3, 2, 1}, {3, 1, 2}, {3, 2, 2}};
        String line = "";
        for (int[] l : levels) {
            String fix = w.fix().get(l[2]);
            line = w.what().get(l[0]) + timing + waiting[l[1]] + (fix.isEmpty() ? "" : " · " + fix);
            if (Wrap.columns(line, 0, line.length()) <= width) return line;
        }
        return Text.fit(line, width);
    }

    /** The failure and its fix in person's words, from the LLM layer's message. */
    static Words words(String text) {
        Matcher m = UNREACHABLE.matcher(text);
        if (m.find()) {
            String where = m.group(1);
            String server = where.contains(":11434") ? "Ollama" : "the LLM server";
            return new Words(List.of("no LLM at " + where + " (" + m.group(2) + ")",
                    "no LLM at " + bare(where) + " (" + m.group(2) + ")", "no LLM at " + bare(where), "no LLM"),
                    List.of("start " + server + " or set llm.base_url; /model to switch",
                            "start " + server + " or set llm.base_url", "set llm.base_url"));
        }
        if ((m = NO_HOST.matcher(text)).find()) {
            return new Words(List.of("no LLM at " + m.group(1) + " (host not found)", "host " + m.group(2) + " not found",
                    "host not found", "no host"),
                    List.of("check llm.base_url; /model to switch", "check llm.base_url", "llm.base_url"));
        }
        if ((m = STATUS.matcher(text)).find()) {
            String code = m.group(2);
            String what = code.equals("429") ? "rate limited (429)" : "LLM failed (HTTP " + code + ")";
            String tiny = code.equals("429") ? "rate limited" : "HTTP " + code;
            return new Words(List.of(what + " at " + m.group(1), what + " at " + bare(m.group(1)), what, tiny),
                    List.of("waits as the server asks; /model to switch", "/model to switch", "/model"));
        }
        if ((m = SLOW.matcher(text)).find()) {
            return new Words(List.of("no answer in time from " + m.group(1), "no answer in time from " + bare(m.group(1)),
                    "no answer in time", "slow"),
                    List.of("raise llm.read_timeout_s; /model to switch", "llm.read_timeout_s or /model", "/model"));
        }
        String what = text;
        for (String end : List.of(" — ", ": ")) {
            int at = what.indexOf(end);
            if (at > 0) what = what.substring(0, at);
        }
        return new Words(List.of(what, Text.fit(what, 60), Text.fit(what, 30), Text.fit(what, 16)),
                List.of("", "", ""));
    }

    /** {@code http://localhost:11434/v1} as {@code localhost:11434}: the scheme and path add nothing to the line. */
    private static String bare(String url) {
        String s = url.replaceFirst("^[a-z]+://", "");
        int slash = s.indexOf('/');
        return slash > 0 ? s.substring(0, slash) : s;
    }
}

package dev.hmpagent.safety;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * The identity of an operation for counting repeats: the first 16 hex characters of SHA-256 over
 * {@code type:canonical-args-json}. Canonical means object keys sorted at every depth and no
 * whitespace, so key order and formatting never change it; {@code cmd_id} and {@code description}
 * are not part of the arguments. Computable before the command runs, so a repeat can be refused first.
 */
public final class Fingerprint {
    private Fingerprint() { }

    /**
     * The fingerprint of a command: its type and arguments, with fresh ids folded (a UUID, a run of 32 or more hex
     * digits): the same failing command with a new request id or a new generated name in it is the same attempt
     * (issue 23: it alerts at 3 and locks at 5 like its twin, where it was a new command each time).
     */
    public static String ofCommand(String type, JsonNode args) {
        String canonical = canonical(args == null ? JsonNodeFactory.instance.objectNode() : args);
        return hash(type + ":" + FRESH_IDS.matcher(canonical).replaceAll("#id"));
    }

    /** Ids made afresh for every attempt: UUIDs (any version), and hex runs as long as an MD5 or longer. */
    private static final java.util.regex.Pattern FRESH_IDS = java.util.regex.Pattern.compile(
            "(?i)(?<![0-9a-f])(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32,})(?![0-9a-f])");

    /**
     * The fingerprint of a failure that is not a command (a malformed command, a failed LLM call): its kind
     * and its message with numbers folded and case ignored, so "position 3" and "position 4" count as one.
     */
    public static String ofFailure(String kind, String message) {
        String normalised = message.strip().toLowerCase(Locale.ROOT).replaceAll("\\d+", "#").replaceAll("\\s+", " ");
        return hash(kind + ":" + normalised);
    }

    /** Ids the agent hands out in its own commands' results. */
    private static final java.util.regex.Pattern IDS = java.util.regex.Pattern.compile(
            "(?i)\\b((?:note|notes|id|ids|entry|entries|row|rows|tick|pid|process|link|concept|memory entry|diary entry"
                    + "|goal|task|version|rating|peer|user|service|account|script|table)\\s*#?\\s*)\\d+");
    /** The process runner's own first line: "exit 0 after 1.2 s". */
    private static final java.util.regex.Pattern RUNNER_HEADER = java.util.regex.Pattern.compile(
            "\\A(.*?\\bafter )\\d+(?:\\.\\d+)? s\\b");
    /** Commands whose result is what the outside world printed: only the runner's own timing is folded. */
    private static final java.util.Set<String> EXTERNAL = java.util.Set.of("shell", "script_run", "llm_task");

    /**
     * The key of a command together with what it returned, for no-progress loops: its type, canonical arguments
     * and result, hashed. Only what the agent itself varies is folded: for its own commands the ids it hands out
     * ("message delivered (note 31)" and "(note 32)" are one result), for a process or a delegated call only the
     * runner's timing line ("exit 0 after 0.1 s"); the outside world's own numbers ("imported row 1200 of 5000",
     * a job at 45 %, then 46 %) are progress, never folded.
     */
    public static String ofProgress(String type, JsonNode args, String result) {
        String r = result.strip();
        String folded = EXTERNAL.contains(type) ? RUNNER_HEADER.matcher(r).replaceFirst("$1# s")
                : IDS.matcher(r).replaceAll("$1#");
        return hash(type + ":" + canonical(args == null ? JsonNodeFactory.instance.objectNode() : args) + "="
                + folded.replaceAll("\\s+", " "));
    }

    /** The JSON text with object keys sorted at every depth, arrays in their order, no whitespace. */
    public static String canonical(JsonNode node) {
        return sorted(node).toString();
    }

    private static JsonNode sorted(JsonNode node) {
        if (node.isObject()) {
            List<String> names = new ArrayList<>();
            node.fieldNames().forEachRemaining(names::add);
            names.sort(null);
            ObjectNode out = JsonNodeFactory.instance.objectNode();
            for (String name : names) out.set(name, sorted(node.get(name)));
            return out;
        }
        if (node.isArray()) {
            var out = JsonNodeFactory.instance.arrayNode();
            node.forEach(child -> out.add(sorted(child)));
            return out;
        }
        return node;
    }

    private static String hash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }
}

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

    /** The fingerprint of a command: its type and arguments. */
    public static String ofCommand(String type, JsonNode args) {
        return hash(type + ":" + canonical(args == null ? JsonNodeFactory.instance.objectNode() : args));
    }

    /**
     * The fingerprint of a failure that is not a command (a malformed command, a failed LLM call): its kind
     * and its message with numbers folded and case ignored, so "position 3" and "position 4" count as one.
     */
    public static String ofFailure(String kind, String message) {
        String normalised = message.strip().toLowerCase(Locale.ROOT).replaceAll("\\d+", "#").replaceAll("\\s+", " ");
        return hash(kind + ":" + normalised);
    }

    /**
     * The key of a command together with what it returned, for no-progress loops: its type, canonical arguments
     * and result with the ids the agent gives and durations folded ("message delivered (note 31)" and "(note 32)"
     * are one result; "exit 0 after 0.1 s" and "after 0.2 s" too), hashed.
     */
    private static final java.util.regex.Pattern IDS = java.util.regex.Pattern.compile(
            "(?i)\\b((?:note|notes|id|ids|entry|entries|row|rows|tick|pid|process|link|concept|memory entry|diary entry"
                    + "|goal|task|version|rating|peer|user|service|account|script|table)\\s*#?\\s*)\\d+");
    private static final java.util.regex.Pattern DURATIONS = java.util.regex.Pattern.compile("\\d+(?:\\.\\d+)?\\s*(ms|s)\\b");

    public static String ofProgress(String type, JsonNode args, String result) {
        // only what the agent itself numbers (a new note, entry or row id each time) and how long it took are
        // folded: a result whose own numbers change (a job at 45 %, then 46 %) is progress, not a loop
        String folded = IDS.matcher(result.strip()).replaceAll("$1#");
        folded = DURATIONS.matcher(folded).replaceAll("# $1").replaceAll("\\s+", " ");
        return hash(type + ":" + canonical(args == null ? JsonNodeFactory.instance.objectNode() : args) + "=" + folded);
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

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
    static final java.util.regex.Pattern FRESH_IDS = java.util.regex.Pattern.compile(
            "(?i)(?<![0-9a-f])(?:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}|[0-9a-f]{32,})(?![0-9a-f])");

    /**
     * The fingerprint of a failure that is not a command (a malformed command, a failed LLM call): its kind
     * and its message with numbers folded and case ignored, so "position 3" and "position 4" count as one.
     */
    public static String ofFailure(String kind, String message) {
        String normalised = message.strip().toLowerCase(Locale.ROOT).replaceAll("\\d+", "#").replaceAll("\\s+", " ");
        return hash(kind + ":" + normalised);
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

    /** The first 16 hex characters of the SHA-256 of {@code text}. */
    public static String hashText(String text) {
        return hash(text);
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

package dev.hmpagent.mcp;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.hmpagent.commands.Param;
import dev.hmpagent.commands.Signature;
import dev.hmpagent.text.Text;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * One tool an MCP server listed: its server, its name, its description and the JSON Schema of its arguments, as the
 * server gave them. It is the command {@code mcp.<server>.<tool>}, whose signature is read from that schema.
 */
public record McpTool(String server, String name, String description, ObjectNode schema) {
    /** The longest description context 0 shows of one tool. */
    static final int MAX_DESCRIPTION = 200;
    /** The longest signature (its type and arguments) context 0 shows of one tool. */
    static final int MAX_SIGNATURE = 200;
    /**
     * The names a tool may have to be offered to the LLM (MCP's own rule for tool names): no space, quote, bracket
     * or line break, so a name can neither end its line of context 0 nor pass for anything but {@code mcp.<server>.<name>}.
     */
    private static final java.util.regex.Pattern NAME = java.util.regex.Pattern.compile("[A-Za-z0-9_.-]{1,128}");
    /** A passed value shorter than this is not searched for in a tool's text: it would blot out ordinary words. */
    private static final int MIN_SECRET = 8;
    private static final String REDACTED = "[redacted]";
    private static final Set<String> KINDS = Set.of("string", "integer", "number", "boolean", "array", "object");

    public McpTool {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(description, "description");
        schema = Objects.requireNonNull(schema, "schema").deepCopy();
    }

    /**
     * The tool as listed, with every value in {@code secrets} (what the entry's {@code env} and {@code headers} pass
     * the server) replaced by {@code [redacted]} in its description and schema: a server's tool list is shown to the
     * model, and a server knows those values.
     */
    static McpTool redacted(String server, String name, String description, ObjectNode schema, List<String> secrets) {
        String text = schema.toString();
        String shown = description;
        for (String s : secrets) {
            if (s.length() < MIN_SECRET) continue;
            shown = shown.replace(s, REDACTED);
            // in the schema's JSON text the value stands as a JSON string would hold it
            text = text.replace(new String(com.fasterxml.jackson.core.io.JsonStringEncoder.getInstance()
                    .quoteAsString(s)), REDACTED);
        }
        com.fasterxml.jackson.databind.ObjectMapper json = Json.mapper();
        try {
            return new McpTool(server, name, shown, (ObjectNode) json.readTree(text));
        } catch (com.fasterxml.jackson.core.JsonProcessingException | ClassCastException e) {
            return new McpTool(server, name, shown, json.createObjectNode());   // cannot happen: the text was JSON
        }
    }

    /** A copy of the schema. */
    @Override
    public ObjectNode schema() { return schema.deepCopy(); }

    /** The command type: {@code mcp.<server>.<tool>}. */
    public String type() {
        return McpServers.PREFIX + server + "." + name;
    }

    /**
     * The arguments as our signatures say them: one parameter per property of the schema, its JSON type when it
     * names one of ours (else any value), required as the schema says.
     */
    public Signature signature() {
        Set<String> required = new HashSet<>();
        schema.path("required").forEach(n -> required.add(n.asText()));
        List<Param> params = new ArrayList<>();
        for (Map.Entry<String, com.fasterxml.jackson.databind.JsonNode> p : schema.path("properties").properties()) {
            if (p.getKey().isBlank()) continue;
            String type = p.getValue().path("type").asText("");
            Param.Kind kind = KINDS.contains(type) ? Param.Kind.of(type) : Param.Kind.ANY;
            params.add(new Param(p.getKey(), kind, required.contains(p.getKey()), List.of()));
        }
        return new Signature(params);
    }

    /**
     * Context 0's line: {@code mcp.files.read_file(path: string) — Read a file}, the server's words on one line, its
     * signature and its description each cut at 200 characters, a cut saying how much it left out.
     */
    public String line() {
        String what = cut(description, MAX_DESCRIPTION);
        return cut(signature().line(type()), MAX_SIGNATURE) + (what.isEmpty() ? "" : " — " + what);
    }

    /**
     * A listing's line ({@code agent mcp list}, {@code /mcp}): the signature and the first sentence (or line) of the
     * description, within {@code width} characters, "…" where cut. A description is often a paragraph or a page: a
     * listing is for finding a tool, the whole text is what the LLM reads ({@link #line}).
     */
    public String shortLine(int width) {
        String first = firstSentence(description);
        String signature = signature().line(type());
        return Text.fit(first.isEmpty() ? signature : signature + " — " + first, width);
    }

    /** A sentence ends at . ! or ? after a small letter, a digit or a bracket, before a capital or the line's end. */
    private static final java.util.regex.Pattern SENTENCE_END = java.util.regex.Pattern.compile(
            "(?<=[a-z0-9)\\]\"'`])[.!?](?=\\s+[A-Z]|\\s*$)");

    /** The first sentence of {@code s}'s first line, white space collapsed. */
    static String firstSentence(String s) {
        String line = Text.collapse(Text.firstLine(s));
        java.util.regex.Matcher end = SENTENCE_END.matcher(line);
        return end.find() ? line.substring(0, end.end()) : line;
    }

    /** Whether the name is one MCP allows (letters, digits, {@code _ - .}, 1 to 128): others are not offered. */
    public boolean validName() {
        return NAME.matcher(name).matches();
    }

    /** {@code s} on one line, cut at {@code max} characters with "… (N more chars)". */
    private static String cut(String s, int max) {
        String one = Text.collapse(s);
        if (one.length() <= max) return one;
        String kept = Text.cut(one, max);
        return kept + " (" + (one.length() - kept.length() + 1) + " more chars)";
    }
}

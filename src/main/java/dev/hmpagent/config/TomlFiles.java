package dev.hmpagent.config;

import dev.hmpagent.text.Text;
import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectReader;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/** Reads a TOML file into flat {@code section.key -> node} entries, in file order. */
final class TomlFiles {
    private static final ObjectReader READER = new TomlMapper().reader();

    private TomlFiles() {
    }

    /**
     * Empty when the file does not exist and is not required.
     *
     * @param required true for a file named by --config: then a missing file is an error
     */
    static Optional<Map<String, JsonNode>> read(Path file, boolean required) {
        if (!Files.exists(file)) {
            if (required) {
                throw new ConfigException("config file " + file + " (given by --config) does not exist");
            }
            return Optional.empty();
        }
        if (!Files.isRegularFile(file)) {
            throw new ConfigException("config file " + file + " is not a regular file");
        }
        Map<String, JsonNode> flat = new LinkedHashMap<>();
        flatten("", parse(file, readText(file)), flat);
        return Optional.of(Collections.unmodifiableMap(flat));
    }

    /**
     * One TOML value written as text, e.g. {@code ["ls", "git status"]} from an env var. Only the value
     * is read: text after it that would start another key is a syntax error, never a second key.
     */
    static JsonNode parseValue(String text) throws InvalidValueException {
        if (text.contains("\n") || text.contains("\r")) {
            throw new InvalidValueException("spans more than one line");
        }
        try {
            JsonNode node = READER.readTree("v = " + text).get("v");
            if (node == null) {
                throw new InvalidValueException("is not a valid TOML value");
            }
            return node;
        } catch (JacksonException e) {
            throw new InvalidValueException("is not a valid TOML array");
        }
    }

    private static String readText(Path file) {
        try {
            return Files.readString(file);
        } catch (CharacterCodingException e) {
            throw new ConfigException("config file " + file + " is not valid UTF-8");
        } catch (IOException e) {
            throw new ConfigException("cannot read config file " + file + ": " + e.getClass().getSimpleName(), e);
        }
    }

    /** Jackson's TOML messages are generic ("Unknown token"); the value itself is never echoed. */
    private static JsonNode parse(Path file, String text) {
        try {
            return READER.readTree(text);
        } catch (JacksonException e) {
            throw new ConfigException("cannot parse config file " + file + ": " + where(e.getLocation())
                    + firstLine(e.getOriginalMessage()) + " (check the TOML syntax; see agent.example.toml)");
        }
    }

    private static String where(JsonLocation location) {
        if (location == null || location.getLineNr() < 1) {
            return "";
        }
        String column = location.getColumnNr() > 0 ? ", column " + location.getColumnNr() : "";
        return "line " + location.getLineNr() + column + ": ";
    }

    private static String firstLine(String message) {
        return message == null || message.isBlank() ? "syntax error" : Text.firstLine(message);
    }

    private static void flatten(String prefix, JsonNode node, Map<String, JsonNode> out) {
        if (node == null || node.isMissingNode()) {
            return;
        }
        // a key whose value is itself a table (llm.options) is one value, not a section of keys
        if (!node.isObject() || ConfigKey.byName(prefix).filter(k -> k.type() instanceof ValueType.Options).isPresent()) {
            out.put(prefix, node);
            return;
        }
        node.properties().forEach(field -> flatten(
                prefix.isEmpty() ? field.getKey() : prefix + "." + field.getKey(), field.getValue(), out));
    }
}

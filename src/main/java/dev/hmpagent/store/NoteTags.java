package dev.hmpagent.store;

import dev.hmpagent.text.Json;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The hashtags ({@code #word}) and mentions ({@code @name}) of a note's text, parsed once when the note is
 * created (the HMP way: receivers never parse) into the {@code hashtags} and {@code mentions} columns as
 * JSON arrays. A {@code #} or {@code @} inside a word ({@code page#top}, {@code bob@example.com}) or a path
 * or URL ({@code /#x}) is not one. Hashtags start with a letter (so {@code #1} is a number) and are stored
 * lower-cased without the {@code #}; mentions keep their case (DIDs such as {@code @did:hmp:abc} included).
 */
public final class NoteTags {
    private static final Pattern HASHTAG = Pattern.compile("(?<![\\p{L}\\p{N}_#/&@])#(\\p{L}[\\p{L}\\p{N}_-]*)");
    private static final Pattern MENTION = Pattern.compile("(?<![\\p{L}\\p{N}_@./#])@([\\p{L}\\p{N}_][\\p{L}\\p{N}_.:-]*)");
    private static final ObjectMapper JSON = Json.mapper();

    private NoteTags() { }

    /** The hashtags in {@code text}, lower-cased, each once, in order of appearance. */
    public static List<String> hashtags(String text) {
        return find(HASHTAG, text, true);
    }

    /** The mentions in {@code text} as written, each once, in order of appearance. */
    public static List<String> mentions(String text) {
        return find(MENTION, text, false);
    }

    private static List<String> find(Pattern pattern, String text, boolean lower) {
        Set<String> found = new LinkedHashSet<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            String word = m.group(1).replaceAll("[-.:]+$", "");
            if (!word.isEmpty()) found.add(lower ? word.toLowerCase(Locale.ROOT) : word);
        }
        return List.copyOf(found);
    }

    static String toJson(List<String> values) {
        try {
            return JSON.writeValueAsString(values);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a list of strings is always JSON", e);
        }
    }

    /** A JSON array of strings from the database; anything else (NULL, damaged text) reads as empty. */
    static List<String> fromJson(String json) {
        if (json == null || json.isBlank()) return List.of();
        try {
            return List.copyOf(JSON.readValue(json, new TypeReference<ArrayList<String>>() { }));
        } catch (JsonProcessingException e) {
            return List.of();
        }
    }
}

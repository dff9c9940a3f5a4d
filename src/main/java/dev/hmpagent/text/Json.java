package dev.hmpagent.text;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;

/**
 * The one place JSON mappers are made, so every room's mapper starts from the same settings and none drifts from the
 * others (issue 36: 25 were made by hand). A mapper is safe to share once made: a class keeps its own in a field.
 * What a caller needs beyond the shared settings (a lenient reader, sorted keys) it asks of the mapper's reader or
 * writer, which leaves the mapper as it is.
 */
public final class Json {
    private Json() { }

    /** A mapper with the project's settings. */
    public static ObjectMapper mapper() {
        return builder().build();
    }

    /** The project's settings, for a caller that adds features of its own before it builds. */
    public static JsonMapper.Builder builder() {
        return JsonMapper.builder();
    }

    /** As {@link #builder()}, its parsers made by {@code factory} (limits of their own: a nesting depth, say). */
    public static JsonMapper.Builder builder(JsonFactory factory) {
        return JsonMapper.builder(factory);
    }
}

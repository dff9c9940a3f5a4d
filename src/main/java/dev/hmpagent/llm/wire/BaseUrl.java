package dev.hmpagent.llm.wire;

import okhttp3.HttpUrl;

import java.util.Objects;

/**
 * A configured base URL (llm.base_url), read once: without trailing slashes, checked to be http(s), with the form
 * shown to the user (no credentials, no query) and the URLs of the paths an adapter calls under it.
 */
public final class BaseUrl {
    private final String base;
    private final HttpUrl parsed;
    private final String endpoint;

    private BaseUrl(String base, HttpUrl parsed) {
        this.base = base;
        this.parsed = parsed;
        this.endpoint = stripTrailingSlashes(parsed.newBuilder().username("").password("").query(null).build().toString());
    }

    /** @throws IllegalArgumentException naming llm.base_url when {@code configured} is not an http(s) URL */
    public static BaseUrl parse(String configured) {
        String base = stripTrailingSlashes(Objects.requireNonNull(configured, "configured").strip());
        HttpUrl parsed = HttpUrl.parse(base);
        if (parsed == null) throw new IllegalArgumentException("llm.base_url is not an http(s) URL: " + base);
        return new BaseUrl(base, parsed);
    }

    /** The base without trailing slashes, as configured. */
    public String text() { return base; }

    /** Where requests go, for messages to the user: no credentials, no query, no trailing slash. */
    public String endpoint() { return endpoint; }

    public String host() { return parsed.host(); }

    /** Whether the base's path ends with {@code segment} ("/v1"). */
    public boolean pathEndsWith(String segment) {
        return stripTrailingSlashes(parsed.encodedPath()).endsWith(segment);
    }

    /** The base followed by {@code path}, which starts with "/". */
    public HttpUrl resolve(String path) {
        return HttpUrl.get(base + path);
    }

    private static String stripTrailingSlashes(String s) {
        String out = s;
        while (out.endsWith("/")) out = out.substring(0, out.length() - 1);
        return out;
    }
}

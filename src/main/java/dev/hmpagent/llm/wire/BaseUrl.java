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

    /**
     * Whether the server is on this machine or the local network (loopback, a private or link-local address,
     * {@code localhost}, a {@code .local} or {@code .localhost} name): a server a person runs themselves, often with one
     * slot for its prompt cache. Names are not looked up.
     */
    public boolean local() {
        String host = parsed.host().toLowerCase(java.util.Locale.ROOT);
        if (host.equals("localhost") || host.endsWith(".localhost") || host.endsWith(".local")) return true;
        // HttpUrl gives an address in canonical form: dotted IPv4, or IPv6 without brackets
        if (!host.contains(":") && !host.matches("[0-9]{1,3}(\\.[0-9]{1,3}){3}")) return false;
        try {
            java.net.InetAddress a = java.net.InetAddress.getByName(host);   // a literal: no lookup
            return a.isLoopbackAddress() || a.isSiteLocalAddress() || a.isLinkLocalAddress() || a.isAnyLocalAddress()
                    || (a.getAddress().length == 16 && (a.getAddress()[0] & 0xfe) == 0xfc);   // fc00::/7
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

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

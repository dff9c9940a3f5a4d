package dev.hmpagent.config;

import java.util.Locale;

/**
 * {@code OLLAMA_HOST} read the way Ollama's own client reads it, as the OpenAI-compatible base URL of that server:
 * {@code HOST}, {@code HOST:PORT}, {@code http://HOST:PORT} or {@code https://HOST}, optionally followed by a path;
 * the port defaults to 11434 without a scheme, to 80 after {@code http://} and 443 after {@code https://};
 * {@code ollama.com} alone means {@code https://ollama.com}. An address a server listens on ({@code 0.0.0.0},
 * {@code ::}, an empty host) means this machine. {@code /v1} is appended. Surrounding spaces and quotes are
 * ignored, as Ollama ignores them. Unlike Ollama, which falls back to the default port with a warning, a bad port
 * is an error: the user meant something and should hear about it. {@link #rootUrl} gives the same URL without
 * {@code /v1}, for Ollama's native API.
 */
public final class OllamaHost {
    /** The environment variable. */
    public static final String VARIABLE = "OLLAMA_HOST";

    /** What a person should write instead, for error messages. */
    static final String EXPECTED = "use HOST, HOST:PORT or http://HOST:PORT, e.g. 192.168.1.20:11434 "
            + "(or set llm.base_url, which wins)";

    private static final String DEFAULT_PORT = "11434";
    /** The longest part of a refused value an error message shows. */
    private static final int MAX_SHOWN = 60;

    private OllamaHost() {
    }

    /**
     * The root of the Ollama server to use when none is configured: the one {@code OLLAMA_HOST} names in {@code env}
     * (its root, without the {@code /v1} the OpenAI-compatible default has), else {@code http://localhost:11434}.
     *
     * @throws IllegalArgumentException when OLLAMA_HOST is set but unusable: one line naming it and the form expected
     */
    public static String defaultRootUrl(java.util.Map<String, String> env) {
        String raw = env.get(VARIABLE);
        return raw == null || raw.isBlank() ? "http://localhost:" + DEFAULT_PORT : rootUrl(raw);
    }

    /** E.g. {@code gpu-box} to {@code http://gpu-box:11434/v1}, {@code 0.0.0.0:8080} to {@code http://127.0.0.1:8080/v1}. */
    static String baseUrl(String raw) throws InvalidValueException {
        return root(raw) + "/v1";
    }

    /**
     * The root URL of the server the value names, for Ollama's native API ({@code /api/chat}, {@code /api/show}):
     * {@link #baseUrl} without its {@code /v1}, e.g. {@code gpu-box} to {@code http://gpu-box:11434}.
     *
     * @throws IllegalArgumentException when the value is unusable: one line naming the variable (any password masked),
     *                                  why, and the form expected
     */
    public static String rootUrl(String raw) {
        try {
            return root(raw);
        } catch (InvalidValueException e) {
            String shown = shown(raw);
            throw new IllegalArgumentException(VARIABLE + " = " + (shown.length() <= MAX_SHOWN ? shown
                    : shown.substring(0, MAX_SHOWN) + "…") + " " + e.reason() + ": " + EXPECTED, e);
        }
    }

    static String root(String raw) throws InvalidValueException {
        String s = raw.strip().replaceAll("^[\"']+|[\"']+$", "").strip();
        String scheme = "http";
        String defaultPort = DEFAULT_PORT;
        String rest = s;
        int sep = s.indexOf("://");
        if (sep >= 0) {
            scheme = s.substring(0, sep).toLowerCase(Locale.ROOT);
            rest = s.substring(sep + 3);
            defaultPort = switch (scheme) {
                case "http" -> "80";
                case "https" -> "443";
                default -> throw new InvalidValueException("has a scheme other than http:// or https://");
            };
        } else if (s.equals("ollama.com")) {
            scheme = "https";
            defaultPort = "443";
        }
        int slash = rest.indexOf('/');
        String hostPort = slash < 0 ? rest : rest.substring(0, slash);
        String path = slash < 0 ? "" : rest.substring(slash).replaceAll("/+$", "");
        String[] hp = splitHostPort(hostPort, defaultPort);
        String port = port(hp[1]);
        String host = host(hp[0]);
        boolean standardPort = port.equals(scheme.equals("https") ? "443" : "80");
        String url = scheme + "://" + host + (standardPort ? "" : ":" + port) + path;
        ValueType.httpUrl().parse(url);
        return url;
    }

    /** {host, port}; the host still bracketed when it is an IPv6 address given with brackets. */
    private static String[] splitHostPort(String hostPort, String defaultPort) throws InvalidValueException {
        if (hostPort.startsWith("[")) {
            int close = hostPort.indexOf(']');
            if (close < 0) throw new InvalidValueException("has a [ with no ] around its IPv6 address");
            String after = hostPort.substring(close + 1);
            if (!after.isEmpty() && !after.startsWith(":")) {
                throw new InvalidValueException("has text after the ] of its IPv6 address");
            }
            return new String[] {hostPort.substring(0, close + 1), orDefault(after.isEmpty() ? "" : after.substring(1), defaultPort)};
        }
        int colon = hostPort.indexOf(':');
        if (colon < 0) return new String[] {hostPort, defaultPort};
        if (hostPort.indexOf(':', colon + 1) >= 0) {   // an IPv6 address without brackets, or nothing we know
            if (!hostPort.matches("[0-9A-Fa-f:.]+")) throw new InvalidValueException("is not a host name or address");
            return new String[] {"[" + hostPort + "]", defaultPort};
        }
        return new String[] {hostPort.substring(0, colon), orDefault(hostPort.substring(colon + 1), defaultPort)};
    }

    private static String orDefault(String port, String defaultPort) {
        return port.isEmpty() ? defaultPort : port;
    }

    private static String port(String port) throws InvalidValueException {
        if (!port.matches("[0-9]{1,5}") || Integer.parseInt(port) < 1 || Integer.parseInt(port) > 65_535) {
            throw new InvalidValueException("has a port that is not a number from 1 to 65535");
        }
        return String.valueOf(Integer.parseInt(port));
    }

    /** The host as it goes in a URL; a listening address becomes this machine's loopback address. */
    private static String host(String host) throws InvalidValueException {
        if (host.startsWith("[")) {
            String address = host.substring(1, host.length() - 1);
            if (!address.matches("[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*")) {
                throw new InvalidValueException("has a bracketed host that is not an IPv6 address");
            }
            return address.replaceAll("[0:.]", "").isEmpty() ? "[::1]" : host;
        }
        if (host.isEmpty() || host.equals("0.0.0.0")) return "127.0.0.1";
        if (!host.matches("[A-Za-z0-9]([A-Za-z0-9.-]*[A-Za-z0-9])?")) {
            throw new InvalidValueException("is not a host name or address");
        }
        return host;
    }

    /** The value as an error may show it: any user:password@ masked, on one line. */
    static String shown(String raw) {
        String masked = raw.replaceFirst("^([^@/]*://)?[^@/]*@", "$1****@");
        return masked.replace("\r", "\\r").replace("\n", "\\n").replace("\t", "\\t");
    }
}

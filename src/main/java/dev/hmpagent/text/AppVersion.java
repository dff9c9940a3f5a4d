package dev.hmpagent.text;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * The program's version, for every room that names it ({@code agent --version}, the A2A agent card, the MCP client):
 * the Maven project's, which the build writes into {@value #RESOURCE} when it copies the resources, so the jar and
 * target/classes agree; a copy that was never filtered (classes built outside Maven) falls back to the jar manifest's
 * Implementation-Version, then to "unknown".
 */
public final class AppVersion {
    public static final String RESOURCE = "/dev/hmpagent/version.properties";

    private AppVersion() { }

    public static String current() {
        return pick(fromResource(), AppVersion.class.getPackage().getImplementationVersion());
    }

    /** The resource's version if Maven filled it in, else the manifest's (may be null), else "unknown". */
    public static String pick(String fromResource, String fromManifest) {
        if (!fromResource.isBlank() && !fromResource.contains("${")) return fromResource.strip();
        if (fromManifest != null && !fromManifest.isBlank()) return fromManifest.strip();
        return "unknown";
    }

    /** The {@code version} property of {@value #RESOURCE}, or "" when there is none. */
    private static String fromResource() {
        try (InputStream in = AppVersion.class.getResourceAsStream(RESOURCE)) {
            if (in == null) return "";
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "");
        } catch (IOException e) {
            return "";
        }
    }
}

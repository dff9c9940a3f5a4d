package dev.hmpagent.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/**
 * {@code agent --version}: one line, {@code hmp-agent <version>}. The version is the Maven project's, which the
 * build writes into {@value #RESOURCE} when it copies the resources, so the jar and target/classes agree; a copy
 * that was never filtered (classes built outside Maven) falls back to the jar manifest's Implementation-Version,
 * then to "unknown".
 */
final class Version implements CommandLine.IVersionProvider {
    static final String RESOURCE = "/dev/hmpagent/version.properties";

    @Override
    public String[] getVersion() {
        return new String[] {line()};
    }

    /** The one line {@code agent --version} prints. */
    static String line() {
        return "hmp-agent " + current();
    }

    static String current() {
        return pick(fromResource(), Version.class.getPackage().getImplementationVersion());
    }

    /** The resource's version if Maven filled it in, else the manifest's (may be null), else "unknown". */
    static String pick(String fromResource, String fromManifest) {
        if (!fromResource.isBlank() && !fromResource.contains("${")) return fromResource.strip();
        if (fromManifest != null && !fromManifest.isBlank()) return fromManifest.strip();
        return "unknown";
    }

    /** The {@code version} property of {@value #RESOURCE}, or "" when there is none. */
    private static String fromResource() {
        try (InputStream in = Version.class.getResourceAsStream(RESOURCE)) {
            if (in == null) return "";
            Properties properties = new Properties();
            properties.load(in);
            return properties.getProperty("version", "");
        } catch (IOException e) {
            return "";
        }
    }
}

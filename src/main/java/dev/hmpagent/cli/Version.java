package dev.hmpagent.cli;

import dev.hmpagent.text.AppVersion;
import picocli.CommandLine;

/** {@code agent --version}: one line, {@code hmp-agent <version>} ({@link AppVersion}: the one place it is read). */
final class Version implements CommandLine.IVersionProvider {
    static final String RESOURCE = AppVersion.RESOURCE;

    @Override
    public String[] getVersion() {
        return new String[] {line()};
    }

    /** The one line {@code agent --version} prints. */
    static String line() {
        return "hmp-agent " + current();
    }

    static String current() {
        return AppVersion.current();
    }

    /** See {@link AppVersion#pick}. */
    static String pick(String fromResource, String fromManifest) {
        return AppVersion.pick(fromResource, fromManifest);
    }
}

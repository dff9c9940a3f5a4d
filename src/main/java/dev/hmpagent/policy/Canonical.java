package dev.hmpagent.policy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * A path with every symbolic link and {@code ..} resolved by the file system as far as the path
 * exists, and the rest (a file not yet written) appended plainly.
 *
 * @param path    absolute and canonical
 * @param exists  whether the whole path exists
 * @param problem why it could not be resolved (a dangling or looping link); empty when it could
 */
public record Canonical(Path path, boolean exists, String problem) {

    public static Canonical of(Path absolute) {
        if (!absolute.isAbsolute()) {
            throw new IllegalArgumentException("not absolute: " + absolute);
        }
        Path current = absolute.getRoot();
        boolean existing = true;
        for (Path element : absolute) {
            String name = element.toString();
            if (name.equals(".")) {
                continue;
            }
            if (name.equals("..")) {
                current = current.getParent() == null ? current : current.getParent();
                continue;
            }
            Path next = current.resolve(name);
            if (existing && Files.exists(next, LinkOption.NOFOLLOW_LINKS)) {
                try {
                    next = next.toRealPath();
                } catch (IOException e) {
                    return new Canonical(next, false, next + " is a symbolic link that leads nowhere");
                }
            } else {
                existing = false;
            }
            current = next;
        }
        return new Canonical(current, existing, "");
    }
}

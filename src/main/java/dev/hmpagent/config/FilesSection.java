package dev.hmpagent.config;

import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * The [files] section: where file commands may reach and how much they move.
 *
 * @param roots         directories the LLM's file commands and shell working directories stay inside;
 *                      empty means {@code workspace/} beside the database (see {@code FileRoots})
 * @param maxReadBytes  the largest file {@code file_read} returns
 * @param maxWriteBytes the largest content {@code file_write} accepts
 */
public record FilesSection(List<Path> roots, int maxReadBytes, int maxWriteBytes) {
    public FilesSection {
        roots = List.copyOf(Objects.requireNonNull(roots, "roots"));
    }
}

package dev.hmpagent.commands.catalogue;

import dev.hmpagent.commands.CommandHandler;
import dev.hmpagent.commands.CommandOutcome;
import dev.hmpagent.commands.SimpleCommand;
import dev.hmpagent.policy.FileResult;
import dev.hmpagent.policy.FileRoots;
import java.util.List;
import java.util.Objects;

/**
 * {@code file_read}, {@code file_write}, {@code file_list}: inside the configured roots only (paths
 * canonicalised, checked on the file actually opened, the control surface never), with size caps. A refusal is a
 * failure with its code (EPERM outside the roots, ENOENT, EFBIG…), shown to the LLM like any other failure.
 */
public final class FileCommands {
    static final int MAX_LIST_ENTRIES = 200;

    private final FileRoots roots;
    private final long maxReadBytes;
    private final long maxWriteBytes;

    public FileCommands(FileRoots roots, long maxReadBytes, long maxWriteBytes) {
        this.roots = Objects.requireNonNull(roots, "roots");
        if (maxReadBytes < 1 || maxWriteBytes < 1) throw new IllegalArgumentException("size caps must be positive");
        this.maxReadBytes = maxReadBytes;
        this.maxWriteBytes = maxWriteBytes;
    }

    public List<CommandHandler> all() {
        return List.of(fileRead(), fileWrite(), fileList());
    }

    private CommandHandler fileRead() {
        return SimpleCommand.informing("file_read", "read a text file under the workspace roots",
                "{\"path\": \"notes/plan.md\"}", (args, ctx) -> {
            FileResult<FileRoots.FileText> r = roots.openForRead(args.requiredText("path"), maxReadBytes);
            if (!r.ok()) return CommandOutcome.error(r.code(), "file_read: " + r.message());
            return CommandOutcome.ok(r.value().path() + " (" + r.value().bytes() + " bytes):\n" + r.value().text());
        }).takes("path|filename|file: string");
    }

    private CommandHandler fileWrite() {
        return new SimpleCommand("file_write", "write (create or replace) a text file under the workspace roots",
                "{\"path\": \"notes/plan.md\", \"content\": \"...\"}", (args, ctx) -> {
            String path = args.requiredText("path");
            String content = args.optionalText("content").orElseThrow(() -> args.bad("args.content is required (a string)"));
            FileResult<FileRoots.Written> r = roots.write(path, content, maxWriteBytes);
            if (!r.ok()) return CommandOutcome.error(r.code(), "file_write: " + r.message());
            return CommandOutcome.ok((r.value().created() ? "created " : "replaced ") + r.value().path() + " ("
                    + r.value().bytes() + " bytes)");
        }).takes("path|filename|file: string, content|text|contents: string");
    }

    private CommandHandler fileList() {
        return SimpleCommand.informing("file_list", "list a directory under the workspace roots",
                "{\"path\": \".\"}", (args, ctx) -> {
            String dir = args.optionalText("path").filter(s -> !s.isBlank()).orElse(".");
            FileResult<FileRoots.Listing> r = roots.list(dir, MAX_LIST_ENTRIES);
            if (!r.ok()) return CommandOutcome.error(r.code(), "file_list: " + r.message());
            FileRoots.Listing l = r.value();
            StringBuilder sb = new StringBuilder(l.dir() + ": " + l.total() + (l.total() == 1 ? " entry" : " entries"));
            for (FileRoots.Entry e : l.entries()) {
                sb.append("\n- ").append(e.name()).append(switch (e.kind()) {
                    case DIRECTORY -> "/";
                    case LINK -> " (link)";
                    case FILE -> " (" + e.size() + " bytes)";
                    case OTHER -> " (special)";
                });
            }
            if (l.truncated()) sb.append("\n(first ").append(l.entries().size()).append(" shown)");
            return CommandOutcome.ok(sb.toString());
        }).takes("path|dir|directory?: string");
    }
}

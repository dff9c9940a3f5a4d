package dev.hmpagent.policy;

import dev.hmpagent.policy.FileRoots.Entry;
import dev.hmpagent.policy.FileRoots.EntryKind;
import dev.hmpagent.policy.FileRoots.FileText;
import dev.hmpagent.policy.FileRoots.Listing;
import dev.hmpagent.policy.FileRoots.Written;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The file helpers of {@link FileRoots}, given a path it has checked: each opens it without following a link in its
 * last element, then checks again that the path is unchanged (no link swapped in, the same file, still inside a
 * root) before it reads, writes or lists.
 */
final class FileOpener {
    private final ControlSurface controlSurface;
    private final Runnable beforeOpen;
    private final Predicate<Path> stillInside;

    /**
     * @param beforeOpen  runs between the check and the open; tests swap links there
     * @param stillInside whether a path resolves to itself, inside a root and off the control surface
     */
    FileOpener(ControlSurface controlSurface, Runnable beforeOpen, Predicate<Path> stillInside) {
        this.controlSurface = Objects.requireNonNull(controlSurface, "controlSurface");
        this.beforeOpen = Objects.requireNonNull(beforeOpen, "beforeOpen");
        this.stillInside = Objects.requireNonNull(stillInside, "stillInside");
    }

    FileResult<FileText> read(String userPath, Path path, long maxBytes) {
        try {
            BasicFileAttributes before = Files.readAttributes(path, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (before.size() > maxBytes) {
                return tooLarge(userPath, before.size(), maxBytes);
            }
            beforeOpen.run();
            try (SeekableByteChannel channel = Files.newByteChannel(path, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
                if (!unchanged(path, before.fileKey())) {
                    return changed(userPath);
                }
                ByteBuffer buffer = ByteBuffer.allocate((int) Math.min(maxBytes + 1, Integer.MAX_VALUE - 8));
                while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
                    // fill up to the cap and one byte more
                }
                if (buffer.position() > maxBytes) {
                    return tooLarge(userPath, channel.size(), maxBytes);
                }
                buffer.flip();
                String text = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPLACE)
                        .onUnmappableCharacter(CodingErrorAction.REPLACE).decode(buffer).toString();
                return FileResult.of(new FileText(path, text, buffer.limit()));
            }
        } catch (IOException e) {
            return ioFailure(userPath, e);
        }
    }

    FileResult<Written> store(String userPath, Path path, String content) {
        byte[] bytes = content.getBytes(StandardCharsets.UTF_8);
        try {
            Files.createDirectories(path.getParent());
            boolean existed = Files.exists(path, LinkOption.NOFOLLOW_LINKS);
            Object keyBefore = existed ? ControlSurface.fileKey(path).orElse(null) : null;
            beforeOpen.run();
            StandardOpenOption create = existed ? StandardOpenOption.WRITE : StandardOpenOption.CREATE_NEW;
            try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE, create, LinkOption.NOFOLLOW_LINKS)) {
                if (!unchanged(path, keyBefore)) {
                    channel.close();
                    if (!existed) {
                        Files.deleteIfExists(path);
                    }
                    return changed(userPath);
                }
                channel.truncate(0);
                ByteBuffer buffer = ByteBuffer.wrap(bytes);
                while (buffer.hasRemaining()) {
                    channel.write(buffer);
                }
            }
            return FileResult.of(new Written(path, bytes.length, !existed));
        } catch (FileAlreadyExistsException e) {
            return changed(userPath);
        } catch (IOException e) {
            return ioFailure(userPath, e);
        }
    }

    FileResult<Listing> listing(String userPath, Path dir, int maxEntries) {
        try {
            Object keyBefore = ControlSurface.fileKey(dir).orElse(null);
            beforeOpen.run();
            List<Entry> entries = new ArrayList<>();
            try (DirectoryStream<Path> stream = Files.newDirectoryStream(dir)) {
                if (!unchanged(dir, keyBefore)) {
                    return changed(userPath);
                }
                for (Path child : stream) {
                    String name = String.valueOf(child.getFileName());
                    if (controlSurface.nameIn(name).isPresent() && controlSurface.covering(child).isPresent()) {
                        continue;
                    }
                    entries.add(entry(child, name));
                }
            }
            entries.sort(Comparator.comparing(Entry::name));
            return FileResult.of(new Listing(dir, entries.subList(0, Math.min(Math.max(0, maxEntries), entries.size())),
                    entries.size()));
        } catch (IOException e) {
            return ioFailure(userPath, e);
        }
    }

    /** After opening: inside as before, and the same file ({@code keyBefore} null when the file system gives no key). */
    private boolean unchanged(Path path, Object keyBefore) {
        if (!stillInside.test(path)) {
            return false;
        }
        return keyBefore == null || Optional.of(keyBefore).equals(ControlSurface.fileKey(path));
    }

    private static Entry entry(Path child, String name) {
        try {
            BasicFileAttributes a = Files.readAttributes(child, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            EntryKind kind = a.isSymbolicLink() ? EntryKind.LINK : a.isDirectory() ? EntryKind.DIRECTORY
                    : a.isRegularFile() ? EntryKind.FILE : EntryKind.OTHER;
            return new Entry(name, kind, kind == EntryKind.FILE ? a.size() : 0);
        } catch (IOException e) {
            return new Entry(name, EntryKind.OTHER, 0);
        }
    }

    private static <T> FileResult<T> tooLarge(String userPath, long size, long maxBytes) {
        return FileResult.refused(FileResult.EFBIG, FileRoots.shown(userPath) + " is " + size
                + " bytes, over the read cap of " + maxBytes
                + " bytes (files.max_read_bytes); read a part with a shell command such as head");
    }

    private static <T> FileResult<T> changed(String userPath) {
        return FileResult.refused(FileResult.EPERM, FileRoots.shown(userPath)
                + " changed while it was being opened (a symbolic link swapped in?); nothing was done");
    }

    private static <T> FileResult<T> ioFailure(String userPath, IOException e) {
        if (e instanceof NoSuchFileException) {
            return FileResult.refused(FileResult.ENOENT, FileRoots.shown(userPath) + " does not exist");
        }
        String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        if (why.contains("Too many levels of symbolic links") || why.contains("NOFOLLOW_LINKS")) {
            return FileResult.refused(FileResult.EPERM, FileRoots.shown(userPath)
                    + " became a symbolic link; nothing was done");
        }
        return FileResult.refused(FileResult.EIO, FileRoots.shown(userPath) + ": " + FileRoots.clip(why.replace('\n', ' ')));
    }
}

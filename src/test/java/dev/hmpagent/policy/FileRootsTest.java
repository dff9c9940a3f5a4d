package dev.hmpagent.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hmpagent.policy.FileRoots.Access;
import dev.hmpagent.policy.FileRoots.EntryKind;
import dev.hmpagent.policy.FileRoots.FileText;
import dev.hmpagent.policy.FileRoots.Listing;
import dev.hmpagent.policy.FileRoots.Written;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class FileRootsTest {
    private static final int CAP = 65536;

    @TempDir
    Path base;
    private Path db;
    private Path root;
    private Path outside;
    private ControlSurface surface;
    private FileRoots roots;

    @BeforeEach
    void layout() throws IOException {
        base = base.toRealPath();
        db = Files.writeString(base.resolve("agent.db"), "SQLite format 3");
        surface = ControlSurface.forDatabase(db, List.of(base.resolve("agent.toml")));
        roots = FileRoots.forDatabase(List.of(), db, surface);
        root = base.resolve("workspace");
        outside = Files.createDirectories(base.resolve("outside"));
        Files.writeString(outside.resolve("secret.txt"), "SECRET");
    }

    private static <T> FileResult<T> refused(FileResult<T> result, String code) {
        assertThat(result.ok()).as("expected a refusal, got " + (result.ok() ? result.value() : "")).isFalse();
        assertThat(result.code()).as(result.message()).isEqualTo(code);
        assertThat(result.message()).isNotBlank().doesNotContain("\n");
        return result;
    }

    @Test
    void theDefaultRootIsWorkspaceBesideTheDatabaseCreatedOnFirstUse() {
        assertThat(roots.roots()).containsExactly(root);
        assertThat(root).doesNotExist();

        FileResult<Path> path = roots.resolve("notes/today.txt", Access.WRITE);

        assertThat(root).isDirectory();
        assertThat(path.value()).isEqualTo(root.resolve("notes/today.txt"));
    }

    @Test
    void dotDotOutOfTheRootIsRefused() {
        assertThat(refused(roots.resolve("../outside/secret.txt", Access.READ), FileResult.EPERM).message())
                .isEqualTo("\"../outside/secret.txt\" is " + outside.resolve("secret.txt")
                        + ", outside the file roots (" + root + ")");
        refused(roots.resolve("notes/../../agent.db", Access.READ), FileResult.EPERM);
        refused(roots.openForRead("../outside/secret.txt", CAP), FileResult.EPERM);
        assertThat(roots.resolve("a/../b.txt", Access.WRITE).value()).isEqualTo(root.resolve("b.txt"));
    }

    @Test
    void anAbsolutePathCountsOnlyInsideARoot() throws IOException {
        Files.createDirectories(root);
        refused(roots.resolve(outside.resolve("secret.txt").toString(), Access.READ), FileResult.EPERM);
        refused(roots.resolve("/etc/passwd", Access.READ), FileResult.EPERM);
        Files.writeString(root.resolve("in.txt"), "in");
        assertThat(roots.resolve(root.resolve("in.txt").toString(), Access.READ).value()).isEqualTo(root.resolve("in.txt"));
    }

    @Test
    void tildeIsTheHomeDirectoryAndCountsOnlyWhenHomeIsARoot() throws IOException {
        Path home = Files.createDirectories(base.resolve("home"));
        Files.writeString(home.resolve("notes.txt"), "hi");
        FileRoots workspaceOnly = new FileRoots(List.of(Files.createDirectories(root)), surface, home);
        FileRoots homeRoot = new FileRoots(List.of(home), surface, home);

        refused(workspaceOnly.resolve("~/notes.txt", Access.READ), FileResult.EPERM);
        refused(workspaceOnly.resolve("~", Access.LIST), FileResult.EPERM);
        assertThat(homeRoot.openForRead("~/notes.txt", CAP).value().text()).isEqualTo("hi");
        refused(homeRoot.resolve("~root/x", Access.READ), FileResult.EINVAL);
    }

    @Test
    void aSymlinkInsideTheRootPointingOutsideIsRefused() throws IOException {
        Files.createDirectories(root);
        Files.createSymbolicLink(root.resolve("out"), outside);
        Files.createSymbolicLink(root.resolve("s.txt"), outside.resolve("secret.txt"));

        refused(roots.resolve("out/secret.txt", Access.READ), FileResult.EPERM);
        refused(roots.openForRead("s.txt", CAP), FileResult.EPERM);
        refused(roots.write("out/new.txt", "x", CAP), FileResult.EPERM);
        refused(roots.list("out", 10), FileResult.EPERM);
        assertThat(outside.resolve("new.txt")).doesNotExist();
    }

    @Test
    void aSymlinkThatStaysInsideIsFollowedToItsRealPath() throws IOException {
        Files.createDirectories(root.resolve("real"));
        Files.writeString(root.resolve("real/a.txt"), "A");
        Files.createSymbolicLink(root.resolve("alias"), root.resolve("real"));

        FileResult<FileText> read = roots.openForRead("alias/a.txt", CAP);

        assertThat(read.value().text()).isEqualTo("A");
        assertThat(read.value().path()).isEqualTo(root.resolve("real/a.txt"));
    }

    @Test
    void aDanglingSymlinkIsNeverWrittenThrough() throws IOException {
        Files.createDirectories(root);
        Files.createSymbolicLink(root.resolve("dangling"), outside.resolve("planted.txt"));

        refused(roots.write("dangling", "x", CAP), FileResult.EPERM);

        assertThat(outside.resolve("planted.txt")).doesNotExist();
    }

    @Test
    void theControlSurfaceIsRefusedEvenInsideARoot() throws IOException {
        FileRoots wide = new FileRoots(List.of(base), surface, base);
        Files.writeString(base.resolve("agent.toml"), "[llm]\n");
        Files.createLink(base.resolve("copy.bin"), db);

        assertThat(refused(wide.resolve("agent.db", Access.READ), FileResult.EPERM).message())
                .contains("control surface");
        refused(wide.openForRead(db.toString(), CAP), FileResult.EPERM);
        refused(wide.write("agent.db-wal", "x", CAP), FileResult.EPERM);
        refused(wide.write("agent.db.halt", "", CAP), FileResult.EPERM);
        refused(wide.write("./outside/../agent.toml", "x", CAP), FileResult.EPERM);
        refused(wide.openForRead("copy.bin", CAP), FileResult.EPERM);
        assertThat(base.resolve("agent.db-wal")).doesNotExist();
        assertThat(wide.list(".", 100).value().entries()).extracting(FileRoots.Entry::name)
                .contains("outside").doesNotContain("agent.db", "agent.toml");
    }

    @Test
    void writingInsideDotGitIsRefusedReadingIsNot() throws IOException {
        Files.createDirectories(root.resolve("repo/.git"));
        Files.writeString(root.resolve("repo/.git/config"), "[core]\n");

        assertThat(refused(roots.write("repo/.git/config", "[core]\nfsmonitor = x\n", CAP), FileResult.EPERM).message())
                .contains(".git");
        refused(roots.write("repo/.git/hooks/pre-commit", "x", CAP), FileResult.EPERM);
        assertThat(roots.openForRead("repo/.git/config", CAP).value().text()).isEqualTo("[core]\n");
    }

    @Test
    void readAndWriteCapsAreEnforcedWithTheSizesAndTheKeyNamed() throws IOException {
        Files.createDirectories(root);
        Files.writeString(root.resolve("big.txt"), "x".repeat(100));

        assertThat(refused(roots.openForRead("big.txt", 99), FileResult.EFBIG).message())
                .isEqualTo("\"big.txt\" is 100 bytes, over the read cap of 99 bytes (files.max_read_bytes);"
                        + " read a part with a shell command such as head");
        assertThat(roots.openForRead("big.txt", 100).value().bytes()).isEqualTo(100);
        assertThat(refused(roots.write("new.txt", "é".repeat(5), 9), FileResult.EFBIG).message())
                .isEqualTo("the content is 10 bytes, over the write cap of 9 bytes (files.max_write_bytes)");
        assertThat(root.resolve("new.txt")).doesNotExist();
        assertThat(roots.write("new.txt", "é".repeat(5), 10).value().bytes()).isEqualTo(10);
    }

    @Test
    void writeCreatesParentsAndReplacesTheWholeContent() throws IOException {
        Written first = roots.write("a/b/c.txt", "a long first version", CAP).value();
        Written second = roots.write("a/b/c.txt", "short", CAP).value();

        assertThat(first.created()).isTrue();
        assertThat(second.created()).isFalse();
        assertThat(Files.readString(root.resolve("a/b/c.txt"))).isEqualTo("short");
    }

    @Test
    void missingFilesDirectoriesAndBadPathsGetTheirOwnCodes() throws IOException {
        Files.createDirectories(root.resolve("dir"));
        Files.writeString(root.resolve("file.txt"), "x");

        refused(roots.openForRead("missing.txt", CAP), FileResult.ENOENT);
        refused(roots.list("missing", 10), FileResult.ENOENT);
        refused(roots.openForRead("dir", CAP), FileResult.EISDIR);
        refused(roots.write("dir", "x", CAP), FileResult.EISDIR);
        refused(roots.list("file.txt", 10), FileResult.EINVAL);
        refused(roots.resolve("", Access.READ), FileResult.EINVAL);
        refused(roots.resolve("a\0b", Access.READ), FileResult.EINVAL);
        refused(roots.openForRead(Path.of("relative.txt"), CAP), FileResult.EINVAL);
        assertThatThrownBy(() -> roots.openForRead("missing.txt", CAP).value())
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("ENOENT");
    }

    @Test
    void listShowsKindsAndSizesSortedAndCapped() throws IOException {
        Files.createDirectories(root.resolve("b-dir"));
        Files.writeString(root.resolve("c.txt"), "123");
        Files.writeString(root.resolve("a.txt"), "1");
        Files.createSymbolicLink(root.resolve("d-link"), outside);

        Listing all = roots.list(".", 10).value();
        Listing two = roots.list(".", 2).value();

        assertThat(all.entries()).containsExactly(new FileRoots.Entry("a.txt", EntryKind.FILE, 1),
                new FileRoots.Entry("b-dir", EntryKind.DIRECTORY, 0), new FileRoots.Entry("c.txt", EntryKind.FILE, 3),
                new FileRoots.Entry("d-link", EntryKind.LINK, 0));
        assertThat(all.truncated()).isFalse();
        assertThat(two.entries()).hasSize(2);
        assertThat(two.total()).isEqualTo(4);
        assertThat(two.truncated()).isTrue();
    }

    @Test
    void aResolvedPathWhoseDirectoryWasSwappedForALinkIsCheckedAgainWhenOpened() throws IOException {
        Files.createDirectories(root.resolve("sub"));
        Files.writeString(root.resolve("sub/secret.txt"), "inside");
        Path resolved = roots.resolve("sub/secret.txt", Access.READ).value();

        swapForLinkTo(root.resolve("sub"), outside);

        refused(roots.openForRead(resolved, CAP), FileResult.EPERM);
        refused(roots.write(resolved, "x", CAP), FileResult.EPERM);
        assertThat(Files.readString(outside.resolve("secret.txt"))).isEqualTo("SECRET");
    }

    @Test
    void aDirectorySwappedForALinkBetweenTheCheckAndTheOpenIsCaughtAfterOpening() throws IOException {
        Files.createDirectories(root.resolve("sub"));
        Files.writeString(root.resolve("sub/secret.txt"), "inside");
        FileRoots racing = racing(() -> swapForLinkTo(root.resolve("sub"), outside));

        FileResult<FileText> read = racing.openForRead("sub/secret.txt", CAP);

        assertThat(refused(read, FileResult.EPERM).message()).contains("changed while it was being opened");
    }

    @Test
    void aWriteRacedOutsideLeavesNothingThere() throws IOException {
        Files.createDirectories(root.resolve("sub"));
        Files.writeString(root.resolve("sub/secret.txt"), "inside");

        refused(racing(() -> swapForLinkTo(root.resolve("sub"), outside)).write("sub/new.txt", "x", CAP),
                FileResult.EPERM);
        assertThat(outside.resolve("new.txt")).as("the file created through the swapped link is removed").doesNotExist();

        Files.delete(root.resolve("sub"));
        Files.createDirectories(root.resolve("sub"));
        Files.writeString(root.resolve("sub/secret.txt"), "inside");
        refused(racing(() -> swapForLinkTo(root.resolve("sub"), outside)).write("sub/secret.txt", "overwritten", CAP),
                FileResult.EPERM);
        assertThat(Files.readString(outside.resolve("secret.txt"))).isEqualTo("SECRET");
    }

    @Test
    void aFileSwappedForALinkBetweenTheCheckAndTheOpenIsNotFollowed() throws IOException {
        Files.createDirectories(root);
        Files.writeString(root.resolve("f.txt"), "inside");
        FileRoots racing = racing(() -> {
            try {
                Files.delete(root.resolve("f.txt"));
                Files.createSymbolicLink(root.resolve("f.txt"), outside.resolve("secret.txt"));
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });

        refused(racing.openForRead("f.txt", CAP), FileResult.EPERM);
    }

    private FileRoots racing(Runnable beforeOpen) {
        return new FileRoots(List.of(root), surface, base, true, beforeOpen);
    }

    private static void swapForLinkTo(Path dir, Path target) {
        try {
            Path aside = dir.resolveSibling(dir.getFileName() + ".moved-" + System.nanoTime());
            if (Files.exists(dir, LinkOption.NOFOLLOW_LINKS)) {
                Files.move(dir, aside);
            }
            Files.createSymbolicLink(dir, target);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

package dev.hmpagent.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.hmpagent.testing.Bwrap;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Which paths a sandbox binds, and that no symbolic link a command could have made leads a bind out of the roots. */
class SandboxRootsTest {
    @TempDir Path dir;

    @Test
    void a_root_inside_another_is_bound_by_the_outer_one_alone() throws IOException {
        Path outer = Files.createDirectories(dir.resolve("p"));
        Path inner = Files.createDirectories(outer.resolve("a/data"));

        assertThat(Sandbox.outermost(List.of(inner, outer, outer))).containsExactly(outer.toRealPath());
    }

    @Test
    void a_root_inside_another_that_a_symbolic_link_leads_elsewhere_is_refused_saying_what_to_change()
            throws IOException {
        Path outer = Files.createDirectories(dir.resolve("p"));
        Files.createDirectories(outer.resolve("a"));
        Files.createSymbolicLink(outer.resolve("a/data"), Path.of("/etc"));

        assertThatThrownBy(() -> Sandbox.outermost(List.of(outer, outer.resolve("a/data"))))
                .isInstanceOf(Sandbox.Unsafe.class)
                .hasMessage("sandbox: the file root " + outer.resolve("a/data") + " lies inside the root " + outer
                        + " but leads to /etc (a symbolic link a command could have made): name /etc in files.roots"
                        + " if that is meant, or remove " + outer.resolve("a/data"));
    }

    @Test
    void an_mcp_server_path_through_a_symbolic_link_in_a_root_is_refused_and_a_plain_one_is_its_real_path()
            throws IOException {
        Sandbox.SandboxHost host = Bwrap.required();
        Path root = Files.createDirectories(dir.resolve("root"));
        Path data = Files.createDirectories(root.resolve("data"));
        Files.createSymbolicLink(root.resolve("etc"), Path.of("/etc"));
        Sandbox sandbox = Sandbox.plan(host, new Sandbox.Limits(false, 1 << 20, 64), List.of(root),
                dev.hmpagent.policy.ControlSurface.forDatabase(dir.resolve("agent.db"), List.of()), dir);

        assertThat(sandbox.serverPath(data)).isEqualTo(data.toRealPath().toString());
        assertThatThrownBy(() -> sandbox.serverPath(root.resolve("etc"))).isInstanceOf(Sandbox.Unsafe.class)
                .hasMessageContaining("leads to /etc through a symbolic link inside the file roots");
    }

    @Test
    void the_root_drop_refuses_a_path_with_a_symbolic_link_on_it_even_if_it_appeared_after_the_plan()
            throws Exception {
        Sandbox.SandboxHost host = Bwrap.required();
        Assumptions.assumeTrue(host.drop().isPresent(), "skipped: the drop to nobody is made only for a root agent");
        Path root = Files.createDirectories(dir.resolve("root"));
        Files.createSymbolicLink(root.resolve("link"), Path.of("/etc"));
        List<String> argv = new ArrayList<>(host.drop().get().prefix(List.of(new RootDrop.Bound(root.resolve("link"),
                true))));
        argv.addAll(List.of("/bin/sh", "-c", "ls " + RootDrop.staged(0)));

        Process p = new ProcessBuilder(argv).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor(20, TimeUnit.SECONDS)).isTrue();

        assertThat(p.exitValue()).as(out).isEqualTo(126);
        assertThat(out).contains("sandbox: could not map the file roots to uid 65534: " + root.resolve("link"))
                .contains("a symbolic link on the way: refused").doesNotContain("shadow");
    }
}

package dev.hmpagent.process;

import dev.hmpagent.text.Text;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The first process of a sandboxed command's PID namespace after bubblewrap's own: a shell that says, in a line of
 * its own, that the sandbox is up before the command's shell starts, and, once that has exited, how many processes
 * the command left running. So the runner can tell bubblewrap's (or a root agent's drop's) failure from the
 * command's, and counts leftovers without racing the kernel.
 */
final class InnerShell {
    private InnerShell() { }

    /** The argv that runs {@code command} under this shell; {@code tag} marks its lines in the output. */
    static List<String> argv(String command, String tag) {
        return List.of(ProcessRunner.SHELL, "-c", SCRIPT, "sh", command, tag);
    }

    /**
     * The script: says it runs (the tag's line), runs the command's shell, then, once that has exited, counts what
     * is left in the namespace's {@code /proc} (all but process 1, bubblewrap's, and itself; zombies are dead) and
     * says so in a last line tagged {@code tag}. Counted here because from outside it cannot be: when this shell
     * exits, bubblewrap exits, its process 1 gets the parent-death signal and the kernel kills everything in the
     * namespace, racing any look from the host, which saw bubblewrap's process 1 still exiting as "a background
     * process it left running" under load and missed a real {@code sleep 60 &} the kernel had killed first. The
     * command's stderr is its stdout (one pipe, as the runner merges them anyway); this shell's own goes nowhere (it
     * would say "Killed" of a command that died by a signal), and it keeps no other descriptor a command could open
     * through {@code /proc/$PPID/fd} (a saved stderr there let a command read its own output pipe and hang). A
     * command can print a line that looks like the count: it misleads only its own result.
     */
    static final String SCRIPT = "printf '%s\\n' \"$2\"; exec 2>/dev/null; (exec /bin/sh -c \"$1\" 2>&1); s=$?; n=0;"
            + " for p in /proc/[0-9]*; do case ${p#/proc/} in 1|$$) continue;; esac; read -r st < \"$p/stat\" || continue;"
            + " case ${st##*) } in Z*) ;; *) n=$((n+1));; esac; done;"
            + " [ \"$n\" = 0 ] || printf '\\n%s %s\\n' \"$2\" \"$n\"; exit $s";

    /**
     * The command's output without this sandbox's lines: the first, said before the command ran (so an exit without
     * it, of output not cut, is the sandbox's own failure: bubblewrap's or the drop's message), and the count of what
     * it left running.
     */
    static Launcher.Exit exited(String tag, int code, String output) {
        return exited(tag, code, output, true);
    }

    /** The output of a command that did not exit by itself (a timeout, a stop) without this shell's lines. */
    static String shown(String tag, String output) {
        return exited(tag, 0, output, false).output();
    }

    private static Launcher.Exit exited(String tag, int code, String output, boolean exited) {
        int after = output.indexOf("\n" + tag + "\n");
        int ran = output.startsWith(tag + "\n") ? 0 : after < 0 ? -1 : after + 1;   // where its line starts
        if (ran < 0 && !output.startsWith(TailBuffer.CUT)) {
            if (code == 0 || !exited) return new Launcher.Exit(output, OptionalInt.of(0), Optional.empty());
            String said = output.lines().map(String::strip).filter(l -> !l.isEmpty()).findFirst().orElse("exit " + code
                    + ", no message");
            return new Launcher.Exit(output, OptionalInt.empty(), Optional.of("the sandbox failed before the command ran ("
                    + Text.oneLine(said, 300) + ")"));
        }
        String rest = ran < 0 ? output : output.substring(0, ran) + output.substring(ran + tag.length() + 1);
        Matcher m = Pattern.compile("\n" + Pattern.quote(tag) + " (\\d+)\n").matcher(rest);
        int at = -1;
        int count = 0;
        while (m.find()) {
            at = m.start();
            count = Integer.parseInt(m.group(1));
        }
        if (at < 0) return new Launcher.Exit(rest, OptionalInt.of(0), Optional.empty());
        String left = "\n" + tag + " " + count + "\n";
        return new Launcher.Exit(rest.substring(0, at) + rest.substring(at + left.length()), OptionalInt.of(count),
                Optional.empty());
    }
}

package dev.hmpagent.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Turns one simple command into the {@link ShellCommand}s it runs: a wrapper that only adjusts how a
 * command runs ({@code env}, {@code nohup}, {@code timeout}, {@code nice}, {@code time}, {@code stdbuf},
 * {@code command}, {@code builtin}, {@code exec}) is seen through; one that is a program in its own right
 * ({@code sudo}, {@code setsid}, {@code xargs}, {@code find}, {@code busybox}, {@code sh -c}) is reported
 * itself and so is the command it runs. Inline code ({@code python -c}, ...) is marked opaque.
 */
final class CommandUnwrapper {
    /** Commands that run text the splitter cannot see or change how later text is read. */
    private static final Set<String> REFUSED = Set.of("eval", "source", ".", "trap", "alias", "enable", "fc",
            "coproc", "select", "case", "function");
    private static final Set<String> SHELLS = Set.of("sh", "bash", "zsh", "dash", "ksh", "ash", "mksh", "yash", "rbash");
    private static final String ANY = ".*";

    private final ShellSplitter splitter;

    CommandUnwrapper(ShellSplitter splitter) {
        this.splitter = splitter;
    }

    void unwrap(List<Word> assignments, List<Word> words, List<Word> redirects, int depth, List<ShellCommand> out)
            throws ShellSyntaxException {
        if (depth > ShellSplitter.MAX_DEPTH) {
            throw new ShellSyntaxException("commands are wrapped more than " + ShellSplitter.MAX_DEPTH + " levels deep");
        }
        if (words.isEmpty()) {
            out.add(part(assignments, words, redirects, List.of(), false));
            return;
        }
        Word program = words.get(0);
        if (program.dynamic()) {
            throw new ShellSyntaxException("the command name " + program.text() + " is only known when the shell runs");
        }
        String name = ShellCommand.basename(program.text());
        List<Word> args = words.subList(1, words.size());
        if (REFUSED.contains(name)) {
            throw new ShellSyntaxException("'" + name + "' runs text the policy cannot read");
        }
        switch (name) {
            case "exec" -> exec(assignments, words, redirects, depth, out);
            case "env" -> env(assignments, words, redirects, depth, out);
            case "nohup", "builtin" -> through(assignments, words, 1 + Options.none().skip(name, args), redirects, depth, out);
            case "command" -> command(assignments, words, redirects, depth, out);
            case "time" -> time(assignments, words, redirects, depth, out);
            case "timeout" -> timeout(assignments, words, redirects, depth, out);
            case "nice" -> nice(assignments, words, redirects, depth, out);
            case "stdbuf" -> through(assignments, words,
                    1 + new Options("", "ioe", Set.of(), Set.of("--input", "--output", "--error")).skip(name, args),
                    redirects, depth, out);
            case "sudo", "doas" -> sudo(assignments, words, redirects, depth, out);
            case "setsid" -> wrapper(assignments, words,
                    1 + new Options("cfw", "", Set.of("--ctty", "--fork", "--wait"), Set.of()).skip(name, args),
                    redirects, List.of(), depth, out);
            case "busybox" -> wrapper(assignments, words,
                    args.isEmpty() || args.get(0).text().startsWith("-") ? words.size() : 1, redirects, List.of(), depth, out);
            case "xargs" -> xargs(assignments, words, redirects, depth, out);
            case "find" -> find(assignments, words, redirects, depth, out);
            default -> {
                if (SHELLS.contains(name)) {
                    shell(assignments, words, redirects, depth, out);
                } else {
                    out.add(part(assignments, words, redirects, List.of(), Opaque.inline(name, args)));
                }
            }
        }
    }

    /** A wrapper seen through: the command from {@code at} on is what counts; alone, the wrapper is the command. */
    private void through(List<Word> assignments, List<Word> words, int at, List<Word> redirects, int depth,
                         List<ShellCommand> out) throws ShellSyntaxException {
        if (at >= words.size()) {
            out.add(part(assignments, words, redirects, List.of(), false));
        } else {
            unwrap(assignments, words.subList(at, words.size()), redirects, depth + 1, out);
        }
    }

    /** A wrapper that is a program of its own: it is a part, and the command from {@code at} on is another. */
    private void wrapper(List<Word> assignments, List<Word> words, int at, List<Word> redirects,
                         List<String> innerWildcards, int depth, List<ShellCommand> out) throws ShellSyntaxException {
        out.add(part(assignments, words.subList(0, Math.min(at, words.size())), redirects, List.of(), false));
        if (at < words.size()) {
            List<ShellCommand> inner = new ArrayList<>();
            unwrap(assignments, words.subList(at, words.size()), List.of(), depth + 1, inner);
            inner.forEach(c -> out.add(withWildcards(c, innerWildcards)));
        }
    }

    private void exec(List<Word> assignments, List<Word> words, List<Word> redirects, int depth,
                      List<ShellCommand> out) throws ShellSyntaxException {
        if (!redirects.isEmpty()) {
            throw new ShellSyntaxException("exec with redirections changes file descriptors the policy cannot follow");
        }
        int at = 1 + new Options("cl", "a", Set.of(), Set.of()).skip("exec", words.subList(1, words.size()));
        if (at >= words.size()) {
            throw new ShellSyntaxException("exec without a command only changes the shell itself");
        }
        through(assignments, words, at, redirects, depth, out);
    }

    /** {@code env [-i] [-u NAME] [NAME=value…] [command…]}: the assignments go with the command. */
    private void env(List<Word> assignments, List<Word> words, List<Word> redirects, int depth,
                     List<ShellCommand> out) throws ShellSyntaxException {
        List<Word> args = words.subList(1, words.size());
        for (Word arg : args) {
            if (arg.text().equals("-S") || arg.text().startsWith("--split-string") || arg.text().matches("-[^-]*S.*")) {
                throw new ShellSyntaxException("env -S splits a string into a command, which is not supported");
            }
            if (!arg.text().startsWith("-")) {
                break;
            }
        }
        int at = 1 + new Options("i0v", "uC", Set.of("--ignore-environment", "--null", "--debug"),
                Set.of("--unset", "--chdir")).skip("env", args);
        if (at < words.size() && words.get(at).is("-")) {
            at++;
        }
        List<Word> all = new ArrayList<>(assignments);
        while (at < words.size() && words.get(at).text().indexOf('=') > 0) {
            Word w = words.get(at++);
            all.add(new Word(w.text(), w.regex(), w.valueRegex(), w.dynamic(), w.quoted(), w.text().length(),
                    w.expands()));
        }
        if (at >= words.size()) {
            out.add(part(assignments, words, redirects, List.of(), false));
        } else {
            unwrap(all, words.subList(at, words.size()), redirects, depth + 1, out);
        }
    }

    /** {@code command -v x} only looks x up; {@code command [-p] x} runs it. */
    private void command(List<Word> assignments, List<Word> words, List<Word> redirects, int depth,
                         List<ShellCommand> out) throws ShellSyntaxException {
        List<Word> args = words.subList(1, words.size());
        int at = 1 + new Options("pvV", "", Set.of(), Set.of()).skip("command", args);
        boolean lookUpOnly = words.subList(1, at).stream().anyMatch(w -> w.text().matches("-\\w*[vV]\\w*"));
        through(assignments, words, lookUpOnly ? words.size() : at, redirects, depth, out);
    }

    /** {@code time [-p] command}; GNU time's {@code -o FILE} writes a file, checked like a redirection. */
    private void time(List<Word> assignments, List<Word> words, List<Word> redirects, int depth,
                      List<ShellCommand> out) throws ShellSyntaxException {
        List<Word> args = words.subList(1, words.size());
        Options options = new Options("pvqa", "fo", Set.of("--portability", "--verbose", "--quiet", "--append"),
                Set.of("--format", "--output"));
        int at = 1 + options.skip("time", args);
        List<Word> targets = new ArrayList<>(redirects);
        for (int i = 1; i < at; i++) {
            String text = words.get(i).text();
            if ((text.equals("-o") || text.equals("--output")) && i + 1 < at) {
                targets.add(words.get(i + 1));
            } else if (text.startsWith("--output=") || text.startsWith("-o") && text.length() > 2) {
                targets.add(Word.literal(text.substring(text.startsWith("-o") ? 2 : "--output=".length())));
            }
        }
        through(assignments, words, at, targets, depth, out);
    }

    /** {@code timeout [options] DURATION command}. */
    private void timeout(List<Word> assignments, List<Word> words, List<Word> redirects, int depth,
                         List<ShellCommand> out) throws ShellSyntaxException {
        int at = 1 + new Options("v", "sk", Set.of("--preserve-status", "--foreground", "--verbose"),
                Set.of("--signal", "--kill-after")).skip("timeout", words.subList(1, words.size()));
        through(assignments, words, at + 1, redirects, depth, out);
    }

    /** {@code nice [-n N | -N] command}. */
    private void nice(List<Word> assignments, List<Word> words, List<Word> redirects, int depth,
                      List<ShellCommand> out) throws ShellSyntaxException {
        int at = 1;
        if (at < words.size() && words.get(at).text().matches("-\\d+")) {
            at++;
        }
        at += new Options("", "n", Set.of(), Set.of("--adjustment")).skip("nice", words.subList(at, words.size()));
        through(assignments, words, at, redirects, depth, out);
    }

    /** {@code sudo [options] [NAME=value…] command}: sudo is a part (it needs its own rule) and so is the command. */
    private void sudo(List<Word> assignments, List<Word> words, List<Word> redirects, int depth,
                      List<ShellCommand> out) throws ShellSyntaxException {
        String name = ShellCommand.basename(words.get(0).text());
        Options options = name.equals("doas")
                ? new Options("ns", "uC", Set.of(), Set.of())
                : new Options("AbEHiKklnPSsVve", "CDghpRrtTUu",
                Set.of("--askpass", "--background", "--bell", "--preserve-env", "--edit", "--set-home", "--login",
                        "--remove-timestamp", "--reset-timestamp", "--list", "--non-interactive",
                        "--preserve-groups", "--stdin", "--shell", "--validate", "--version", "--help"),
                Set.of("--close-from", "--chdir", "--group", "--host", "--prompt", "--chroot", "--role", "--type",
                        "--command-timeout", "--other-user", "--user"));
        int at = 1 + options.skip(name, words.subList(1, words.size()));
        while (at < words.size() && words.get(at).isAssignment()) {
            at++;
        }
        wrapper(assignments, words, at, redirects, List.of(), depth, out);
    }

    /** {@code xargs [options] [command [args]]}: the command gets arguments the policy cannot see. */
    private void xargs(List<Word> assignments, List<Word> words, List<Word> redirects, int depth,
                       List<ShellCommand> out) throws ShellSyntaxException {
        Options options = new Options("0rtpxoeil", "adEILnPs",
                Set.of("--null", "--no-run-if-empty", "--verbose", "--interactive", "--exit", "--open-tty",
                        "--show-limits", "--eof", "--replace", "--max-lines"),
                Set.of("--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars", "--process-slot-var"))
                .withOptionalArguments("eil");
        int at = 1 + options.skip("xargs", words.subList(1, words.size()));
        List<Word> run = new ArrayList<>(words.subList(0, at));
        run.addAll(at < words.size() ? words.subList(at, words.size()) : List.of(Word.literal("echo")));
        wrapper(assignments, run, at, redirects, List.of(ANY), depth, out);
    }

    /** {@code find … -exec cmd … ;}: find is a part; each command it runs is another, given file names it finds. */
    private void find(List<Word> assignments, List<Word> words, List<Word> redirects, int depth,
                      List<ShellCommand> out) throws ShellSyntaxException {
        List<Word> own = new ArrayList<>();
        List<Word> targets = new ArrayList<>(redirects);
        List<List<Word>> runs = new ArrayList<>();
        for (int i = 0; i < words.size(); i++) {
            Word w = words.get(i);
            own.add(w);
            if (w.dynamic()) {
                continue;
            }
            String text = w.text();
            if (Set.of("-exec", "-execdir", "-ok", "-okdir").contains(text)) {
                int end = i + 1;
                while (end < words.size() && !words.get(end).text().equals(";") && !words.get(end).text().equals("+")) {
                    end++;
                }
                if (end >= words.size() || end == i + 1) {
                    throw new ShellSyntaxException("find " + text + " needs a command ended by ';' or '+'");
                }
                runs.add(words.subList(i + 1, end));
                own.add(words.get(end));
                i = end;
            } else if (Set.of("-fprint", "-fprint0", "-fprintf", "-fls").contains(text) && i + 1 < words.size()) {
                targets.add(words.get(++i));
            }
        }
        out.add(part(assignments, own, targets, List.of(), false));
        for (List<Word> run : runs) {
            List<ShellCommand> inner = new ArrayList<>();
            unwrap(List.of(), run, List.of(), depth + 1, inner);
            inner.forEach(c -> out.add(withWildcards(c, List.of(ANY))));
        }
    }

    /** {@code sh -c 'script' [args]} is a part, and the script is split like a command line of its own. */
    private void shell(List<Word> assignments, List<Word> words, List<Word> redirects, int depth,
                       List<ShellCommand> out) throws ShellSyntaxException {
        boolean command = false;
        int at = 1;
        while (at < words.size()) {
            String text = words.get(at).text();
            if (text.equals("--") || text.equals("-")) {
                at++;
                break;
            }
            if (!(text.startsWith("-") || text.startsWith("+")) || words.get(at).dynamic()) {
                break;
            }
            if (text.equals("--rcfile") || text.equals("--init-file")) {
                at++;
            } else if (!text.startsWith("--")) {
                command |= text.indexOf('c') > 0;
                if (text.indexOf('o') > 0 || text.indexOf('O') > 0) {
                    at++;
                }
            }
            at++;
        }
        out.add(part(assignments, words, redirects, List.of(), false));
        if (command && at < words.size()) {
            Word script = words.get(at);
            if (script.dynamic()) {
                throw new ShellSyntaxException(ShellCommand.basename(words.get(0).text())
                        + " -c runs a script that is only known when the shell runs");
            }
            splitter.parseInto(script.text(), depth + 1, out);
        }
    }

    static ShellCommand part(List<Word> assignments, List<Word> words, List<Word> redirects,
                             List<String> extraWildcards, boolean opaque) {
        List<String> wildcards = new ArrayList<>(extraWildcards);
        for (List<Word> group : List.of(assignments, words, redirects)) {
            for (Word w : group) {
                if (w.dynamic()) {
                    wildcards.add(w.regex());
                    if (!w.valueRegex().isEmpty()) {
                        wildcards.add(w.valueRegex());
                    }
                }
            }
        }
        List<String> expanded = new ArrayList<>();
        for (List<Word> group : List.of(assignments, words, redirects)) {
            group.stream().filter(Word::expands).map(Word::text).forEach(expanded::add);
        }
        return new ShellCommand(texts(assignments), texts(words), texts(redirects), wildcards.stream().distinct().toList(),
                opaque, expanded.stream().distinct().toList());
    }

    private static List<String> texts(List<Word> words) {
        return words.stream().map(Word::text).toList();
    }

    private static ShellCommand withWildcards(ShellCommand c, List<String> extra) {
        if (extra.isEmpty()) {
            return c;
        }
        List<String> wildcards = new ArrayList<>(extra);
        c.wildcards().stream().filter(w -> !extra.contains(w)).forEach(wildcards::add);
        return new ShellCommand(c.assignments(), c.words(), c.redirects(), wildcards, c.opaque(), c.expanded());
    }
}

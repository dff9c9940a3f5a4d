package dev.hmpagent.policy;

import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Commands given code inline that the splitter cannot read: {@code python -c}, {@code perl -e},
 * {@code ruby -e}, {@code node -e}, {@code php -r}, {@code lua -e}, {@code awk} with {@code system}, a pipe,
 * {@code getline} or a program file, and {@code git -c}/{@code --config-env}/{@code --exec-path} (a config
 * value such as {@code core.pager} is a command).
 */
final class Opaque {
    private static final Pattern PYTHON = Pattern.compile("(python|pypy)[0-9.]*");
    private static final Pattern AWK = Pattern.compile("[gmn]?awk");
    private static final Set<String> E_FLAG = Set.of("perl", "ruby", "lua", "osascript", "Rscript");

    private Opaque() {
    }

    static boolean inline(String name, List<Word> args) {
        if (PYTHON.matcher(name).matches()) {
            return python(args);
        }
        if (AWK.matcher(name).matches()) {
            return awk(args);
        }
        if (E_FLAG.contains(name)) {
            return shortFlag(args, name.equals("perl") ? "eE" : "e");
        }
        return switch (name) {
            case "node", "nodejs" -> node(args);
            case "php" -> shortFlag(args, "r");
            case "git" -> git(args);
            default -> false;
        };
    }

    /** {@code -c} anywhere among the options before the script, also in a cluster such as {@code -Ic}. */
    private static boolean python(List<Word> args) {
        for (int i = 0; i < args.size(); i++) {
            String t = args.get(i).text();
            if (!t.startsWith("-") || t.equals("-") || t.equals("--")) {
                return false;
            }
            if (t.startsWith("--")) {
                continue;
            }
            for (int j = 1; j < t.length(); j++) {
                char c = t.charAt(j);
                if (c == 'c') {
                    return true;
                }
                if (c == 'm') {
                    return false;
                }
                if (c == 'W' || c == 'X') {
                    i += j + 1 == t.length() ? 1 : 0;
                    break;
                }
            }
        }
        return false;
    }

    private static boolean shortFlag(List<Word> args, String letters) {
        for (Word arg : args) {
            String t = arg.text();
            if (!t.startsWith("-") || t.equals("--")) {
                return false;
            }
            if (!t.startsWith("--") && t.chars().skip(1).anyMatch(c -> letters.indexOf(c) >= 0)) {
                return true;
            }
        }
        return false;
    }

    private static boolean node(List<Word> args) {
        for (Word arg : args) {
            String t = arg.text();
            if (!t.startsWith("-") || t.equals("--")) {
                return false;
            }
            if (t.startsWith("--eval") || t.startsWith("--print")
                    || !t.startsWith("--") && t.chars().skip(1).anyMatch(c -> c == 'e' || c == 'p')) {
                return true;
            }
        }
        return false;
    }

    private static boolean awk(List<Word> args) {
        for (int i = 0; i < args.size(); i++) {
            String t = args.get(i).text();
            if (t.equals("--")) {
                return i + 1 < args.size() && runsCommands(args.get(i + 1).text());
            }
            if (t.startsWith("-f") || t.startsWith("--file") || t.startsWith("--exec") || t.startsWith("-E")) {
                return true;
            }
            if (t.equals("-e") || t.equals("--source")) {
                if (i + 1 < args.size() && runsCommands(args.get(i + 1).text())) {
                    return true;
                }
                i++;
            } else if (t.equals("-F") || t.equals("-v")) {
                i++;
            } else if (!t.startsWith("-") || t.equals("-")) {
                return runsCommands(t);
            }
        }
        return false;
    }

    private static boolean runsCommands(String program) {
        return program.contains("system") || program.contains("|") || program.contains("getline");
    }

    private static boolean git(List<Word> args) {
        for (int i = 0; i < args.size(); i++) {
            String t = args.get(i).text();
            if (t.equals("-c") || t.startsWith("--config-env") || t.startsWith("--exec-path")) {
                return true;
            }
            if (Set.of("-C", "--git-dir", "--work-tree", "--namespace", "--super-prefix", "--list-cmds").contains(t)) {
                i++;
            } else if (!t.startsWith("-")) {
                return false;
            }
        }
        return false;
    }
}

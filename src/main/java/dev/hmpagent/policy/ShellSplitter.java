package dev.hmpagent.policy;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Splits a POSIX shell command line (sh/bash syntax) into the simple commands it would run, without
 * running anything. Separators ({@code ; && || | & newline}), subshells and groups, {@code if}/{@code
 * while}/{@code for} bodies, {@code $(…)}, backticks and {@code <(…)} are all looked into; quotes are
 * removed as the shell removes them; commands that run other commands are unwrapped by {@link
 * CommandUnwrapper}. What it cannot follow (here-documents, {@code eval}, {@code case}, brace expansion,
 * arithmetic, a command name computed by an expansion, ...) is a failed split: the caller must deny.
 */
public final class ShellSplitter {
    /** Deeper nesting than this ({@code sh -c "sh -c '…'"}, {@code $($($(…)))}) is refused. */
    static final int MAX_DEPTH = 16;

    private static final Set<String> SKIPPED_KEYWORDS =
            Set.of("if", "then", "elif", "else", "fi", "do", "done", "while", "until", "!", "{", "}");
    /** What may stand inside {@code ${…}}: a name, optionally an operator and a word with nothing to expand. */
    private static final Pattern PARAMETER = Pattern.compile(
            "#?(?:[A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])(?:(?::?[-=+?]|##?|%%?)[^$`'\"\\\\{}]*)?");
    private static final Set<String> REFUSED_KEYWORDS = Set.of("case", "select", "function", "coproc", "[[", "((");

    private final CommandUnwrapper unwrapper = new CommandUnwrapper(this);

    /** The simple commands of {@code line}, or the reason it cannot be split. Never throws for bad input. */
    public ShellSplit split(String line) {
        Objects.requireNonNull(line, "line");
        List<ShellCommand> out = new ArrayList<>();
        try {
            parseInto(line, 0, out);
        } catch (ShellSyntaxException e) {
            return ShellSplit.failed(e.getMessage());
        } catch (StackOverflowError e) {
            return ShellSplit.failed("the command line is nested too deeply");
        }
        return ShellSplit.parsed(out);
    }

    /** Parses a whole script (the line itself, a backtick body, an {@code sh -c} string) into {@code out}. */
    void parseInto(String script, int depth, List<ShellCommand> out) throws ShellSyntaxException {
        if (depth > MAX_DEPTH) {
            throw new ShellSyntaxException("the command line is nested more than " + MAX_DEPTH + " levels deep");
        }
        Parser parser = new Parser(script, depth, out);
        parser.parseList(false);
    }

    /** A cursor over one script; nested {@code $(…)} and {@code (…)} reuse it, backticks get their own. */
    private final class Parser {
        private final String s;
        private final int depth;
        private final List<ShellCommand> out;
        private int i;
        private int nesting;

        Parser(String s, int depth, List<ShellCommand> out) {
            this.s = s;
            this.depth = depth;
            this.out = out;
        }

        /** Reads commands up to the end, or up to the {@code )} that closes a nested list when {@code nested}. */
        void parseList(boolean nested) throws ShellSyntaxException {
            if (nested) {
                nesting++;
                if (depth + nesting > MAX_DEPTH) {
                    throw new ShellSyntaxException("the command line is nested more than " + MAX_DEPTH + " levels deep");
                }
            }
            Pending cmd = new Pending();
            while (true) {
                skipBlanks();
                if (i >= s.length()) {
                    finish(cmd);
                    if (nested) {
                        throw new ShellSyntaxException("unbalanced parenthesis: a ( or $( is never closed");
                    }
                    return;
                }
                char c = s.charAt(i);
                if (c == '#') {
                    skipComment();
                } else if (c == '\n' || c == ';' || c == '|' || (c == '&' && peek(1) != '>')) {
                    separator(c);
                    finish(cmd);
                    cmd = new Pending();
                } else if (c == ')') {
                    if (!nested) {
                        throw new ShellSyntaxException("unbalanced parenthesis: ) without (");
                    }
                    i++;
                    finish(cmd);
                    nesting--;
                    return;
                } else if (c == '(') {
                    group(cmd);
                } else if ((c == '<' || c == '>') && peek(1) != '(' || c == '&') {
                    redirect(cmd, -1);
                } else {
                    word(cmd);
                }
            }
        }

        private void separator(char c) throws ShellSyntaxException {
            if (c == ';' && (peek(1) == ';' || peek(1) == '&')) {
                throw new ShellSyntaxException("';;' and ';&' belong to case, which is not supported");
            }
            i += (c == '&' && peek(1) == '&') || (c == '|' && (peek(1) == '|' || peek(1) == '&')) ? 2 : 1;
        }

        private void group(Pending cmd) throws ShellSyntaxException {
            if (!cmd.atCommandStart()) {
                throw new ShellSyntaxException("unexpected '(' after a word (function definitions are not supported)");
            }
            if (peek(1) == '(') {
                throw new ShellSyntaxException("arithmetic (( … )) is not supported");
            }
            i++;
            parseList(true);
            cmd.afterGroup = true;
        }

        private void word(Pending cmd) throws ShellSyntaxException {
            Word w = readWord();
            if (!w.quoted() && !w.dynamic() && w.text().chars().allMatch(Character::isDigit)
                    && (peek(0) == '<' || peek(0) == '>')) {
                redirect(cmd, Integer.parseInt(w.text().length() > 3 ? "999" : w.text()));
                return;
            }
            if (cmd.afterGroup) {
                throw new ShellSyntaxException("unexpected word '" + w.text() + "' after a closing parenthesis");
            }
            if (cmd.forName != null) {
                if (cmd.forList == null && w.is("in")) {
                    cmd.forList = new ArrayList<>();
                } else if (cmd.forList != null) {
                    cmd.forList.add(w);
                } else if (w.is("do")) {
                    cmd.forName = null;
                } else {
                    throw new ShellSyntaxException("unexpected '" + w.text() + "' in a for loop header");
                }
                return;
            }
            if (cmd.words.isEmpty()) {
                for (String keyword : REFUSED_KEYWORDS) {
                    if (w.is(keyword)) {
                        throw new ShellSyntaxException("'" + keyword + "' is not supported");
                    }
                }
                if (SKIPPED_KEYWORDS.stream().anyMatch(w::is)) {
                    return;
                }
                if (w.is("for")) {
                    forHeader(cmd);
                    return;
                }
            }
            cmd.words.add(w);
        }

        private void forHeader(Pending cmd) throws ShellSyntaxException {
            skipBlanks();
            Word name = readWord();
            if (name.quoted() || name.dynamic() || !Word.isName(name.text())) {
                throw new ShellSyntaxException("a for loop needs a variable name ('for (( … ))' is not supported)");
            }
            cmd.forName = name.text();
        }

        private void redirect(Pending cmd, int fd) throws ShellSyntaxException {
            String op = redirectOperator();
            if (op.startsWith("<<")) {
                throw new ShellSyntaxException("here-documents and here-strings (<<, <<<) are not supported");
            }
            if (fd > 2) {
                throw new ShellSyntaxException("redirecting file descriptor " + fd + " is not supported");
            }
            skipBlanks();
            if (i >= s.length() || "\n;&|()<>".indexOf(s.charAt(i)) >= 0) {
                throw new ShellSyntaxException("the redirection " + op + " has no target");
            }
            Word target = readWord();
            boolean duplication = op.equals(">&") || op.equals("<&");
            if (duplication && !target.dynamic() && target.text().matches("\\d+-?|-")) {
                int to = target.text().equals("-") ? 0 : Integer.parseInt(target.text().replace("-", ""));
                if (to > 2) {
                    throw new ShellSyntaxException("redirecting file descriptor " + to + " is not supported");
                }
                return;
            }
            cmd.redirects.add(target);
        }

        private String redirectOperator() {
            for (String op : List.of("<<<", "<<", "&>>", "&>", ">>", ">|", ">&", "<&", "<>", "<", ">")) {
                if (s.startsWith(op, i)) {
                    i += op.length();
                    return op;
                }
            }
            throw new IllegalStateException("no redirection at " + i);
        }

        /** Ends the simple command in {@code cmd}: a {@code for} header becomes assignments, anything else is unwrapped. */
        private void finish(Pending cmd) throws ShellSyntaxException {
            if (cmd.forName != null) {
                List<Word> assignments = new ArrayList<>();
                for (Word w : cmd.forList == null ? List.<Word>of() : cmd.forList) {
                    assignments.add(new Word(cmd.forName + "=" + w.text(), Pattern.quote(cmd.forName + "=") + w.regex(),
                            w.regex(), w.dynamic(), w.quoted(), 0, w.expands()));
                }
                if (assignments.isEmpty() && cmd.redirects.isEmpty()) {
                    return;
                }
                out.add(CommandUnwrapper.part(assignments, List.of(), cmd.redirects, List.of(), false));
                return;
            }
            if (cmd.words.isEmpty() && cmd.redirects.isEmpty()) {
                return;
            }
            int programAt = 0;
            while (programAt < cmd.words.size() && cmd.words.get(programAt).isAssignment()) {
                programAt++;
            }
            unwrapper.unwrap(cmd.words.subList(0, programAt), cmd.words.subList(programAt, cmd.words.size()),
                    cmd.redirects, depth, out);
        }

        // ---- words ----

        private Word readWord() throws ShellSyntaxException {
            WordBuilder w = new WordBuilder();
            if ((peek(0) == '<' || peek(0) == '>') && peek(1) == '(') {
                int start = i;
                i += 2;
                parseList(true);
                return new Word(s.substring(start, i), "/dev/fd/.*", "", true, false, 0, true);
            }
            while (i < s.length()) {
                char c = s.charAt(i);
                if (" \t\n;&|<>)".indexOf(c) >= 0) {
                    break;
                }
                switch (c) {
                    case '(' -> throw new ShellSyntaxException(
                            "unexpected '(' after a word (function definitions and extended globs are not supported)");
                    case '\\' -> backslash(w);
                    case '\'' -> singleQuoted(w);
                    case '"' -> doubleQuoted(w);
                    case '$' -> dollar(w, false);
                    case '`' -> backticks(w, false);
                    case '*' -> glob(w, ".*");
                    case '?' -> glob(w, ".");
                    case '[' -> bracket(w);
                    case '{', '}', ',' -> brace(w, c);
                    case '.' -> {
                        if (w.braceDepth > 0 && peek(1) == '.') {
                            w.braceSequence = true;
                        }
                        w.literal(c, false);
                        i++;
                    }
                    default -> {
                        w.literal(c, false);
                        i++;
                    }
                }
            }
            return w.build();
        }

        private void backslash(WordBuilder w) {
            if (peek(1) == '\n') {
                i += 2;
            } else if (i + 1 >= s.length()) {
                w.literal('\\', false);
                i++;
            } else {
                w.literal(s.charAt(i + 1), true);
                i += 2;
            }
        }

        private void singleQuoted(WordBuilder w) throws ShellSyntaxException {
            int end = s.indexOf('\'', i + 1);
            if (end < 0) {
                throw new ShellSyntaxException("unbalanced single quote");
            }
            w.literal(s.substring(i + 1, end), true);
            i = end + 1;
        }

        private void doubleQuoted(WordBuilder w) throws ShellSyntaxException {
            i++;
            w.quoted = true;
            while (true) {
                if (i >= s.length()) {
                    throw new ShellSyntaxException("unbalanced double quote");
                }
                char c = s.charAt(i);
                if (c == '"') {
                    i++;
                    return;
                }
                if (c == '\\' && i + 1 < s.length() && "$`\"\\\n".indexOf(s.charAt(i + 1)) >= 0) {
                    if (s.charAt(i + 1) != '\n') {
                        w.literal(s.charAt(i + 1), true);
                    }
                    i += 2;
                } else if (c == '$') {
                    dollar(w, true);
                } else if (c == '`') {
                    backticks(w, true);
                } else {
                    w.literal(c, true);
                    i++;
                }
            }
        }

        private void dollar(WordBuilder w, boolean inDoubleQuotes) throws ShellSyntaxException {
            char next = peek(1);
            int start = i;
            if (next == '(') {
                if (peek(2) == '(') {
                    throw new ShellSyntaxException("arithmetic $(( … )) is not supported");
                }
                i += 2;
                parseList(true);
            } else if (next == '{') {
                parameter();
            } else if (next == '\'' && !inDoubleQuotes) {
                i++;
                int end = s.indexOf('\'', i + 1);
                while (end > 0 && backslashesBefore(end) % 2 == 1) {
                    end = s.indexOf('\'', end + 1);
                }
                if (end < 0) {
                    throw new ShellSyntaxException("unbalanced $' quote");
                }
                w.literal(AnsiC.decode(s.substring(i + 1, end)), true);
                i = end + 1;
                return;
            } else if (next == '"' && !inDoubleQuotes) {
                i++;
                doubleQuoted(w);
                return;
            } else if (Character.isLetter(next) || next == '_') {
                i++;
                while (i < s.length() && (Character.isLetterOrDigit(s.charAt(i)) || s.charAt(i) == '_')) {
                    i++;
                }
            } else if (next != 0 && (Character.isDigit(next) || "@*#?$!-".indexOf(next) >= 0)) {
                i += 2;
            } else {
                w.literal('$', inDoubleQuotes);
                i++;
                return;
            }
            w.expansion(s.substring(start, i));
        }

        /** {@code ${NAME}}, {@code ${#NAME}} or {@code ${NAME op word}} with a plain word; nothing nested. */
        private void parameter() throws ShellSyntaxException {
            int close = s.indexOf('}', i);
            if (close < 0) {
                throw new ShellSyntaxException("unbalanced ${");
            }
            String inside = s.substring(i + 2, close);
            if (!PARAMETER.matcher(inside).matches()) {
                throw new ShellSyntaxException("the expansion ${" + clip(inside) + "} is not supported");
            }
            i = close + 1;
        }

        private void backticks(WordBuilder w, boolean inDoubleQuotes) throws ShellSyntaxException {
            int start = i;
            StringBuilder inner = new StringBuilder();
            i++;
            while (true) {
                if (i >= s.length()) {
                    throw new ShellSyntaxException("unbalanced backquote");
                }
                char c = s.charAt(i);
                if (c == '`') {
                    i++;
                    break;
                }
                if (c == '\\' && i + 1 < s.length()
                        && ("`$\\".indexOf(s.charAt(i + 1)) >= 0 || inDoubleQuotes && s.charAt(i + 1) == '"')) {
                    inner.append(s.charAt(i + 1));
                    i += 2;
                } else {
                    inner.append(c);
                    i++;
                }
            }
            parseInto(inner.toString(), depth + 1, out);
            w.expansion(s.substring(start, i));
        }

        private void glob(WordBuilder w, String regex) {
            w.glob(String.valueOf(s.charAt(i)), regex);
            i++;
        }

        /** {@code [abc]} is a one-character glob when a {@code ]} closes it in the same word; else a plain {@code [}. */
        private void bracket(WordBuilder w) {
            int j = i + 1;
            if (j < s.length() && (s.charAt(j) == '!' || s.charAt(j) == '^')) {
                j++;
            }
            if (j < s.length() && s.charAt(j) == ']') {
                j++;
            }
            while (j < s.length() && " \t\n;&|<>()'\"\\$`[".indexOf(s.charAt(j)) < 0 && s.charAt(j) != ']') {
                j++;
            }
            if (j < s.length() && s.charAt(j) == ']') {
                w.glob(s.substring(i, j + 1), ".");
                i = j + 1;
            } else {
                w.literal('[', false);
                i++;
            }
        }

        /** Brace expansion ({@code {a,b}}, {@code {1..3}}) turns one word into several: refused. */
        private void brace(WordBuilder w, char c) throws ShellSyntaxException {
            if (c == '{') {
                w.braceDepth++;
            } else if (c == ',' && w.braceDepth > 0) {
                w.braceSequence = true;
            } else if (c == '}' && w.braceDepth > 0) {
                w.braceDepth--;
                if (w.braceSequence) {
                    throw new ShellSyntaxException("brace expansion {a,b} / {1..3} is not supported");
                }
            }
            w.literal(c, false);
            i++;
        }

        // ---- cursor ----

        private int backslashesBefore(int at) {
            int n = 0;
            while (at - 1 - n >= 0 && s.charAt(at - 1 - n) == '\\') {
                n++;
            }
            return n;
        }

        private char peek(int ahead) {
            return i + ahead < s.length() ? s.charAt(i + ahead) : 0;
        }

        private void skipBlanks() {
            while (i < s.length()) {
                char c = s.charAt(i);
                if (c == ' ' || c == '\t' || c == '\r') {
                    i++;
                } else if (c == '\\' && peek(1) == '\n') {
                    i += 2;
                } else {
                    return;
                }
            }
        }

        private void skipComment() {
            while (i < s.length() && s.charAt(i) != '\n') {
                i++;
            }
        }
    }

    private static String clip(String text) {
        return text.length() <= 30 ? text : text.substring(0, 30) + "…";
    }

    /** The simple command being read. */
    private static final class Pending {
        final List<Word> words = new ArrayList<>();
        final List<Word> redirects = new ArrayList<>();
        boolean afterGroup;
        String forName;
        List<Word> forList;

        boolean atCommandStart() {
            return words.isEmpty() && redirects.isEmpty() && forName == null && !afterGroup;
        }
    }
}

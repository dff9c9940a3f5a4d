package dev.hmpagent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * ARCHITECTURE.md's sizes, measured on the sources of main: classes that fit on a screen or three (400 lines, except
 * the few named there), methods that fit on one (60 lines at most, and at most five over 40). A method's lines run
 * from its signature to its closing brace; comments before it do not count.
 */
class CodeSizeTest {
    static final Path MAIN = Path.of("src/main/java");
    static final int CLASS_LINES = 400;
    static final int METHOD_LINES = 60;
    static final int LONG_METHOD = 40;
    static final int LONG_METHODS_ALLOWED = 5;
    /** The files that read best whole, each named with its reason in ARCHITECTURE.md. */
    static final Map<String, String> WHOLE = Map.of(
            "dev/hmpagent/policy/ShellSplitter.java", "a parser: one state machine over the command text",
            "dev/hmpagent/config/ValueType.java", "a table: every value type with its parser and its words",
            "dev/hmpagent/config/ConfigKey.java", "a table: every key of agent.toml with its default and range");

    record Method(String file, String signature, int firstLine, int lines) {
        @Override
        public String toString() {
            return file + ":" + firstLine + " " + signature + " (" + lines + " lines)";
        }
    }

    @Test
    void no_class_is_over_400_lines_except_the_named_ones() throws IOException {
        List<String> big = new ArrayList<>();
        for (Path f : sources()) {
            String rel = MAIN.relativize(f).toString().replace('\\', '/');
            long lines = Files.readAllLines(f).size();
            if (lines > CLASS_LINES && !WHOLE.containsKey(rel)) big.add(rel + " (" + lines + " lines)");
        }
        assertThat(big).as("classes over %d lines (split them, or name the file and why in ARCHITECTURE.md)",
                CLASS_LINES).isEmpty();
    }

    @Test
    void no_method_is_over_60_lines_and_at_most_five_over_40() throws IOException {
        List<Method> all = new ArrayList<>();
        for (Path f : sources()) all.addAll(methods(MAIN.relativize(f).toString(), Files.readString(f)));
        assertThat(all).as("the measure found the methods").hasSizeGreaterThan(500);
        assertThat(all.stream().filter(m -> m.lines() > METHOD_LINES).toList())
                .as("methods over %d lines", METHOD_LINES).isEmpty();
        assertThat(all.stream().filter(m -> m.lines() > LONG_METHOD).toList())
                .as("methods over %d lines (at most %d)", LONG_METHOD, LONG_METHODS_ALLOWED)
                .hasSizeLessThanOrEqualTo(LONG_METHODS_ALLOWED);
    }

    @Test
    void the_measure_counts_a_method_from_its_signature_to_its_closing_brace() {
        String src = """
                package x;
                /** a { brace in a comment */
                final class A {
                    private static final String S = "}{";
                    A(int a) {
                        this.a = a;
                    }

                    int f(int b) throws Exception {
                        Runnable r = () -> { System.out.println("{"); };
                        char c = '}';
                        return b;
                    }
                    record R(int x) {
                        R {
                            if (x < 0) throw new IllegalArgumentException();
                        }
                        int twice() { return 2 * x; }
                    }
                }
                """;
        assertThat(methods("A.java", src)).extracting(Method::signature, Method::firstLine, Method::lines)
                .containsExactly(
                        org.assertj.core.groups.Tuple.tuple("A(int a)", 5, 3),
                        org.assertj.core.groups.Tuple.tuple("int f(int b) throws Exception", 9, 5),
                        org.assertj.core.groups.Tuple.tuple("int twice()", 18, 1));
    }

    private static List<Path> sources() throws IOException {
        try (Stream<Path> s = Files.walk(MAIN)) {
            return s.filter(p -> p.toString().endsWith(".java")).sorted().toList();
        }
    }

    /** The methods and constructors of one source file (lambdas and anonymous classes count with their method). */
    static List<Method> methods(String file, String source) {
        String code = blankCommentsAndLiterals(source);
        List<Method> out = new ArrayList<>();
        List<Boolean> typeBody = new ArrayList<>();   // per open brace: does it open a type's body?
        int memberStart = 0;
        int methodDepth = -1;
        int methodStart = 0;
        String signature = "";
        for (int i = 0; i < code.length(); i++) {
            char c = code.charAt(i);
            if (c == '{') {
                String head = code.substring(memberStart, i).strip();
                boolean inType = typeBody.isEmpty() || typeBody.get(typeBody.size() - 1);
                boolean isType = head.matches("(?s).*\\b(class|interface|enum|record)\\b.*") && !head.contains("=")
                        && !head.contains("new ");
                if (methodDepth < 0 && inType && !isType && head.endsWith(")") || methodDepth < 0 && inType && !isType
                        && head.matches("(?s).*\\)\\s*throws\\s+[\\w.,\\s]+")) {
                    methodDepth = typeBody.size();
                    methodStart = memberStart + leading(code, memberStart);
                    signature = head.replaceAll("\\s+", " ").replaceAll("^(@[\\w.]+(\\([^)]*\\))?\\s*)+", "")
                            .replaceAll("^((public|protected|private|static|final|synchronized|abstract|default)\\s+)+", "");
                }
                typeBody.add(isType && methodDepth < 0);
                memberStart = i + 1;
            } else if (c == '}') {
                typeBody.remove(typeBody.size() - 1);
                if (typeBody.size() == methodDepth) {
                    out.add(new Method(file, signature, lineOf(code, methodStart), lineOf(code, i) - lineOf(code, methodStart) + 1));
                    methodDepth = -1;
                }
                memberStart = i + 1;
            } else if (c == ';') {
                memberStart = i + 1;
            }
        }
        return out;
    }

    private static int leading(String code, int from) {
        int i = from;
        while (i < code.length() && Character.isWhitespace(code.charAt(i))) i++;
        while (i < code.length() && code.charAt(i) == '@') {          // annotations before the signature
            int nl = code.indexOf('\n', i);
            int j = nl < 0 ? code.length() : nl;
            String line = code.substring(i, j).strip();
            if (!line.matches("@[\\w.]+(\\(.*\\))?")) break;
            i = j;
            while (i < code.length() && Character.isWhitespace(code.charAt(i))) i++;
        }
        return i - from;
    }

    private static int lineOf(String code, int index) {
        int line = 1;
        for (int i = 0; i < index; i++) if (code.charAt(i) == '\n') line++;
        return line;
    }

    /** The source with comments, strings, text blocks and char literals replaced by spaces (newlines kept). */
    static String blankCommentsAndLiterals(String s) {
        StringBuilder b = new StringBuilder(s);
        int i = 0;
        while (i < s.length()) {
            char c = s.charAt(i);
            int end;
            if (s.startsWith("//", i)) end = indexOrEnd(s, "\n", i);
            else if (s.startsWith("/*", i)) end = indexOrEnd(s, "*/", i + 2) + 2;
            else if (s.startsWith("\"\"\"", i)) end = closing(s, "\"\"\"", i + 3) + 3;
            else if (c == '"') end = closing(s, "\"", i + 1) + 1;
            else if (c == '\'') end = closing(s, "'", i + 1) + 1;
            else { i++; continue; }
            end = Math.min(end, s.length());
            for (int k = i; k < end; k++) if (b.charAt(k) != '\n') b.setCharAt(k, ' ');
            i = end;
        }
        return b.toString();
    }

    private static int indexOrEnd(String s, String what, int from) {
        int at = s.indexOf(what, from);
        return at < 0 ? s.length() : at;
    }

    /** Where the literal that started before {@code from} closes, skipping escaped characters. */
    private static int closing(String s, String quote, int from) {
        int i = from;
        while (i < s.length()) {
            if (s.charAt(i) == '\\') { i += 2; continue; }
            if (s.startsWith(quote, i)) return i;
            i++;
        }
        if (i > s.length()) throw new UncheckedIOException(new IOException("unclosed literal at " + from));
        return s.length();
    }
}

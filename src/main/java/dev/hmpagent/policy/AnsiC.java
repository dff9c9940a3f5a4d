package dev.hmpagent.policy;

/** Decodes the body of a bash {@code $'…'} string the way bash does, so {@code $'\x72m'} is seen as {@code rm}. */
final class AnsiC {
    private AnsiC() {
    }

    static String decode(String body) {
        StringBuilder out = new StringBuilder();
        int i = 0;
        while (i < body.length()) {
            char c = body.charAt(i);
            if (c != '\\' || i + 1 >= body.length()) {
                out.append(c);
                i++;
                continue;
            }
            i = escape(body, i + 1, out);
        }
        return out.toString();
    }

    /** Appends the escape whose letter is at {@code at} (just after the backslash); returns where the text goes on. */
    private static int escape(String body, int at, StringBuilder out) {
        char e = body.charAt(at);
        int i = at + 1;
        switch (e) {
            case 'a' -> out.append('\u0007');
            case 'b' -> out.append('\b');
            case 'e', 'E' -> out.append('\u001b');
            case 'f' -> out.append('\f');
            case 'n' -> out.append('\n');
            case 'r' -> out.append('\r');
            case 't' -> out.append('\t');
            case 'v' -> out.append('\u000b');
            case '\\', '\'', '"', '?' -> out.append(e);
            case 'c' -> {
                if (i < body.length()) {
                    out.append((char) (body.charAt(i) & 0x1f));
                    i++;
                }
            }
            case 'x', 'u', 'U' -> i = hex(body, i, e, out);
            default -> i = octal(body, i, e, out);
        }
        return i;
    }

    /** {@code \xHH}, {@code \\uHHHH}, {@code \\UHHHHHHHH}: up to 2, 4 or 8 hex digits from {@code i}. */
    private static int hex(String body, int i, char e, StringBuilder out) {
        int max = e == 'x' ? 2 : e == 'u' ? 4 : 8;
        int end = i;
        while (end < body.length() && end - i < max && Character.digit(body.charAt(end), 16) >= 0) {
            end++;
        }
        if (end == i) {
            out.append('\\').append(e);
            return i;
        }
        long codePoint = Long.parseLong(body.substring(i, end), 16);
        out.appendCodePoint(codePoint <= Character.MAX_CODE_POINT ? (int) codePoint : 0xFFFD);
        return end;
    }

    /** {@code \NNN} (1 to 3 octal digits, the first being {@code e}); any other letter stays as written. */
    private static int octal(String body, int i, char e, StringBuilder out) {
        if (e < '0' || e > '7') {
            out.append('\\').append(e);
            return i;
        }
        int end = i;
        while (end < body.length() && end - i < 2 && body.charAt(end) >= '0' && body.charAt(end) <= '7') {
            end++;
        }
        out.append((char) (Integer.parseInt(body.substring(i - 1, end), 8) & 0xff));
        return end;
    }
}

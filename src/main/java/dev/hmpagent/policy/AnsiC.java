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
            char e = body.charAt(i + 1);
            i += 2;
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
                case 'x', 'u', 'U' -> {
                    int max = e == 'x' ? 2 : e == 'u' ? 4 : 8;
                    int end = i;
                    while (end < body.length() && end - i < max && Character.digit(body.charAt(end), 16) >= 0) {
                        end++;
                    }
                    if (end == i) {
                        out.append('\\').append(e);
                    } else {
                        long codePoint = Long.parseLong(body.substring(i, end), 16);
                        out.appendCodePoint(codePoint <= Character.MAX_CODE_POINT ? (int) codePoint : 0xFFFD);
                        i = end;
                    }
                }
                default -> {
                    if (e >= '0' && e <= '7') {
                        int end = i;
                        while (end < body.length() && end - i < 2 && body.charAt(end) >= '0' && body.charAt(end) <= '7') {
                            end++;
                        }
                        out.append((char) (Integer.parseInt(body.substring(i - 1, end), 8) & 0xff));
                        i = end;
                    } else {
                        out.append('\\').append(e);
                    }
                }
            }
        }
        return out.toString();
    }
}

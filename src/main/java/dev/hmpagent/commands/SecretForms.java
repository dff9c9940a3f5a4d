package dev.hmpagent.commands;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The known secrets and the forms a command turns them into cheaply, each found wherever it stands: the value itself,
 * reversed ({@code rev}), with a few separators between its characters ({@code sed 's/./& /g'}, {@code fold -w1}), in
 * either case ({@code tr a-z A-Z}), and base64 of it at any of the three byte alignments, wrapped across lines or not
 * ({@code env | base64}). Of a base64 form the characters that also depend on the bytes around the secret stay: they
 * give nothing of it away. The first line of defence is that no child gets a key; this is the second.
 */
final class SecretForms {
    /** Between two characters of a secret: at most this many characters that are neither letters nor digits. */
    private static final String SEPARATOR = "[^\\p{Alnum}]{0,3}";
    private static final String LINE_BREAK = "(?:\\r?\\n)?";
    /** A base64 core shorter than this is not searched for: it would blot out ordinary text. */
    private static final int MIN_CORE = 8;

    private final List<String> plain;
    private final List<Pattern> forms;

    /** @param known the secrets, each long enough to be searched for */
    SecretForms(List<String> known) {
        this.plain = List.copyOf(known);
        List<Pattern> out = new ArrayList<>();
        for (String k : known) {
            out.add(Pattern.compile(spaced(k), Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE));
            out.add(Pattern.compile(spaced(new StringBuilder(k).reverse().toString()),
                    Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE));
            for (int offset = 0; offset < 3; offset++) {
                String core = base64Core(k, offset);
                if (core.length() >= MIN_CORE) out.add(Pattern.compile(wrapped(core)));
            }
        }
        this.forms = List.copyOf(out);
    }

    /** {@code text} with every form of every known secret replaced by {@code with}. */
    String redact(String text, String with) {
        String out = text;
        for (String k : plain) out = out.replace(k, with);
        for (Pattern p : forms) {
            Matcher m = p.matcher(out);
            if (m.find()) out = m.replaceAll(Matcher.quoteReplacement(with));
        }
        return out;
    }

    private static String spaced(String secret) {
        StringBuilder regex = new StringBuilder();
        secret.codePoints().forEach(c -> {
            if (!regex.isEmpty()) regex.append(SEPARATOR);
            regex.append(Pattern.quote(new String(Character.toChars(c))));
        });
        return regex.toString();
    }

    private static String wrapped(String core) {
        StringBuilder regex = new StringBuilder();
        for (char c : core.toCharArray()) {
            if (!regex.isEmpty()) regex.append(LINE_BREAK);
            regex.append(Pattern.quote(String.valueOf(c)));
        }
        return regex.toString();
    }

    /**
     * The part of base64 of {@code secret} that is the same whatever stands around it, when {@code offset} bytes (of
     * a 3-byte group) come before it: the groups the neighbouring bytes share are left out.
     */
    static String base64Core(String secret, int offset) {
        byte[] bytes = secret.getBytes(StandardCharsets.UTF_8);
        byte[] placed = new byte[offset + bytes.length];
        System.arraycopy(bytes, 0, placed, offset, bytes.length);
        String encoded = Base64.getEncoder().withoutPadding().encodeToString(placed);
        int from = offset == 0 ? 0 : 4;
        int whole = placed.length / 3 * 4;
        return whole <= from ? "" : encoded.substring(from, whole);
    }
}

package dev.hmpagent.llm.wire;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import okio.Buffer;
import okio.BufferedSource;
import okio.Okio;
import okio.Source;
import okio.Timeout;

/**
 * Issue 20: the SSE line reader and event parser (also the NDJSON line reader) and the closing of a cut JSON event,
 * under random bytes arriving in random pieces. Seeds pinned so scripts/test is deterministic.
 */
class StreamReadersFuzzTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** A source that hands out {@code bytes} in the given piece sizes, as a network would. */
    private static BufferedSource pieces(byte[] bytes, List<Integer> sizes) {
        Source source = new Source() {
            int at;
            int piece;

            @Override
            public long read(Buffer sink, long byteCount) {
                if (at >= bytes.length) return -1;
                int size = sizes.isEmpty() ? bytes.length : Math.max(1, sizes.get(piece++ % sizes.size()));
                int n = (int) Math.min(Math.min(size, byteCount), bytes.length - at);
                sink.write(bytes, at, n);
                at += n;
                return n;
            }

            @Override
            public Timeout timeout() { return Timeout.NONE; }

            @Override
            public void close() { }
        };
        return Okio.buffer(source);
    }

    @Provide
    Arbitrary<List<String>> events() {
        Arbitrary<String> data = Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(40).map(t -> t.replaceAll("[\r\n]", " ")),
                Arbitraries.of("[DONE]", "{\"choices\":[{\"delta\":{\"content\":\"hi\"}}]}", ":", "data: x", "é😀"));
        return data.list().ofMaxSize(30);
    }

    @Property(tries = 300, seed = "20501")
    void events_written_as_sse_come_back_whole_whatever_the_piece_sizes(@ForAll("events") List<String> events,
            @ForAll @IntRange(min = 1, max = 64) int piece, @ForAll boolean crlf) throws IOException {
        String eol = crlf ? "\r\n" : "\n";
        StringBuilder stream = new StringBuilder(": hello" + eol);
        for (String e : events) stream.append("data: ").append(e).append(eol).append(eol);

        List<String> read = readAll(pieces(stream.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8), List.of(piece)));

        assertThat(read).containsExactlyElementsOf(events);
    }

    @Property(tries = 200, seed = "20502")
    void random_bytes_in_random_pieces_never_throw_and_never_give_more_than_they_hold(
            @ForAll("bytes") byte[] bytes, @ForAll("sizes") List<Integer> sizes) throws IOException {
        List<String> read = readAll(pieces(bytes, sizes));

        long chars = read.stream().mapToLong(String::length).sum();
        assertThat(chars).isLessThanOrEqualTo(bytes.length);
    }

    @Property(tries = 20, seed = "20503")
    void one_line_longer_than_the_limit_is_cut_to_it_whatever_the_piece_sizes(
            @ForAll @IntRange(min = 1, max = 300_000) int extra, @ForAll("sizes") List<Integer> sizes) throws IOException {
        byte[] line = ("data: " + "a".repeat(SseEventParser.MAX_BYTES + extra) + "\n\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        BufferedSource source = pieces(line, sizes);

        SseEventParser.Line first = SseEventParser.nextLine(source);
        SseEventParser sse = new SseEventParser();
        String event = sse.cutLine(first.text());

        assertThat(first.cut()).isTrue();
        assertThat(sse.cut()).isTrue();
        assertThat(event).hasSize(SseEventParser.MAX_BYTES - "data: ".length());
    }

    @Provide
    Arbitrary<byte[]> bytes() {
        Arbitrary<Byte> one = Arbitraries.oneOf(Arbitraries.bytes(), Arbitraries.of((byte) '\n', (byte) '\r', (byte) ':',
                (byte) 'd', (byte) '{', (byte) '"'));
        return one.array(byte[].class).ofMaxSize(4_000);
    }

    @Provide
    Arbitrary<List<Integer>> sizes() {
        return Arbitraries.integers().between(1, 5_000).list().ofMaxSize(8);
    }

    private static List<String> readAll(BufferedSource source) throws IOException {
        SseEventParser sse = new SseEventParser();
        List<String> out = new ArrayList<>();
        SseEventParser.Line line;
        while ((line = SseEventParser.nextLine(source)) != null) {
            String data = line.cut() ? sse.cutLine(line.text()) : sse.line(line.text());
            if (data != null) out.add(data);
            if (sse.cut()) return out;
        }
        String rest = sse.finish();
        if (rest != null) out.add(rest);
        return out;
    }

    @Property(tries = 500, seed = "20504")
    void a_chunk_cut_inside_its_text_closes_to_json_whose_text_is_a_prefix_of_the_whole(
            @ForAll("texts") String text, @ForAll @IntRange(min = 0, max = 10_000) int cutAt) throws IOException {
        String chunk = "{\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":"
                + JSON.writeValueAsString(text) + "},\"finish_reason\":null}]}";
        int start = chunk.indexOf("\"content\":\"") + "\"content\":\"".length();
        int end = start + JSON.writeValueAsString(text).length() - 2;   // the content string's closing quote
        int cut = start + cutAt % (end - start + 1);

        JsonNode closed = JSON.readTree(TruncatedJson.close(chunk.substring(0, cut)));

        String kept = closed.path("choices").path(0).path("delta").path("content").asText("");
        assertThat(text).startsWith(kept.replace("\uFFFD", ""));
    }

    @Property(tries = 500, seed = "20505")
    void closing_any_text_never_throws_and_keeps_it_up_to_a_cut_escape(@ForAll("texts") String text) {
        String closed = TruncatedJson.close(text);

        int kept = 0;
        while (kept < text.length() && kept < closed.length() && text.charAt(kept) == closed.charAt(kept)) kept++;
        assertThat(kept).isGreaterThanOrEqualTo(text.stripTrailing().length() - 7);   // a cut escape, a comma
    }

    @Provide
    Arbitrary<String> texts() {
        return Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(60),
                Arbitraries.of("\\", "\"", "\\u00", "😀", "{[", "}]", "\n", "a").list().ofMaxSize(30).map(l -> String.join("", l)));
    }
}

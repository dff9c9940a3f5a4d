package dev.hmpagent.mcp;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** The capped line reader of a stdio server's stdout, on plain bytes. */
class CappedLinesTest {
    @Test
    void lines_within_the_cap_come_whole_without_their_ends() throws Exception {
        CappedLines lines = new CappedLines(bytes("{\"a\":1}\r\nnot json\n\nlast"), 1024);

        assertThat(lines.next().orElseThrow().text()).isEqualTo("{\"a\":1}");
        assertThat(lines.next().orElseThrow().text()).isEqualTo("not json");
        assertThat(lines.next().orElseThrow().text()).isEmpty();
        assertThat(lines.next().orElseThrow().text()).isEqualTo("last");
        assertThat(lines.next()).isEmpty();
    }

    @Test
    void a_line_over_the_cap_is_refused_with_its_size_and_ends_and_the_next_line_is_whole() throws Exception {
        String big = "{\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"" + "x".repeat(50_000)
                + "\"}]},\"id\":\"a1b2-7\"}";
        CappedLines lines = new CappedLines(bytes(big + "\n{\"next\":true}\n"), 4096);

        CappedLines.Line refused = lines.next().orElseThrow();
        assertThat(refused.refused()).isTrue();
        assertThat(refused.bytes()).isEqualTo(big.length());
        assertThat(refused.ends()).startsWith("{\"jsonrpc\":\"2.0\",\"result\"").endsWith("\"}]},\"id\":\"a1b2-7\"}")
                .hasSizeLessThan(2 * CappedLines.KEPT + 10);
        assertThat(StdioTransport.idOf(refused.ends())).hasValue("a1b2-7");
        assertThat(lines.next().orElseThrow().text()).isEqualTo("{\"next\":true}");
    }

    @Test
    void a_refused_line_keeps_at_most_the_cap_in_memory_however_long_it_is() throws Exception {
        long size = 200L * 1000 * 1000;   // 200 MB, never held: the stream makes its bytes up as they are read
        InputStream endless = new InputStream() {
            long left = size;

            @Override
            public int read() {
                return left-- > 0 ? 'x' : left == -1 ? '\n' : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (left < 0) return -1;
                int n = (int) Math.min(len, left);
                java.util.Arrays.fill(b, off, off + n, (byte) 'x');
                left -= n;
                if (n == 0) {
                    b[off] = '\n';
                    left = -1;
                    return 1;
                }
                return n;
            }
        };
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean)
                java.lang.management.ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();

        CappedLines.Line line = new CappedLines(endless, 1 << 20).next().orElseThrow();

        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(line.refused()).isTrue();
        assertThat(line.bytes()).isEqualTo(size);
        assertThat(allocated).as("bytes allocated reading a 200 MB line with a 1 MiB cap").isLessThan(8L << 20);
    }

    @Test
    void the_id_of_a_refused_answer_is_found_first_or_last_but_not_inside_its_result() {
        assertThat(StdioTransport.idOf("{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"content\" … xxxx\"}]}}"))
                .hasValue(7);
        assertThat(StdioTransport.idOf("{\"result\":{\"content\":[{\"id\":3,\"text\":\"xx … xxxx\"}]}}")).isEmpty();
    }

    private static InputStream bytes(String s) {
        return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
    }
}

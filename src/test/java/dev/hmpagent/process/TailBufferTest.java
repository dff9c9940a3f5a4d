package dev.hmpagent.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class TailBufferTest {

    private static void append(TailBuffer buffer, String text) {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        buffer.append(bytes, 0, bytes.length);
    }

    @Test
    void outputWithinTheCapIsShownWholeWithoutAHeader() {
        TailBuffer buffer = new TailBuffer(10);
        append(buffer, "hello\n");
        append(buffer, "abcd");

        assertThat(buffer.render()).isEqualTo("hello\nabcd");
        assertThat(buffer.totalBytes()).isEqualTo(10);
    }

    @Test
    void manySmallWritesKeepOnlyTheTailAndSayHowMuchWasCut() {
        TailBuffer buffer = new TailBuffer(10);
        for (int i = 0; i < 100; i++) {
            append(buffer, Integer.toString(i % 10));
        }

        assertThat(buffer.render()).isEqualTo("[… 90 earlier bytes cut; last 10 bytes shown]\n0123456789");
    }

    @Test
    void oneWriteLargerThanTheCapKeepsItsOwnTail() {
        TailBuffer buffer = new TailBuffer(4);
        append(buffer, "ab");
        append(buffer, "0123456789");

        assertThat(buffer.render()).isEqualTo("[… 8 earlier bytes cut; last 4 bytes shown]\n6789");
    }

    @Test
    void aCharacterCutInHalfAtTheStartIsDroppedSoTheTextStaysValid() {
        TailBuffer buffer = new TailBuffer(5);
        append(buffer, "ééé"); // 6 bytes: the tail starts inside the first é

        assertThat(buffer.render()).isEqualTo("[… 2 earlier bytes cut; last 4 bytes shown]\néé");
    }

    @Test
    void aFourByteCharacterCutAnywhereLeavesNoBrokenBytes() {
        for (int cap = 1; cap <= 8; cap++) {
            TailBuffer buffer = new TailBuffer(cap);
            append(buffer, "x😀😀");
            String text = buffer.render();
            assertThat(text).as("cap %d", cap).doesNotContain("\uFFFD");
            String shown = text.substring(text.indexOf('\n') + 1);
            assertThat("x😀😀").as("cap %d", cap).endsWith(shown);
        }
    }
}

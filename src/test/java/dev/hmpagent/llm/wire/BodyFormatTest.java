package dev.hmpagent.llm.wire;

import okhttp3.MediaType;
import okio.Buffer;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static dev.hmpagent.llm.wire.BodyFormat.EVENT_STREAM;
import static dev.hmpagent.llm.wire.BodyFormat.JSON;
import static dev.hmpagent.llm.wire.BodyFormat.OTHER;
import static org.assertj.core.api.Assertions.assertThat;

class BodyFormatTest {

    private static BodyFormat of(String contentType, String body) throws IOException {
        MediaType type = contentType == null ? null : MediaType.get(contentType);
        return BodyFormat.of(type, new Buffer().writeUtf8(body), EVENT_STREAM);
    }

    @Test
    void declared_types_decide_without_looking_at_the_body() throws IOException {
        assertThat(of("text/event-stream", "{")).isEqualTo(EVENT_STREAM);
        assertThat(of("text/event-stream; charset=utf-8", "")).isEqualTo(EVENT_STREAM);
        assertThat(of("application/json", "data: x")).isEqualTo(JSON);
        assertThat(of("application/problem+json", "")).isEqualTo(JSON);
        assertThat(of("TEXT/HTML; charset=UTF-8", "data: x")).isEqualTo(OTHER);
        assertThat(of("application/octet-stream", "{")).isEqualTo(OTHER);
    }

    @Test
    void untyped_and_plain_text_bodies_are_sniffed_by_their_first_non_blank_bytes() throws IOException {
        for (String type : new String[] {null, "text/plain", "text/plain; charset=utf-8"}) {
            assertThat(of(type, "data: {}")).as("%s data", type).isEqualTo(EVENT_STREAM);
            assertThat(of(type, "\r\n\n  : ping\n")).as("%s comment", type).isEqualTo(EVENT_STREAM);
            assertThat(of(type, "event: message\n")).as("%s event", type).isEqualTo(EVENT_STREAM);
            assertThat(of(type, "id: 1\n")).as("%s id", type).isEqualTo(EVENT_STREAM);
            assertThat(of(type, " \t{\"choices\":[]}")).as("%s json", type).isEqualTo(JSON);
            assertThat(of(type, "<html>")).as("%s html", type).isEqualTo(OTHER);
            assertThat(of(type, "datum")).as("%s near miss", type).isEqualTo(OTHER);
            assertThat(of(type, "dat")).as("%s cut short", type).isEqualTo(OTHER);
            assertThat(of(type, " \n ")).as("%s blank", type).isEqualTo(EVENT_STREAM);
        }
    }

    @Test
    void sniffing_does_not_consume_the_body() throws IOException {
        Buffer body = new Buffer().writeUtf8("\n{\"a\":1}");

        assertThat(BodyFormat.sniff(body, JSON)).isEqualTo(JSON);
        assertThat(body.readUtf8()).isEqualTo("\n{\"a\":1}");
    }

    @Test
    void an_endless_run_of_blanks_is_not_waited_out() throws IOException {
        assertThat(BodyFormat.sniff(new Buffer().writeUtf8(" ".repeat(100_000) + "{"), JSON)).isEqualTo(OTHER);
    }
}

package dev.hmpagent.llm.wire;

import okhttp3.MediaType;
import okio.Buffer;
import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BodiesTest {

    @Test
    void a_body_within_the_cap_is_read_whole() throws IOException {
        assertThat(Bodies.readCapped(new Buffer().writeUtf8("{\"a\":\"é\"}"), 11)).isEqualTo("{\"a\":\"é\"}");
    }

    @Test
    void a_body_beyond_the_cap_is_a_bad_response_and_is_not_read() {
        Buffer body = new Buffer().writeUtf8("x".repeat(3 * 1024 * 1024));

        assertThatThrownBy(() -> Bodies.readCapped(body, 2 * 1024 * 1024))
                .isInstanceOfSatisfying(ReplyException.class, e -> {
                    assertThat(e.kind()).isEqualTo(ReplyException.BAD_RESPONSE);
                    assertThat(e.getMessage()).contains("larger than 2 MB");
                });
        assertThat(body.size()).isEqualTo(3 * 1024 * 1024);
    }

    @Test
    void a_content_type_is_described_without_its_parameters() {
        assertThat(Bodies.describe(MediaType.get("text/html; charset=utf-8"))).isEqualTo("text/html");
        assertThat(Bodies.describe(null)).isNull();
    }
}

package dev.hmpagent.llm.wire;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class BaseUrlTest {

    @Test
    void the_endpoint_shown_has_no_credentials_query_or_trailing_slash() {
        BaseUrl base = BaseUrl.parse(" http://user:pw@example.test:8080/v1/ ");

        assertThat(base.endpoint()).isEqualTo("http://example.test:8080/v1");
        assertThat(base.host()).isEqualTo("example.test");
        assertThat(base.text()).isEqualTo("http://user:pw@example.test:8080/v1");
    }

    @Test
    void paths_resolve_under_the_base() {
        assertThat(BaseUrl.parse("https://api.example/v1//").resolve("/messages").toString())
                .isEqualTo("https://api.example/v1/messages");
        assertThat(BaseUrl.parse("https://api.example/v1/").pathEndsWith("/v1")).isTrue();
        assertThat(BaseUrl.parse("https://api.example").pathEndsWith("/v1")).isFalse();
    }

    @Test
    void a_base_that_is_not_http_names_the_setting() {
        assertThatThrownBy(() -> BaseUrl.parse("localhost:11434"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("llm.base_url");
    }
}

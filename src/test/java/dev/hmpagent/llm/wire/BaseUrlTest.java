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

    @Test
    void a_server_on_this_machine_or_network_is_local_and_a_hosted_one_is_not() {
        for (String local : new String[] {"http://localhost:11434", "http://127.0.0.1:8080/v1", "http://[::1]:8080/v1",
                "http://192.168.1.20:11434", "http://10.0.0.5/v1", "http://172.20.0.2:8000/v1", "http://gpu-box.local:8080",
                "http://[fd00::5]:8080", "http://169.254.10.1:8080"}) {
            assertThat(BaseUrl.parse(local).local()).as(local).isTrue();
        }
        for (String hosted : new String[] {"https://api.openai.com/v1", "https://openrouter.ai/api/v1",
                "http://8.8.8.8/v1", "http://172.32.0.1/v1", "https://localhost.example.com/v1"}) {
            assertThat(BaseUrl.parse(hosted).local()).as(hosted).isFalse();
        }
    }
}

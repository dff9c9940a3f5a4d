package dev.hmpagent.llm.wire;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.List;
import okhttp3.ConnectionSpec;
import okhttp3.OkHttpClient;
import org.junit.jupiter.api.Test;

/** The client a provider makes for its base URL: a plain-http server gets one that sets up no TLS. */
class HttpCallsClientTest {
    @Test
    void a_plain_http_base_url_gets_a_cleartext_only_client_without_tls() {
        OkHttpClient local = HttpCalls.client("http://127.0.0.1:11434/v1", Duration.ofSeconds(1), Duration.ofSeconds(2));
        assertThat(local.connectionSpecs()).containsExactly(ConnectionSpec.CLEARTEXT);
        assertThat(local.x509TrustManager()).as("no trust store read for a local server").isNull();
        assertThat(local.readTimeoutMillis()).isEqualTo(2_000);
        assertThat(local.writeTimeoutMillis()).isEqualTo(2_000);
        assertThat(local.connectTimeoutMillis()).isEqualTo(1_000);
        assertThat(HttpCalls.builderFor("HTTP://localhost:8080").build().connectionSpecs())
                .containsExactly(ConnectionSpec.CLEARTEXT);
    }

    @Test
    void an_https_base_url_gets_the_default_tls_client() {
        OkHttpClient hosted = HttpCalls.client("https://api.openai.com/v1", Duration.ofSeconds(1), Duration.ofSeconds(2));
        assertThat(hosted.connectionSpecs()).isEqualTo(List.of(ConnectionSpec.MODERN_TLS, ConnectionSpec.CLEARTEXT));
        assertThat(hosted.x509TrustManager()).isNotNull();
    }
}

package dev.hmpagent.llm.wire;

import okhttp3.Call;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

class InFlightCallTest {
    private final OkHttpClient http = new OkHttpClient();

    private Call call() {
        return http.newCall(new Request.Builder().url("http://localhost:9/").build());
    }

    @Test
    void a_cancel_reaches_the_attached_call_and_any_attached_later() {
        InFlightCall inFlight = new InFlightCall(Duration.ofMinutes(1));
        Call first = call();
        inFlight.attach(first);

        inFlight.cancel();
        Call second = call();
        inFlight.attach(second);

        assertThat(inFlight.cancelled()).isTrue();
        assertThat(first.isCanceled()).isTrue();
        assertThat(second.isCanceled()).isTrue();
    }

    @Test
    void the_deadline_counts_down_and_an_absurd_one_is_capped() {
        assertThat(new InFlightCall(Duration.ofMinutes(1)).remainingNanos())
                .isPositive().isLessThanOrEqualTo(Duration.ofMinutes(1).toNanos());
        assertThat(new InFlightCall(Duration.ofDays(1_000_000)).remainingNanos())
                .isLessThanOrEqualTo(InFlightCall.MAX_DEADLINE.toNanos());
        assertThat(new InFlightCall(Duration.ofNanos(1)).cancelled()).isFalse();
    }
}

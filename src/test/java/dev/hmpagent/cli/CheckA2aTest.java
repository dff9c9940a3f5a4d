package dev.hmpagent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.config.A2aSection;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** agent check says what [a2a] exposes, naming token variables and never their values. */
class CheckA2aTest {
    @Test
    void it_says_not_served_loopback_without_token_or_the_token_variables_and_which_are_unset() {
        assertThat(CheckCommand.a2aExposure(A2aSection.none(), Map.of())).startsWith("A2A: not served");
        assertThat(CheckCommand.a2aExposure(A2aSection.none().listening("127.0.0.1:7420"), Map.of()))
                .startsWith("A2A: 127.0.0.1:7420 serves the agent card and its JSON-RPC to anyone on this machine");
        String guarded = CheckCommand.a2aExposure(A2aSection.none().listening("0.0.0.0:7420")
                .withTokens(List.of("OPS_TOKEN", "CI_TOKEN")), Map.of("OPS_TOKEN", "s3cret-value"));
        assertThat(guarded).contains("callers with a bearer token from OPS_TOKEN, CI_TOKEN; not set now: CI_TOKEN")
                .doesNotContain("s3cret-value");
    }
}

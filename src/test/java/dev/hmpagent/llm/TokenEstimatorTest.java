package dev.hmpagent.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;

class TokenEstimatorTest {
    private final ObjectMapper mapper = new ObjectMapper();

    @Test
    void a_request_that_offers_tools_counts_their_names_descriptions_and_schemas() throws Exception {
        List<Message> messages = List.of(Message.system("x".repeat(400)), Message.user("y".repeat(40)));
        LlmRequest plain = new LlmRequest(messages, 0.7, 100, 0, 0);
        String schema = "{\"type\":\"object\",\"properties\":{\"path\":{\"type\":\"string\"}},\"required\":[\"path\"]}";
        LlmRequest withTools = new LlmRequest(messages, 0.7, 100, 0, 0,
                List.of(new ToolSpec("file_read", "read a text file under the workspace roots", mapper.readTree(schema))),
                ToolOffer.NONE);

        assertThat(TokenEstimator.estimate(plain)).isEqualTo(TokenEstimator.estimate(messages)).isEqualTo(118);
        // 4 overhead + "file_read" 3 + the description 11 + the schema's 77 characters 20
        assertThat(TokenEstimator.estimate(withTools)).isEqualTo(118 + 4 + 3 + 11 + 20);
    }
}

package dev.hmpagent.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.llm.ollama.OllamaClient;
import dev.hmpagent.llm.ollama.OllamaSettings;
import dev.hmpagent.llm.openai.OpenAiClient;
import dev.hmpagent.llm.openai.OpenAiSettings;
import dev.hmpagent.testing.FakeOllamaServer;
import dev.hmpagent.testing.FakeOpenAiServer;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * {@code commands = "json"} against the fakes of OpenAI-compatible servers and Ollama: the request carries the reply
 * schema in each server's field and the JSON context 0, and a server that refuses the schema gets blocks from then on.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class JsonModeOnFakeServersTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SETTING = "llm.commands = \"block\"";
    private static final String REPLY = "{\"thought\": \"Answering.\", \"commands\": [{\"type\": \"send_message\","
            + " \"args\": {\"text\": \"hi there\"}}]}";

    private static ReplySchema schema() throws IOException {
        return ReplySchema.of(List.of(new ToolSpec("send_message", "tell the user", JSON.readTree("{\"type\":\"object\","
                + "\"properties\":{\"text\":{\"type\":\"string\"}},\"required\":[\"text\"]}"))));
    }

    private static LlmRequest request() throws IOException {
        ToolOffer offer = new ToolOffer(List.of(), Message.system(""), schema(), Message.system("ANSWER IN JSON"));
        return new LlmRequest(List.of(Message.system("BLOCK CONTRACT # Commands:"), Message.user("hello")), 0.2, 256,
                0, 0, List.of(), offer);
    }

    private static CommandsByTools openAi(FakeOpenAiServer server) {
        return new CommandsByTools(new OpenAiClient(new OpenAiSettings(server.baseUrl(), "", "test-model", true,
                Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(30))), CommandsByTools.Form.JSON,
                SETTING);
    }

    private static CommandsByTools ollama(FakeOllamaServer server) {
        OllamaSettings settings = new OllamaSettings(server.baseUrl(), FakeOllamaServer.MODEL, true,
                Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(30), Map.of(), "", "");
        return new CommandsByTools(new OllamaClient(settings, dev.hmpagent.llm.wire.HttpCalls.constant(dev.hmpagent.llm.wire.HttpCalls.client(server.baseUrl(),
                Duration.ofSeconds(5), Duration.ofSeconds(30))), Clock.systemUTC()), CommandsByTools.Form.JSON, SETTING);
    }

    @Test
    void openai_compatible_servers_get_response_format_json_schema_and_the_reply_becomes_thought_and_calls()
            throws Exception {
        try (FakeOpenAiServer server = new FakeOpenAiServer()) {
            server.streamed(REPLY, 10, 5);

            Completion c = openAi(server).complete(request(), StreamListener.NONE);

            assertThat(c.text()).isEqualTo("Answering.");
            assertThat(c.toolCalls()).containsExactly(new ToolCall("", "send_message", "{\"text\":\"hi there\"}"));
            JsonNode body = server.take().body();
            JsonNode format = body.path("response_format");
            assertThat(format.path("type").asText()).isEqualTo("json_schema");
            assertThat(format.path("json_schema").path("name").asText()).isEqualTo("hmp_reply");
            assertThat(format.path("json_schema").path("strict").asBoolean()).isTrue();
            assertThat(format.path("json_schema").path("schema")).isEqualTo(schema().schema());
            assertThat(body.has("tools")).isFalse();
            assertThat(body.has("guided_json")).as("no field a server does not know, by default").isFalse();
            assertThat(body.path("messages").get(0).path("content").asText()).isEqualTo("ANSWER IN JSON");
        }
    }

    @Test
    void a_server_refusing_the_schema_is_told_once_and_the_same_request_goes_again_at_once_as_a_block()
            throws Exception {
        try (FakeOpenAiServer server = new FakeOpenAiServer()) {
            server.status(400, "{\"error\":{\"message\":\"response_format type json_schema is not supported\"}}")
                    .streamed("As a block.", 10, 2).streamed("Again.", 10, 2);
            CommandsByTools llm = openAi(server);

            Completion c = llm.complete(request(), StreamListener.NONE);

            assertThat(c.text()).isEqualTo("As a block.");
            assertThat(server.take().body().has("response_format")).isTrue();
            JsonNode again = server.take().body();
            assertThat(again.has("response_format")).as("retried at once without the schema").isFalse();
            assertThat(again.path("stream").asBoolean()).as("the stream was not the trouble").isTrue();
            assertThat(again.path("messages").get(0).path("content").asText()).startsWith("BLOCK CONTRACT");
            assertThat(llm.notices()).containsExactly("test-model at " + server.baseUrl() + " refused replies kept to"
                    + " a JSON schema (HTTP 400): it gets # Commands: blocks for the rest of this run; set " + SETTING
                    + " to stop asking for them");
            assertThat(llm.form()).isEqualTo(CommandsByTools.Form.BLOCK);

            llm.complete(request(), StreamListener.NONE);
            assertThat(server.take().body().has("response_format")).as("blocks for the rest of the run").isFalse();
            assertThat(llm.notices()).as("said once").isEmpty();
            assertThat(server.requestCount()).isEqualTo(3);
        }
    }

    @Test
    void ollama_gets_the_schema_as_format_and_a_422_naming_it_falls_back_to_blocks() throws Exception {
        try (FakeOllamaServer server = new FakeOllamaServer()) {
            server.streamed(REPLY, 10, 5).error(422, "invalid format: json schema unsupported")
                    .streamed("As a block.", 10, 2);
            CommandsByTools llm = ollama(server);

            Completion c = llm.complete(request(), StreamListener.NONE);
            Completion refused = llm.complete(request(), StreamListener.NONE);

            assertThat(c.text()).isEqualTo("Answering.");
            assertThat(c.toolCalls()).extracting(ToolCall::name).containsExactly("send_message");
            JsonNode body = server.take().body();
            assertThat(body.path("format")).isEqualTo(schema().schema());
            assertThat(body.path("messages").get(0).path("content").asText()).isEqualTo("ANSWER IN JSON");
            assertThat(refused.text()).isEqualTo("As a block.");
            assertThat(server.take().body().has("format")).isTrue();
            assertThat(server.take().body().has("format")).isFalse();
            assertThat(llm.notices()).singleElement().asString().contains("refused replies kept to a JSON schema"
                    + " (HTTP 422)", SETTING);
        }
    }

    @Test
    void a_400_that_is_not_about_the_schema_is_no_refusal_of_it() throws Exception {
        try (FakeOpenAiServer server = new FakeOpenAiServer()) {
            server.status(400, "{\"error\":{\"message\":\"max_tokens is too large\"}}")
                    .status(400, "{\"error\":{\"message\":\"max_tokens is too large\"}}");
            CommandsByTools llm = openAi(server);

            assertThat(org.assertj.core.api.Assertions.catchThrowableOfType(FatalLlmException.class,
                    () -> llm.complete(request(), StreamListener.NONE))).isNotNull();
            assertThat(llm.form()).isEqualTo(CommandsByTools.Form.JSON);
            assertThat(llm.notices()).isEmpty();
        }
    }

    @Test
    void only_a_400_that_names_the_schema_is_a_refused_schema() {
        for (String refused : new String[] {"response_format type json_schema is not supported",
                "Invalid JSON schema in format", "invalid format: expected \"json\"", "grammar failed to parse"}) {
            assertThat(CommandsByTools.refusesSchema(new FatalLlmException("http_400", "LLM endpoint x refused the"
                    + " request (HTTP 400: " + refused + ")", null))).as(refused).isTrue();
        }
        for (String other : new String[] {"messages: unsupported content type image", "max_tokens is too large",
                "model llama3 is not supported here"}) {
            assertThat(CommandsByTools.refusesSchema(new FatalLlmException("http_400", "LLM endpoint x refused the"
                    + " request (HTTP 400: " + other + ")", null))).as(other).isFalse();
        }
        assertThat(CommandsByTools.refusesSchema(new FatalLlmException("http_500", "json_schema", null))).isFalse();
    }
}

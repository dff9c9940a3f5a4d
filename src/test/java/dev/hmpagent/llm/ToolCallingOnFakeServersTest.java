package dev.hmpagent.llm;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.llm.anthropic.AnthropicClient;
import dev.hmpagent.llm.anthropic.AnthropicSettings;
import dev.hmpagent.llm.ollama.OllamaClient;
import dev.hmpagent.llm.ollama.OllamaSettings;
import dev.hmpagent.llm.openai.OpenAiClient;
import dev.hmpagent.llm.openai.OpenAiSettings;
import dev.hmpagent.testing.FakeAnthropicServer;
import dev.hmpagent.testing.FakeOllamaServer;
import dev.hmpagent.testing.FakeOpenAiServer;
import java.io.IOException;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Native tool calling against the fakes of the three APIs: the request carries the tools with their schemas and the
 * tools-mode context 0, streamed calls come back whole, and a server that refuses tools gets blocks from then on.
 */
@Timeout(value = 20, unit = TimeUnit.SECONDS)
class ToolCallingOnFakeServersTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SETTING = "llm.commands = \"block\"";
    private static final ToolCall SAY = new ToolCall("call_1", "send_message", "{\"text\": \"hi there\"}");
    private static final ToolCall DIARY = new ToolCall("call_2", "use",
            "{\"type\": \"diary_entry\", \"args\": {\"text\": \"met a person\", \"tags\": [\"people\"]}}");

    private static LlmRequest request() throws IOException {
        JsonNode say = JSON.readTree("{\"type\":\"object\",\"properties\":{\"text\":{\"type\":\"string\"}},"
                + "\"required\":[\"text\"]}");
        JsonNode use = JSON.readTree("{\"type\":\"object\",\"properties\":{\"type\":{\"type\":\"string\"},"
                + "\"args\":{\"type\":\"object\"}},\"required\":[\"type\"]}");
        ToolOffer offer = new ToolOffer(List.of(new ToolSpec("send_message", "tell the user", say),
                new ToolSpec("use", "run any command", use)), Message.system("CALL THE TOOLS"));
        return new LlmRequest(List.of(Message.system("BLOCK CONTRACT # Commands:"), Message.user("hello")), 0.2, 256,
                0, 0, List.of(), offer);
    }

    private static OpenAiClient openAi(FakeOpenAiServer server, boolean stream) {
        return new OpenAiClient(new OpenAiSettings(server.baseUrl(), "", "test-model", stream, Duration.ofSeconds(5),
                Duration.ofSeconds(30), Duration.ofSeconds(30)));
    }

    private static void assertCalls(Completion c) {
        assertThat(c.toolCalls()).containsExactly(new ToolCall("call_1", "send_message", SAY.argumentsJson()),
                new ToolCall("call_2", "use", DIARY.argumentsJson()));
    }

    @Test
    void openai_gets_the_tools_as_functions_and_its_streamed_tool_call_deltas_are_assembled() throws Exception {
        try (FakeOpenAiServer server = new FakeOpenAiServer()) {
            server.streamedToolCalls("Answering.", SAY, DIARY);
            List<String> deltas = new ArrayList<>();

            Completion c = new CommandsByTools(openAi(server, true), true, SETTING).complete(request(), deltas::add);

            assertThat(c.text()).isEqualTo("Answering.");
            assertThat(String.join("", deltas)).as("only text is streamed to the screen").isEqualTo("Answering.");
            assertCalls(c);
            assertThat(c.finishReason()).isEqualTo("tool_calls");
            JsonNode body = server.take().body();
            assertThat(body.path("tools")).hasSize(2);
            assertThat(body.path("tools").get(0).path("type").asText()).isEqualTo("function");
            assertThat(body.path("tools").get(0).path("function").path("name").asText()).isEqualTo("send_message");
            assertThat(body.path("tools").get(0).path("function").path("parameters").path("required").get(0).asText())
                    .isEqualTo("text");
            assertThat(body.path("messages").get(0).path("content").asText()).isEqualTo("CALL THE TOOLS");
        }
    }

    @Test
    void a_block_entry_gets_neither_tools_nor_the_tools_context_0() throws Exception {
        try (FakeOpenAiServer server = new FakeOpenAiServer()) {
            server.streamed("Fine.", 10, 2);

            new CommandsByTools(openAi(server, true), false, SETTING).complete(request(), StreamListener.NONE);

            JsonNode body = server.take().body();
            assertThat(body.has("tools")).isFalse();
            assertThat(body.path("messages").get(0).path("content").asText()).startsWith("BLOCK CONTRACT");
        }
    }

    @Test
    void openai_refusing_tools_is_told_once_and_the_same_request_goes_again_as_a_block() throws Exception {
        try (FakeOpenAiServer server = new FakeOpenAiServer()) {
            server.status(400, "{\"error\":{\"message\":\"tools is not supported for this model\",\"type\":"
                    + "\"invalid_request_error\"}}").streamed("As a block.", 10, 2).streamed("Again.", 10, 2);
            CommandsByTools llm = new CommandsByTools(openAi(server, true), true, SETTING);

            Completion c = llm.complete(request(), StreamListener.NONE);

            assertThat(c.text()).isEqualTo("As a block.");
            assertThat(server.take().body().has("tools")).isTrue();
            JsonNode again = server.take().body();
            assertThat(again.has("tools")).as("retried at once without tools").isFalse();
            assertThat(again.path("stream").asBoolean()).as("the stream was not the trouble").isTrue();
            assertThat(again.path("messages").get(0).path("content").asText()).startsWith("BLOCK CONTRACT");
            assertThat(llm.notices()).singleElement().asString().contains("refused native tool calls", SETTING);
            assertThat(llm.offersTools()).isFalse();

            llm.complete(request(), StreamListener.NONE);
            assertThat(server.take().body().has("tools")).as("blocks for the rest of the run").isFalse();
            assertThat(llm.notices()).as("said once").isEmpty();
            assertThat(server.requestCount()).isEqualTo(3);
        }
    }

    @Test
    void a_server_that_cannot_stream_with_tools_is_asked_again_without_a_stream_and_keeps_the_tools() throws Exception {
        try (FakeOpenAiServer server = new FakeOpenAiServer()) {
            server.status(400, "{\"error\":{\"message\":\"Cannot use tools with stream\"}}")
                    .plainToolCalls("Answering.", SAY, DIARY);
            CommandsByTools llm = new CommandsByTools(openAi(server, true), true, SETTING);

            Completion c = llm.complete(request(), StreamListener.NONE);

            assertCalls(c);
            server.take();
            JsonNode again = server.take().body();
            assertThat(again.path("stream").asBoolean()).isFalse();
            assertThat(again.has("tools")).isTrue();
            assertThat(llm.offersTools()).isTrue();
            assertThat(llm.notices()).isEmpty();
        }
    }

    @Test
    void another_400_is_no_refusal_of_tools() throws Exception {
        try (FakeOpenAiServer server = new FakeOpenAiServer()) {
            server.status(400, "{\"error\":{\"message\":\"max_tokens is too large\"}}")
                    .status(400, "{\"error\":{\"message\":\"max_tokens is too large\"}}");
            CommandsByTools llm = new CommandsByTools(openAi(server, true), true, SETTING);

            LlmException e = catchThrowableOfType(LlmException.class, () -> llm.complete(request(), StreamListener.NONE));

            assertThat(e.kind()).isEqualTo("http_400");
            assertThat(llm.offersTools()).isTrue();
            assertThat(llm.notices()).isEmpty();
        }
    }

    @Test
    void anthropic_gets_tools_with_input_schemas_cached_and_its_streamed_tool_use_is_assembled() throws Exception {
        try (FakeAnthropicServer server = new FakeAnthropicServer()) {
            server.events(FakeAnthropicServer.toolUseStream("Answering.", SAY, DIARY));
            AnthropicSettings settings = new AnthropicSettings(server.baseUrl(), "k", FakeAnthropicServer.MODEL, true,
                    Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(30));
            LlmClient client = new AnthropicClient(settings, dev.hmpagent.llm.wire.HttpCalls.constant(dev.hmpagent.llm.wire.HttpCalls.client(server.baseUrl(),
                    Duration.ofSeconds(5), Duration.ofSeconds(30))), Clock.systemUTC());

            Completion c = new CommandsByTools(client, true, SETTING).complete(request(), StreamListener.NONE);

            assertThat(c.text()).isEqualTo("Answering.");
            assertCalls(c);
            JsonNode body = server.take().body();
            JsonNode tools = body.path("tools");
            assertThat(tools).hasSize(2);
            assertThat(tools.get(0).path("input_schema").path("properties").has("text")).isTrue();
            assertThat(tools.get(1).path("cache_control").path("type").asText()).as("the tools are a stable prefix")
                    .isEqualTo("ephemeral");
            assertThat(tools.get(0).has("cache_control")).isFalse();
            assertThat(body.path("system").get(0).path("text").asText()).isEqualTo("CALL THE TOOLS");
        }
    }

    private static OllamaClient ollama(FakeOllamaServer server) {
        OllamaSettings settings = new OllamaSettings(server.baseUrl(), FakeOllamaServer.MODEL, true,
                Duration.ofSeconds(5), Duration.ofSeconds(30), Duration.ofSeconds(30), Map.of(), "", "");
        return new OllamaClient(settings, dev.hmpagent.llm.wire.HttpCalls.constant(dev.hmpagent.llm.wire.HttpCalls.client(server.baseUrl(),
                Duration.ofSeconds(5), Duration.ofSeconds(30))), Clock.systemUTC());
    }

    @Test
    void ollama_gets_the_tools_and_its_tool_calls_with_object_arguments_become_json_text() throws Exception {
        try (FakeOllamaServer server = new FakeOllamaServer()) {
            server.stream(FakeOllamaServer.chunk("Answering."), FakeOllamaServer.toolCalls(SAY, DIARY),
                    FakeOllamaServer.done("stop", 10, 5));

            Completion c = new CommandsByTools(ollama(server), true, SETTING).complete(request(), StreamListener.NONE);

            assertThat(c.text()).isEqualTo("Answering.");
            assertThat(c.toolCalls()).extracting(ToolCall::name).containsExactly("send_message", "use");
            assertThat(JSON.readTree(c.toolCalls().get(0).argumentsJson())).isEqualTo(JSON.readTree(SAY.argumentsJson()));
            assertThat(JSON.readTree(c.toolCalls().get(1).argumentsJson())).isEqualTo(JSON.readTree(DIARY.argumentsJson()));
            JsonNode body = server.take().body();
            assertThat(body.path("tools").get(0).path("function").path("name").asText()).isEqualTo("send_message");
            assertThat(body.path("messages").get(0).path("content").asText()).isEqualTo("CALL THE TOOLS");
        }
    }

    @Test
    void ollama_saying_the_model_does_not_support_tools_falls_back_to_blocks() throws Exception {
        try (FakeOllamaServer server = new FakeOllamaServer()) {
            server.error(400, "registry.ollama.ai/library/gemma3:270m does not support tools")
                    .streamed("As a block.", 10, 2);
            CommandsByTools llm = new CommandsByTools(ollama(server), true, SETTING);

            Completion c = llm.complete(request(), StreamListener.NONE);

            assertThat(c.text()).isEqualTo("As a block.");
            server.take();
            assertThat(server.take().body().has("tools")).isFalse();
            assertThat(llm.notices()).singleElement().asString().contains(SETTING);
        }
    }
}

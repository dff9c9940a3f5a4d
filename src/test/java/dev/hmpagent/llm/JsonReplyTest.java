package dev.hmpagent.llm;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.hmpagent.testing.FakeLlmClient;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A JSON reply ({@code commands = "json"}) read by the entry's client: its thought the text, its commands calls, its
 * stream the thought alone; a reply that is no JSON left as it came.
 */
class JsonReplyTest {
    private static final String SETTING = "llm.commands = \"block\"";
    private static final String REPLY = "{\"thought\": \"The user said \\\"hi\\\".\\nI answer \\u00e9.\", \"commands\":"
            + " [{\"type\": \"send_message\", \"args\": {\"text\": \"hi there\"}},"
            + " {\"type\": \"diary_entry\", \"args\": {\"text\": \"met someone\", \"tags\": null}},"
            + " {\"args\": {\"text\": \"no type\"}}, {\"type\": \"help\", \"args\": \"diary_entry\"}]}";

    private static LlmRequest request() throws Exception {
        ToolOffer offer = new ToolOffer(List.of(), Message.system(""), ReplySchema.of(List.of(new ToolSpec("help",
                "help", new ObjectMapper().readTree("{\"type\":\"object\",\"properties\":{}}")))),
                Message.system("ANSWER IN JSON"));
        return new LlmRequest(List.of(Message.system("BLOCK CONTRACT"), Message.user("hello")), 0.2, 64, 0, 0,
                List.of(), offer);
    }

    @Test
    void a_streamed_json_reply_shows_its_thought_as_it_comes_and_becomes_thought_and_calls() throws Exception {
        FakeLlmClient server = new FakeLlmClient().streamed(REPLY, 3);
        List<String> deltas = new ArrayList<>();

        Completion c = new CommandsByTools(server, CommandsByTools.Form.JSON, SETTING).complete(request(),
                deltas::add);

        assertThat(String.join("", deltas)).as("the thought alone, escapes decoded across deltas")
                .isEqualTo("The user said \"hi\".\nI answer é.");
        assertThat(c.text()).isEqualTo("The user said \"hi\".\nI answer é.");
        assertThat(c.toolCalls()).containsExactly(new ToolCall("", "send_message", "{\"text\":\"hi there\"}"),
                new ToolCall("", "diary_entry", "{\"text\":\"met someone\"}"),
                new ToolCall("", "", "{\"text\":\"no type\"}"), new ToolCall("", "help", "\"diary_entry\""));
        LlmRequest sent = server.requests.get(0);
        assertThat(sent.replySchema().any()).isTrue();
        assertThat(sent.messages().get(0).content()).isEqualTo("ANSWER IN JSON");
        assertThat(sent.tools()).isEmpty();
    }

    @Test
    void a_reply_that_is_no_json_is_streamed_and_kept_as_it_came() throws Exception {
        String block = "Fine.\n# Commands:\n[{\"type\": \"help\", \"args\": {}}]";
        FakeLlmClient server = new FakeLlmClient().streamed(block, 4).reply("  " + block);
        List<String> deltas = new ArrayList<>();
        CommandsByTools llm = new CommandsByTools(server, CommandsByTools.Form.JSON, SETTING);

        Completion streamed = llm.complete(request(), deltas::add);
        Completion whole = llm.complete(request(), StreamListener.NONE);

        assertThat(String.join("", deltas)).isEqualTo(block);
        assertThat(streamed.text()).isEqualTo(block);
        assertThat(streamed.toolCalls()).isEmpty();
        assertThat(whole.text()).isEqualTo("  " + block);
        assertThat(whole.toolCalls()).isEmpty();
    }

    @Test
    void a_json_reply_cut_before_it_closed_keeps_the_thought_it_had() throws Exception {
        FakeLlmClient server = new FakeLlmClient().reply("{\"thought\": \"I was say").reply("{\"thought\": \"Done.\", "
                + "\"commands\": [{\"type\": \"send_message\", \"args\": {\"te");
        CommandsByTools llm = new CommandsByTools(server, CommandsByTools.Form.JSON, SETTING);

        assertThat(llm.complete(request(), StreamListener.NONE).text()).isEqualTo("I was say");
        Completion cut = llm.complete(request(), StreamListener.NONE);
        assertThat(cut.text()).isEqualTo("Done.");
        assertThat(cut.toolCalls()).isEmpty();
    }

    @Test
    void a_block_entry_and_a_json_entry_without_a_schema_offered_get_the_block_request() throws Exception {
        FakeLlmClient server = new FakeLlmClient().reply("{\"thought\": \"x\"}").reply("{\"thought\": \"y\"}");

        new CommandsByTools(server, CommandsByTools.Form.BLOCK, SETTING).complete(request(), StreamListener.NONE);
        Completion plain = new CommandsByTools(server, CommandsByTools.Form.JSON, SETTING).complete(new LlmRequest(
                List.of(Message.system("BLOCK CONTRACT"), Message.user("hello")), 0.2, 64), StreamListener.NONE);

        assertThat(server.requests.get(0).replySchema().any()).isFalse();
        assertThat(server.requests.get(0).messages().get(0).content()).isEqualTo("BLOCK CONTRACT");
        assertThat(server.requests.get(1).replySchema().any()).isFalse();
        assertThat(plain.text()).as("nothing asked for JSON: the reply is not read as such").isEqualTo("{\"thought\": \"y\"}");
    }
}

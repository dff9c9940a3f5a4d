package dev.hmpagent.llm;

import static org.assertj.core.api.Assertions.assertThat;

import dev.hmpagent.testing.FakeLlmClient;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/** Context 0 and the tools follow the entry that answers: a failover from a tools entry to a block entry. */
class CommandsByToolsFailoverTest {
    private static final LlmRequest REQUEST = new LlmRequest(List.of(Message.system("BLOCK CONTRACT"),
            Message.user("hello")), 0.2, 64, 0, 0, List.of(), new ToolOffer(List.of(new ToolSpec("help", "help",
            new com.fasterxml.jackson.databind.ObjectMapper().createObjectNode().put("type", "object"))),
            Message.system("CALL THE TOOLS")));

    @Test
    void the_tools_entry_gets_the_tools_and_the_block_entry_it_fails_over_to_gets_the_block_contract() {
        FakeLlmClient tools = new FakeLlmClient()
                .fail(new RetryableLlmException("connect", "refused", null, null)).reply("after");
        FakeLlmClient block = new FakeLlmClient().reply("Fine.");
        FailoverLlm failover = new FailoverLlm(List.of(
                new FailoverLlm.Route("main", new CommandsByTools(tools, true, "llm.commands = \"block\"")),
                new FailoverLlm.Route("b", new CommandsByTools(block, false, "x"))),
                (failures, since) -> failures >= 1, new Backoff(Duration.ofSeconds(15), Duration.ofMinutes(5)),
                System::nanoTime);

        assertThat(failover.complete(REQUEST, StreamListener.NONE).text()).isEqualTo("Fine.");

        LlmRequest asked = tools.requests.get(0);
        assertThat(asked.tools()).extracting(ToolSpec::name).containsExactly("help");
        assertThat(asked.messages().get(0).content()).isEqualTo("CALL THE TOOLS");
        LlmRequest answered = block.requests.get(0);
        assertThat(answered.tools()).isEmpty();
        assertThat(answered.offer().any()).isFalse();
        assertThat(answered.messages().get(0).content()).isEqualTo("BLOCK CONTRACT");
        assertThat(Optional.of(failover.activeId())).contains("b");
    }
}

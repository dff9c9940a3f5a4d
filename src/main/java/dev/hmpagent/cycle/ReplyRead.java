package dev.hmpagent.cycle;

import dev.hmpagent.commands.CommandBlockParser;
import dev.hmpagent.commands.ParsedReply;
import dev.hmpagent.commands.QuotedBlocks;
import dev.hmpagent.commands.ReplySecrets;
import dev.hmpagent.context.AssembledPrompt;
import dev.hmpagent.llm.Completion;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A reply read once, as it came: its commands (native tool calls, or the {@code # Commands:} block screened for
 * blocks it only quoted from the data it was shown), and the copy of it that is kept, compared and shown again, its
 * secrets redacted. The commands run with the reply as it came. Stateless.
 */
public final class ReplyRead {
    /** The reply's commands and thought, and its kept copy. */
    record Read(ParsedReply parsed, Completion kept) { }

    private final CommandBlockParser parser;
    private final QuotedBlocks quoted;
    private final ReplySecrets secrets;

    public ReplyRead(CommandBlockParser parser, ReplySecrets secrets) {
        this.parser = Objects.requireNonNull(parser, "parser");
        this.quoted = new QuotedBlocks(parser);
        this.secrets = Objects.requireNonNull(secrets, "secrets");
    }

    Read read(Completion completion, AssembledPrompt prompt) {
        // native tool calls are the reply's commands, kept as a rendered block after its text (the thought)
        CommandTools.Read calls = completion.toolCalls().isEmpty() ? null
                : CommandTools.read(completion.text(), completion.toolCalls());
        ParsedReply parsed = calls != null ? calls.parsed()
                : quoted.screen(parser.parse(completion.text()), shownAsData(prompt));
        String text = calls != null ? calls.text() : completion.text();
        Completion kept = new Completion(secrets.redact(text), completion.usage(), completion.model(),
                completion.finishReason(), completion.interrupted(), List.of(), completion.toolsOffered(),
                completion.jsonAsked());
        return new Read(parsed, kept);
    }

    private static Map<String, String> shownAsData(AssembledPrompt prompt) {
        Map<String, String> shown = new LinkedHashMap<>();
        prompt.dataShown().forEach(d -> shown.putIfAbsent(d.source(), d.text()));
        return shown;
    }
}

package dev.hmpagent.commands;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 22: replies written the way models write command blocks and tool calls, each a file under
 * {@code src/test/resources/replies}: header lines, a {@code ---} line, then the reply as the model sent it.
 * Header lines: {@code source:} where the shape comes from; {@code expect:} one command it must yield, as
 * {@link CommandBlockParser#canonicalCommands} writes it (type, a space, the args with sorted keys), in
 * order; {@code error:} a piece of an error it must give, in order (none: it must give no error);
 * {@code block: false} when no command block may be found; {@code thought:} a piece of the thought.
 */
class CommandBlockCorpusTest {

    private static final CommandBlockParser PARSER = new CommandBlockParser(new ObjectMapper());

    record Reply(String file, String source, List<String> commands, List<String> errors, boolean block,
                 List<String> thought, String text) {
        @Override
        public String toString() { return file; }
    }

    static Stream<Reply> replies() throws IOException, URISyntaxException {
        Path dir = Path.of(Objects.requireNonNull(CommandBlockCorpusTest.class.getResource("/replies")).toURI());
        try (Stream<Path> files = Files.list(dir)) {
            return files.filter(p -> p.toString().endsWith(".txt")).sorted().map(CommandBlockCorpusTest::read)
                    .toList().stream();
        }
    }

    private static Reply read(Path file) {
        String all;
        try {
            all = Files.readString(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException("cannot read " + file, e);
        }
        int cut = all.indexOf("\n---\n");
        if (cut < 0) throw new IllegalStateException(file + " has no '---' line between its header and its reply");
        String source = "";
        List<String> commands = new ArrayList<>();
        List<String> errors = new ArrayList<>();
        List<String> thought = new ArrayList<>();
        boolean block = true;
        for (String line : all.substring(0, cut).split("\n")) {
            int colon = line.indexOf(": ");
            if (colon < 0) throw new IllegalStateException(file + ": header line without 'key: value': " + line);
            String value = line.substring(colon + 2);
            switch (line.substring(0, colon)) {
                case "source" -> source = value;
                case "expect" -> commands.add(value);
                case "error" -> errors.add(value);
                case "thought" -> thought.add(value);
                case "block" -> block = Boolean.parseBoolean(value);
                default -> throw new IllegalStateException(file + ": unknown header line: " + line);
            }
        }
        if (source.isBlank()) throw new IllegalStateException(file + " does not say where its shape comes from");
        return new Reply(file.getFileName().toString(), source, commands, errors, block, thought,
                all.substring(cut + 5));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("replies")
    void each_reply_yields_the_commands_and_errors_its_file_expects(Reply reply) {
        ParsedReply parsed = PARSER.parse(reply.text());

        String what = reply.file() + " (" + reply.source() + ")\n" + reply.text();
        assertThat(parsed.hasCommandBlock()).as(what).isEqualTo(reply.block());
        assertThat(PARSER.canonicalCommands(parsed)).as(what).containsExactlyElementsOf(reply.commands());
        List<String> messages = parsed.errors().stream().map(CommandParseError::message).toList();
        assertThat(messages).as(what + "\nerrors: " + messages).hasSameSizeAs(reply.errors());
        for (int i = 0; i < messages.size(); i++) assertThat(messages.get(i)).as(what).contains(reply.errors().get(i));
        for (String piece : reply.thought()) assertThat(parsed.thought()).as(what).contains(piece);
    }

    @Test
    void the_corpus_has_at_least_forty_replies_and_covers_the_header_forms() throws Exception {
        List<Reply> all = replies().toList();

        assertThat(all).hasSizeGreaterThanOrEqualTo(40);
        assertThat(all.stream().map(Reply::text)).anyMatch(t -> t.startsWith("## Commands\n"))
                .anyMatch(t -> t.contains("**Commands:**\n")).anyMatch(t -> t.startsWith("Commands:\n"))
                .anyMatch(t -> t.startsWith("### Commands\n")).anyMatch(t -> t.contains("\nКоманды:\n")
                        || t.startsWith("Команды:\n")).anyMatch(t -> t.contains("# Команды:\n"));
    }
}

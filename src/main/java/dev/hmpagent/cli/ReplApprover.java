package dev.hmpagent.cli;

import dev.hmpagent.commands.Approver;
import dev.hmpagent.commands.PendingCommand;
import dev.hmpagent.repl.OpenQuestion;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;

/**
 * Asks the person at the REPL whether a command may run. The question is printed above the prompt (what they
 * were typing stays on the line); the next line they enter that is {@code y}, {@code n} or {@code a} answers it,
 * any other line is a message as usual. A halt cancels the question (the answer is no). Only one question is open
 * at a time: the executor asks one command after another. It lives with the composition root because it joins
 * the executor's {@link Approver} to the REPL's {@link OpenQuestion}.
 */
public final class ReplApprover implements Approver, OpenQuestion {
    private static final long POLL_MILLIS = 50;

    private record Question(String text, CompletableFuture<Answer> answer) { }

    private final Consumer<String> say;
    private final boolean personPresent;
    private final AtomicReference<Question> open = new AtomicReference<>();

    /**
     * @param say           prints one block above the prompt
     * @param personPresent whether input comes from a person at a terminal (not a pipe)
     */
    public ReplApprover(Consumer<String> say, boolean personPresent) {
        this.say = Objects.requireNonNull(say, "say");
        this.personPresent = personPresent;
    }

    @Override
    public boolean personPresent() {
        return personPresent;
    }

    @Override
    public Answer ask(PendingCommand command, String question, BooleanSupplier cancelled) {
        if (!personPresent) return Answer.NO;
        Question q = new Question(question(command, question), new CompletableFuture<>());
        open.set(q);   // answerable before it is shown: a y typed the moment it appears must answer it
        say.accept(q.text());
        try {
            while (true) {
                if (cancelled.getAsBoolean()) {
                    say.accept("(the question about " + command.type() + " " + command.cmdId()
                            + " is withdrawn: the agent was halted)");
                    return Answer.NO;
                }
                try {
                    return q.answer().get(POLL_MILLIS, TimeUnit.MILLISECONDS);
                } catch (TimeoutException e) {
                    // poll the halt again
                } catch (ExecutionException e) {
                    return Answer.NO;
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return Answer.NO;
                }
            }
        } finally {
            open.compareAndSet(q, null);
        }
    }

    /** Whether a question waits for an answer. */
    public boolean waiting() {
        return open.get() != null;
    }

    /**
     * Offers a line the person entered: returns true when it answered the open question (y/yes, n/no, a/always),
     * false when it is an ordinary message (then the question is shown again, still open).
     */
    @Override
    public boolean offer(String line) {
        Question q = open.get();
        if (q == null) return false;
        Optional<Answer> answer = parse(line);
        if (answer.isEmpty()) {
            say.accept("(still waiting for y, n or a about the command above; your line was sent as a message)");
            return false;
        }
        q.answer().complete(answer.get());
        return true;
    }

    static Optional<Answer> parse(String line) {
        return switch (line.strip().toLowerCase(Locale.ROOT)) {
            case "y", "yes" -> Optional.of(Answer.YES);
            case "n", "no" -> Optional.of(Answer.NO);
            case "a", "always" -> Optional.of(Answer.ALWAYS);
            default -> Optional.empty();
        };
    }

    private static String question(PendingCommand command, String reason) {
        String what = command.args().hasNonNull("command") ? command.args().get("command").asText()
                : command.args().toString();
        return "the agent asks to run " + command.type() + " (" + command.cmdId() + "): " + what + "\n"
                + "  " + reason + "\n"
                + "  allow it? y = this once, n = no, a = always for this session — type y, n or a and press Enter";
    }
}

package dev.hmpagent.cli;

import java.io.PrintWriter;
import java.util.List;
import picocli.CommandLine;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.UnmatchedArgumentException;

/**
 * A mistake on the command line (picocli's, or a command's own check): one line on stderr that names it, folds in
 * picocli's did-you-mean when it has one and says which help to read, e.g.
 * {@code agent: unknown option '--tic' (did you mean --tick?); see agent log --help}; exit 2. Not the whole usage.
 */
final class UsageErrors implements CommandLine.IParameterExceptionHandler {
    @Override
    public int handleParseException(ParameterException ex, String[] args) {
        PrintWriter err = ex.getCommandLine().getErr();
        err.println(line(ex));
        err.flush();
        return ExitCodes.USAGE;
    }

    static String line(ParameterException ex) {
        CommandLine where = ex.getCommandLine();
        String hint = ex instanceof UnmatchedArgumentException unmatched ? hint(unmatched) : "";
        return "agent: " + what(ex) + hint + "; see " + where.getCommandSpec().qualifiedName() + " --help";
    }

    private static String what(ParameterException ex) {
        if (ex instanceof UnmatchedArgumentException unmatched && !unmatched.getUnmatched().isEmpty()) {
            String arg = unmatched.getUnmatched().get(0);
            if (unmatched.isUnknownOption()) return "unknown option '" + arg + "'";
            if (!ex.getCommandLine().getSubcommands().isEmpty()) return "unknown command '" + arg + "'";
            return "unexpected argument '" + arg + "'";
        }
        String message = ex.getMessage() == null || ex.getMessage().isBlank() ? ex.getClass().getSimpleName()
                : ex.getMessage().strip().replaceAll("\\s*\\R\\s*", " ");
        return lowerFirst(message);
    }

    /** "Invalid value…" reads "invalid value…" after "agent: "; "LLM…" and "--hz…" stay as they are. */
    private static String lowerFirst(String message) {
        boolean word = message.length() > 1 && Character.isUpperCase(message.charAt(0))
                && Character.isLowerCase(message.charAt(1));
        return word ? Character.toLowerCase(message.charAt(0)) + message.substring(1) : message;
    }

    /**
     * What the person may have meant: a word a letter or two from a command ("nte", "cofnig") is that command
     * misspelt; other words given to {@code agent} itself ("what is 2+2?") are a question to ask once with -p.
     */
    private static String hint(UnmatchedArgumentException unmatched) {
        List<String> words = unmatched.getUnmatched();
        String first = words.get(0);
        boolean misspelt = unmatched.getSuggestions().stream()
                .anyMatch(s -> dev.hmpagent.text.EditDistance.between(s, first) <= Math.max(1, first.length() / 3));
        if (unmatched.getCommandLine().getParent() == null && !unmatched.isUnknownOption() && !misspelt) {
            return "; to ask the agent once: agent -p '" + String.join(" ", words).replace("'", "'\\''") + "'";
        }
        return didYouMean(unmatched.getSuggestions());
    }

    /** " (did you mean log?)", " (did you mean -h or --help?)", or "" when picocli has no suggestion. */
    private static String didYouMean(List<String> suggestions) {
        if (suggestions.isEmpty()) return "";
        int last = suggestions.size() - 1;
        String options = last == 0 ? suggestions.get(0)
                : String.join(", ", suggestions.subList(0, last)) + " or " + suggestions.get(last);
        return " (did you mean " + options + "?)";
    }
}

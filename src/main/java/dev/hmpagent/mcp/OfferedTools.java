package dev.hmpagent.mcp;

import dev.hmpagent.commands.CommandRegistry;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Consumer;

/**
 * Which of a server's tools the LLM is offered: one whose name MCP does not allow, or that has a word of our safety
 * ({@code mcp.x.unlock}, {@code mcp.x.set_budget}), is left out, since the gate would refuse it; the person is told
 * once per tool.
 */
final class OfferedTools {
    /** The tools left out for a reserved word or a name MCP does not allow that the person was told of (once each). */
    private final Set<String> toldReserved = java.util.concurrent.ConcurrentHashMap.newKeySet();
    private final Consumer<String> notices;

    OfferedTools(Consumer<String> notices) {
        this.notices = Objects.requireNonNull(notices, "notices");
    }

    /** The tools of server {@code server} (its {@code tools}, read once) the LLM is offered. */
    List<McpTool> of(String server, List<McpTool> tools) {
        List<McpTool> out = new ArrayList<>();
        for (McpTool t : tools) {
            if (!t.validName()) {
                if (toldReserved.add(server + "\u0000" + t.name())) {
                    notices.accept("MCP server " + server + ": a tool is not offered to the LLM: its name \""
                            + printable(t.name()) + "\" is not one MCP allows (1 to 128 letters, digits, '_', '-' or"
                            + " '.'); the server's other tools are");
                }
                continue;
            }
            Optional<String> word = CommandRegistry.reservedWord(t.type());   // a dotted type: reserved by its words
            if (word.isEmpty()) {
                out.add(t);
            } else if (toldReserved.add(t.type())) {
                notices.accept("MCP server " + server + ": its tool " + t.name() + " is not offered to the LLM: "
                        + reserved(word.get()) + "; the server's other tools are");
            }
        }
        return out;
    }

    /** A server's word for a terminal line: on one line, at most 80 characters, control characters as '?'. */
    private static String printable(String s) {
        return dev.hmpagent.text.Text.oneLine(s.replaceAll("\\p{Cntrl}", "?"), 80);
    }

    /** Why a tool is left out, as the listing and the notice say it. */
    static String reserved(String word) {
        return "the word \"" + word + "\" in its name is reserved for the agent's own safety controls";
    }
}

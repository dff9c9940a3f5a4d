package dev.hmpagent.llm.wire;

import dev.hmpagent.llm.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Assembles streamed tool calls from their pieces, by index: the id and name of a call are taken from the first piece
 * that carries them, its arguments are the fragments joined in order. Not thread-safe; one per call.
 */
public final class ToolCallParts {
    private final Map<Integer, String[]> calls = new TreeMap<>();   // index -> {id, name}
    private final Map<Integer, StringBuilder> arguments = new TreeMap<>();
    private long chars;

    /** Adds one piece; returns how many characters of arguments it carried. */
    public int add(ToolCallPart part) {
        String[] call = calls.computeIfAbsent(part.index(), i -> new String[] {"", ""});
        if (call[0].isEmpty()) call[0] = part.id();
        if (call[1].isEmpty()) call[1] = part.name();
        arguments.computeIfAbsent(part.index(), i -> new StringBuilder()).append(part.arguments());
        chars += part.arguments().length();
        return part.arguments().length();
    }

    /** The calls {@code parts} make up, in index order. */
    public static List<ToolCall> assemble(List<ToolCallPart> parts) {
        ToolCallParts calls = new ToolCallParts();
        parts.forEach(calls::add);
        return calls.calls();
    }

    /** How many characters of arguments have arrived in all. */
    public long chars() { return chars; }

    /** The calls so far, by index; a call that never got a name is left out (nothing could run it). */
    public List<ToolCall> calls() {
        List<ToolCall> out = new ArrayList<>();
        calls.forEach((index, call) -> {
            if (!call[1].isEmpty()) out.add(new ToolCall(call[0], call[1], arguments.get(index).toString()));
        });
        return List.copyOf(out);
    }
}

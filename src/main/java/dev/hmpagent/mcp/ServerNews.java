package dev.hmpagent.mcp;

import java.util.function.Consumer;

/**
 * Who a connection tells what happened to it (the servers of one agent): {@code problems}, a failure a person should
 * see (the first of a run of them); {@code notices}, a line a person should read (a server back, its first stray
 * line); {@code changed}, the server's name when its state changed (shown at the next prompt, a failed one restarted);
 * {@code listChanged}, its name when its tool list changed (shown from the next task on).
 */
record ServerNews(Consumer<String> problems, Consumer<String> notices, Consumer<String> changed,
                  Consumer<String> listChanged) { }

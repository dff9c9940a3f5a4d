package dev.hmpagent.testing;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A tiny MCP server over stdio, in node, speaking newline-delimited JSON-RPC by hand: tools {@code echo}, {@code
 * create_block}, {@code unlock_door} and {@code add_tool}. {@code add_tool} adds the tool {@code extra}, sends
 * {@code notifications/tools/list_changed}, and answers the call only once the client has listed the tools again: when
 * its result arrives, the client has the new list. Server-everything has no tool that changes its list at run time.
 */
public final class FakeMcpServer {
    private static final String SCRIPT = """
            const readline = require('readline');
            const tool = name => ({name, description: 'the ' + name + ' tool', inputSchema: {type: 'object', properties: {}}});
            const tools = ['echo', 'create_block', 'unlock_door', 'add_tool'].map(tool);
            const send = m => process.stdout.write(JSON.stringify(m) + '\\n');
            const result = (id, text) => ({jsonrpc: '2.0', id, result: {content: [{type: 'text', text}]}});
            let waiting = null;
            readline.createInterface({input: process.stdin}).on('line', line => {
              const m = JSON.parse(line);
              if (m.method === 'initialize') {
                send({jsonrpc: '2.0', id: m.id, result: {protocolVersion: m.params.protocolVersion,
                  capabilities: {tools: {listChanged: true}}, serverInfo: {name: 'fake', version: '1'}}});
              } else if (m.method === 'tools/list') {
                send({jsonrpc: '2.0', id: m.id, result: {tools}});
                if (waiting !== null) { send(result(waiting, 'added extra')); waiting = null; }
              } else if (m.method === 'tools/call' && m.params.name === 'add_tool') {
                tools.push(tool('extra'));
                waiting = m.id;
                send({jsonrpc: '2.0', method: 'notifications/tools/list_changed'});
              } else if (m.method === 'tools/call') {
                send(result(m.id, m.params.name + ' ran'));
              } else if (m.id !== undefined && m.method) {
                send({jsonrpc: '2.0', id: m.id, result: {}});
              }
            });
            """;

    private FakeMcpServer() { }

    /** Writes the server's script into {@code dir} and returns its path (run it with {@link McpReferenceServers#node()}). */
    public static Path script(Path dir) {
        try {
            return Files.writeString(dir.resolve("fake-mcp-server.cjs"), SCRIPT);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}

// An MCP server over stdio that misbehaves on request, for the tests and `scripts/chaos mcp`: newline-delimited
// JSON-RPC written by hand. With --banner it prints a line that is not JSON-RPC before anything else. Its tools:
// echo {text}; junk {text} (two log lines on stdout, then the answer); big {mb} (a result of mb MB on one line);
// storm {n} (n notifications/tools/list_changed, then the answer); count (how many tools/list it was sent);
// die (exits mid-call, no answer); close_stdout (closes its stdout mid-call and runs on); hang (never answers).
const readline = require('readline');
const fs = require('fs');
const tool = (name, props) => ({name, description: 'the ' + name + ' tool',
  inputSchema: {type: 'object', properties: props || {}}});
const tools = [tool('echo', {text: {type: 'string'}}), tool('junk', {text: {type: 'string'}}),
  tool('big', {mb: {type: 'number'}}), tool('storm', {n: {type: 'number'}}), tool('count'), tool('die'),
  tool('close_stdout'), tool('hang')];
const send = m => process.stdout.write(JSON.stringify(m) + '\n');
const text = (id, t) => send({jsonrpc: '2.0', id, result: {content: [{type: 'text', text: t}]}});
let lists = 0;
if (process.argv.includes('--banner')) process.stdout.write('misbehaving-server 1.0 starting (a banner on stdout)\n');
readline.createInterface({input: process.stdin}).on('line', line => {
  const m = JSON.parse(line);
  const args = (m.params && m.params.arguments) || {};
  if (m.method === 'initialize') {
    send({jsonrpc: '2.0', id: m.id, result: {protocolVersion: m.params.protocolVersion,
      capabilities: {tools: {listChanged: true}}, serverInfo: {name: 'misbehaving', version: '1'}}});
  } else if (m.method === 'tools/list') {
    lists++;
    send({jsonrpc: '2.0', id: m.id, result: {tools}});
  } else if (m.method === 'tools/call') {
    const name = m.params.name;
    if (name === 'echo') text(m.id, 'echo: ' + args.text);
    else if (name === 'junk') {
      process.stdout.write('[info] working on ' + args.text + '\n');
      process.stdout.write('Traceback (most recent call last): not JSON either\n');
      text(m.id, 'junk: ' + args.text);
    } else if (name === 'big') {
      // written as a Buffer, so node does not hold two copies of a 50 MB string
      const body = Buffer.alloc(Math.round(args.mb * 1e6), 'x');
      process.stdout.write('{"jsonrpc":"2.0","id":' + JSON.stringify(m.id) + ',"result":{"content":[{"type":"text","text":"');
      process.stdout.write(body);
      process.stdout.write('"}]}}\n');
    } else if (name === 'storm') {
      for (let i = 0; i < args.n; i++) send({jsonrpc: '2.0', method: 'notifications/tools/list_changed'});
      text(m.id, 'stormed ' + args.n);
    } else if (name === 'count') text(m.id, String(lists));
    else if (name === 'die') process.exit(3);
    else if (name === 'close_stdout') { fs.closeSync(1); setInterval(() => {}, 1000); }
    else if (name === 'hang') { /* never answers: the call's timeout_s ends it */ }
    else send({jsonrpc: '2.0', id: m.id, error: {code: -32602, message: 'Unknown tool: ' + name}});
  } else if (m.id !== undefined && m.method) {
    send({jsonrpc: '2.0', id: m.id, result: {}});
  }
});

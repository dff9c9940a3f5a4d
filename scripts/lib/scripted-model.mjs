// A scripted OpenAI-compatible chat model for scripts/lib/conformance-client.sh: its first answer calls one tool in a
// `# Commands:` block, every later one is plain text. Listens on 127.0.0.1 on a free port and prints that port.
//   node scripted-model.mjs COMMAND_TYPE ARGS_JSON
import http from "node:http";
const [type, args] = process.argv.slice(2);
const reply = (n) => n === 0
  ? `Calling the tool.\n# Commands:\n[{"cmd_id": "c-1", "type": "${type}", "args": ${args}}]\n# End commands`
  : "Done.";
let answered = 0;
const server = http.createServer((req, res) => {
  let body = "";
  req.on("data", (chunk) => { body += chunk; });
  req.on("end", () => {
    let stream = false;
    try { stream = JSON.parse(body).stream === true; } catch { /* not JSON: answered as a whole */ }
    const text = reply(answered++);
    const usage = { prompt_tokens: 10, completion_tokens: 5 };
    if (!stream) {
      res.writeHead(200, { "Content-Type": "application/json" });
      res.end(JSON.stringify({ id: "x", model: "scripted", usage,
        choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }] }));
      return;
    }
    res.writeHead(200, { "Content-Type": "text/event-stream" });
    const data = (o) => res.write(`data: ${JSON.stringify(o)}\n\n`);
    data({ model: "scripted", choices: [{ index: 0, delta: { role: "assistant", content: text } }] });
    data({ model: "scripted", choices: [{ index: 0, delta: {}, finish_reason: "stop" }] });
    data({ model: "scripted", choices: [], usage });
    res.end("data: [DONE]\n\n");
  });
});
server.listen(0, "127.0.0.1", () => console.log(server.address().port));

// The server without a model: chat.mjs on plain values, server.mjs --fake over real HTTP.
//   node --test scripts/real/
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawn} from "node:child_process";
import {fileURLToPath} from "node:url";
import {BadRequest, functionsOf, grammarSchema, historyOf, samplingOf} from "./chat.mjs";

test("messages become a chat history ending with the model turn to generate", () => {
  const h = historyOf([
    {role: "system", content: "be brief"},
    {role: "user", content: [{type: "text", text: "hi "}, {type: "text", text: "there"}]},
  ]);
  assert.deepEqual(h, [{type: "system", text: "be brief"}, {type: "user", text: "hi there"}, {type: "model", response: []}]);
});

test("an earlier tool call carries the result of the tool message that answers it", () => {
  const h = historyOf([
    {role: "user", content: "say hi"},
    {role: "assistant", content: null, tool_calls: [{id: "c1", type: "function", function: {name: "send_message", arguments: "{\"text\":\"hi\"}"}}]},
    {role: "tool", tool_call_id: "c1", content: "sent"},
    {role: "user", content: "again"},
  ]);
  assert.deepEqual(h[1].response, [{type: "functionCall", name: "send_message", params: {text: "hi"}, result: "sent", startsNewChunk: true}]);
  assert.deepEqual(h.at(-1), {type: "model", response: []});
});

test("an assistant message last is a prefill the reply continues", () => {
  const h = historyOf([{role: "user", content: "count"}, {role: "assistant", content: "1, 2,"}]);
  assert.deepEqual(h.at(-1), {type: "model", response: ["1, 2,"]});
});

test("bad messages are refused with a line that says what is wrong", () => {
  assert.throws(() => historyOf([]), /non-empty array/);
  assert.throws(() => historyOf([{role: "robot", content: "x"}]), /role "robot" is not one of/);
  assert.throws(() => historyOf([{role: "tool", tool_call_id: "nope", content: "x"}]), /which no earlier assistant message made/);
  assert.throws(() => historyOf([{role: "user", content: [{type: "image_url"}]}]), /send text parts only/);
});

test("tools become functions; none offered or tool_choice none gives none", () => {
  const tools = [{type: "function", function: {name: "file_write", description: "write a file",
    parameters: {type: "object", properties: {path: {type: "string"}, content: {type: "string"}}, required: ["path"]}}}];
  assert.deepEqual(functionsOf(tools), {file_write: {description: "write a file", params: {type: "object",
    properties: {path: {type: "string"}, content: {type: "string"}}, required: ["path"]}}});
  assert.equal(functionsOf(tools, "none"), undefined);
  assert.equal(functionsOf(undefined), undefined);
  assert.equal(functionsOf([]), undefined);
  assert.throws(() => functionsOf([{type: "function", function: {name: "has space"}}]), /tools\[0\] must be/);
});

test("schemas keep what a grammar can enforce and drop the rest", () => {
  assert.deepEqual(grammarSchema({type: "integer", minimum: 1, maximum: 9}), {type: "integer"});
  assert.deepEqual(grammarSchema({type: "string", pattern: "^a", maxLength: 5}), {type: "string", maxLength: 5});
  assert.deepEqual(grammarSchema({anyOf: [{type: "string"}, {type: "null"}]}), {oneOf: [{type: "string"}, {type: "null"}]});
  assert.deepEqual(grammarSchema({type: ["string", "null"]}), {type: ["string", "null"]});
  assert.deepEqual(grammarSchema({type: "array", items: {enum: ["a", "b"]}, uniqueItems: true}), {type: "array", items: {enum: ["a", "b"]}});
  assert.deepEqual(grammarSchema({type: "object"}), {type: "object", additionalProperties: true});
  assert.deepEqual(grammarSchema({properties: {a: {}}, required: ["a", "ghost"]}).required, ["a"]);
  assert.ok(grammarSchema({}).oneOf, "an empty schema takes any value");
  assert.throws(() => grammarSchema({type: "banana"}, "p"), /p.type "banana" is not a JSON Schema type/);
});

test("sampling: max_tokens is capped by the server; bad values are refused", () => {
  assert.equal(samplingOf({max_tokens: 1000}, 256).maxTokens, 256);
  assert.equal(samplingOf({max_completion_tokens: 10}, 256).maxTokens, 10);
  assert.equal(samplingOf({}, 256).maxTokens, 256);
  assert.deepEqual(samplingOf({stop: "END"}, 256).stop, ["END"]);
  assert.throws(() => samplingOf({max_tokens: 0}, 256), BadRequest);
  assert.throws(() => samplingOf({temperature: 3}, 256), /temperature must be a number from 0 to 2/);
});

async function withFakeServer(body) {
  const server = spawn(process.execPath, [fileURLToPath(new URL("./server.mjs", import.meta.url)), "--fake", "--port", "0"],
      {stdio: ["ignore", "pipe", "inherit"]});
  try {
    const base = await new Promise((resolve, reject) => {
      server.stdout.on("data", (d) => {
        const m = /^listening (\S+)/.exec(String(d));
        if (m) resolve(m[1]);
      });
      server.on("exit", (code) => reject(new Error(`server ended with ${code}`)));
    });
    await body(base);
  } finally {
    server.kill();
  }
}

const post = (base, body) => fetch(`${base}/chat/completions`, {method: "POST", headers: {"content-type": "application/json"}, body: JSON.stringify(body)});
const sendTool = [{type: "function", function: {name: "send_message", parameters: {type: "object", properties: {text: {type: "string"}}, required: ["text"]}}}];

test("over HTTP: models, a plain reply with usage, a stream with usage and [DONE], tool calls, errors", async () => {
  await withFakeServer(async (base) => {
    const models = await (await fetch(`${base}/models`)).json();
    assert.deepEqual(models.data.map((m) => m.id), ["fake"]);

    const plain = await (await post(base, {messages: [{role: "user", content: "hi"}]})).json();
    assert.match(plain.choices[0].message.content, /# Commands:/);
    assert.equal(plain.choices[0].finish_reason, "stop");
    assert.ok(plain.usage.prompt_tokens > 0 && plain.usage.completion_tokens > 0);
    assert.equal(plain.usage.total_tokens, plain.usage.prompt_tokens + plain.usage.completion_tokens);

    const streamed = await (await post(base, {stream: true, stream_options: {include_usage: true},
      messages: [{role: "user", content: "hi"}], tools: sendTool})).text();
    const events = streamed.split("\n\n").filter(Boolean).map((e) => e.replace(/^data: /, ""));
    assert.equal(events.at(-1), "[DONE]");
    const chunks = events.slice(0, -1).map((e) => JSON.parse(e));
    assert.ok(chunks.at(-1).usage.prompt_tokens > 0);
    assert.equal(chunks.at(-2).choices[0].finish_reason, "tool_calls");
    const args = chunks.flatMap((c) => c.choices).flatMap((c) => c.delta.tool_calls ?? []).map((t) => t.function.arguments).join("");
    assert.match(JSON.parse(args).text, /^fake reply 2/);

    const tool = await (await post(base, {messages: [{role: "user", content: "hi"}], tools: sendTool})).json();
    assert.equal(tool.choices[0].finish_reason, "tool_calls");
    assert.equal(tool.choices[0].message.tool_calls[0].function.name, "send_message");
    assert.match(tool.choices[0].message.tool_calls[0].id, /^call_/);

    const cut = await (await post(base, {max_tokens: 3, messages: [{role: "user", content: "hi"}]})).json();
    assert.equal(cut.choices[0].finish_reason, "length");

    const bad = await post(base, {messages: "hi"});
    assert.equal(bad.status, 400);
    assert.match((await bad.json()).error.message, /messages must be/);
    const notJson = await fetch(`${base}/chat/completions`, {method: "POST", body: "{"});
    assert.equal((await notJson.json()).error.message, "the request body is not JSON");
    assert.equal((await fetch(`${base}/nowhere`)).status, 404);
    const tooLong = await post(base, {messages: [{role: "user", content: "x".repeat(40000)}]});
    assert.equal((await tooLong.json()).error.code, "context_length_exceeded");
  });
});

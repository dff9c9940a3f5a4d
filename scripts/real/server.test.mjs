// The server without a model: chat.mjs on plain values, server.mjs --fake over real HTTP.
//   node --test scripts/real/
import {test} from "node:test";
import assert from "node:assert/strict";
import {spawn} from "node:child_process";
import {fileURLToPath} from "node:url";
import {BadRequest, formatOf, functionsOf, grammarSchema, historyOf, samplingOf} from "./chat.mjs";

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

test("response_format: json_schema narrowed to a grammar's subset, json_object, text; never with tools", () => {
  const schema = {type: "object", properties: {thought: {type: "string"}, commands: {type: "array",
    items: {anyOf: [{type: "object", properties: {type: {const: "send_message"}, args: {type: "object",
      properties: {text: {type: "string", pattern: "."}}, required: ["text"], additionalProperties: false}},
    required: ["type", "args"], additionalProperties: false}]}}}, required: ["thought", "commands"], additionalProperties: false};
  const f = formatOf({type: "json_schema", json_schema: {name: "hmp_reply", strict: true, schema}});
  assert.equal(f.type, "json_schema");
  assert.equal(f.name, "hmp_reply");
  assert.deepEqual(f.schema.properties.commands.items.oneOf[0].properties.args.properties.text, {type: "string"});
  assert.deepEqual(formatOf({type: "json_object"}), {type: "json_object"});
  assert.equal(formatOf({type: "text"}), undefined);
  assert.equal(formatOf(undefined), undefined);
  assert.throws(() => formatOf({type: "yaml"}), /response_format.type "yaml" is not one of text, json_object, json_schema/);
  assert.throws(() => formatOf({type: "json_schema", json_schema: {name: "x"}}), /needs json_schema: \{name, schema/);
  assert.throws(() => formatOf({type: "json_object"}, {send_message: {}}), /response_format and tools together/);
});

async function withFakeServer(body, log = []) {
  const server = spawn(process.execPath, [fileURLToPath(new URL("./server.mjs", import.meta.url)), "--fake", "--port", "0"],
      {stdio: ["ignore", "pipe", "inherit"]});
  try {
    const base = await new Promise((resolve, reject) => {
      server.stdout.on("data", (d) => {
        log.push(...String(d).split("\n").filter(Boolean));
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
    assert.match(JSON.parse(args).text, /^fake reply r2/);

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

test("over HTTP: /props says the context size; a json_schema reply is the scripted JSON object; the slot's cache", async () => {
  const log = [];
  await withFakeServer(async (base) => {
    const props = await (await fetch(`${base.replace(/\/v1$/, "")}/props`)).json();
    assert.equal(props.default_generation_settings.n_ctx, 8192);

    const schema = {type: "object", properties: {thought: {type: "string"}, commands: {type: "array"}},
      required: ["thought", "commands"], additionalProperties: false};
    const system = {role: "system", content: "You are the agent. ".repeat(40)};
    const asked = {messages: [system, {role: "user", content: "## Context 4 — incoming messages\nWhat is 2 + 2?"}],
      response_format: {type: "json_schema", json_schema: {name: "hmp_reply", strict: true, schema}}};
    const reply = await (await post(base, asked)).json();
    const json = JSON.parse(reply.choices[0].message.content);
    assert.match(json.thought, /^I answer the person/);
    assert.equal(json.commands[0].type, "send_message");
    assert.match(json.commands[0].args.text, /^fake reply r1: \d+ prompt tokens read\n## Context 4 — incoming messages$/);
    assert.equal(reply.usage.prompt_tokens_details.cached_tokens, 0, "the first prompt finds nothing cached");

    const again = await (await post(base, {...asked, response_format: {type: "json_object"}})).json();
    assert.ok(again.usage.prompt_tokens_details.cached_tokens > 150, "the same prompt again: its prefix is cached");
    JSON.parse(again.choices[0].message.content);
    const judged = await (await post(base, {messages: [{role: "system", content: "You compare two consecutive replies of"
        + " an autonomous agent that thinks in ticks."}, {role: "user", content: "a b"}]})).json();
    assert.equal(JSON.parse(judged.choices[0].message.content).novelty, 0.9, "the judge's verdict, as JSON");
    const after = await (await post(base, asked)).json();
    assert.ok(after.usage.prompt_tokens_details.cached_tokens < 5, "a call with another prompt between evicts it");

    const both = await post(base, {...asked, tools: sendTool});
    assert.equal(both.status, 400);
    assert.equal((await both.json()).error.code, "unsupported_response_format");
  }, log);
  const calls = log.filter((l) => l.startsWith("call "));
  assert.equal(calls.length, 4);
  assert.match(calls[0], /^call 1: prompt_tokens \d+ cached_tokens 0 completion_tokens \d+ first_token_ms \d+ ms \d+$/);
});

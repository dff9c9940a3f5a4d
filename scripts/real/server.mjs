#!/usr/bin/env node
// A small OpenAI-compatible server for one local model, for `scripts/bench real` (and for a person who wants the
// agent against a GGUF file without llama-server):
//   GET  /v1/models             the one model
//   POST /v1/chat/completions   non-streaming, or SSE with stream: true (usage in the last chunk when
//                               stream_options.include_usage); `tools` become node-llama-cpp functions and the
//                               calls come back as tool_calls (finish_reason "tool_calls")
//                               `response_format` json_schema (or json_object) constrains the reply with a grammar
//   GET  /props                 llama.cpp's server properties: default_generation_settings.n_ctx, the context size
//                               (where the agent's context.prompt_form = "auto" reads a small window)
//   GET  /health                {"status": "ok"}
// After each reply one line on stdout: "call N: prompt_tokens P cached_tokens C completion_tokens X first_token_ms T
// ms D" (T and D from the request's arrival; T is -1 when no text came).
// Requests are served one at a time (one context sequence: the next request reuses the prompt prefix the last one
// left). It listens on 127.0.0.1 only and prints one line when ready:
//   listening http://127.0.0.1:PORT/v1 model NAME (...)
//
//   node scripts/real/server.mjs --model FILE.gguf [--port 0] [--threads 2] [--ctx 8192] [--max-tokens 256] [--seed 1]
//                                [--modules DIR]   where node-llama-cpp is installed (default: $HMP_REAL_MODULES,
//                                                  else ~/.cache/hmp-agent-bench/node)
//   node scripts/real/server.mjs --fake            no model: scripted replies, for checking the plumbing
import http from "node:http";
import {randomBytes} from "node:crypto";
import {homedir} from "node:os";
import {join} from "node:path";
import {parseArgs} from "node:util";
import {BadRequest, formatOf, functionsOf, historyOf, samplingOf} from "./chat.mjs";
import {fakeEngine, llamaEngine} from "./engines.mjs";

const MAX_BODY = 32 * 1024 * 1024;

function fail(message) {
  process.stderr.write(`server.mjs: ${message}\n`);
  process.exit(2);
}

function options() {
  let parsed;
  try {
    parsed = parseArgs({options: {
      model: {type: "string"}, fake: {type: "boolean", default: false}, port: {type: "string", default: "0"},
      threads: {type: "string", default: "2"}, ctx: {type: "string", default: "8192"},
      "max-tokens": {type: "string", default: "256"}, seed: {type: "string", default: "1"}, name: {type: "string"},
      modules: {type: "string", default: process.env.HMP_REAL_MODULES ?? join(homedir(), ".cache", "hmp-agent-bench", "node")},
    }});
  } catch (e) {
    fail(`${e.message}; usage: server.mjs --model FILE.gguf | --fake [--port N] [--threads N] [--ctx N] [--max-tokens N] [--seed N] [--name ID]`);
  }
  const v = parsed.values;
  const int = (key, lo, hi) => {
    const n = Number(v[key]);
    if (!Number.isInteger(n) || n < lo || n > hi) fail(`--${key} ${v[key]}: give an integer from ${lo} to ${hi}`);
    return n;
  };
  if (!v.fake && !v.model) fail("give --model FILE.gguf (a GGUF model file) or --fake (no model)");
  return {
    model: v.model, fake: v.fake, port: int("port", 0, 65535), threads: int("threads", 1, 256),
    ctx: int("ctx", 256, 1 << 20), maxTokens: int("max-tokens", 1, 1 << 20), seed: int("seed", 0, 2 ** 31 - 1),
    name: v.name, modules: v.modules,
  };
}

function sendJson(res, status, body) {
  const text = JSON.stringify(body);
  res.writeHead(status, {"content-type": "application/json", "content-length": Buffer.byteLength(text)});
  res.end(text);
}

function sendError(res, status, message, code) {
  const type = status >= 500 ? "server_error" : "invalid_request_error";
  if (res.headersSent) {  // inside a stream: the error as an event, then the end
    res.end(`data: ${JSON.stringify({error: {message, type, code}})}\n\n`);
  } else {
    sendJson(res, status, {error: {message, type, code}});
  }
}

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    let size = 0;
    req.on("data", (c) => {
      size += c.length;
      if (size > MAX_BODY) {
        reject(new BadRequest(`the request body is over ${MAX_BODY} bytes`, 413, "too_large"));
        req.destroy();
      } else chunks.push(c);
    });
    req.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
    req.on("error", reject);
  });
}

/** Calls as OpenAI tool_calls: ids, and arguments as JSON text. */
function toolCalls(calls) {
  return calls.map((c) => ({id: `call_${randomBytes(8).toString("hex")}`, type: "function",
    function: {name: c.name, arguments: JSON.stringify(c.params)}}));
}

function usage(r) {
  return {prompt_tokens: r.promptTokens, completion_tokens: r.completionTokens,
    total_tokens: r.promptTokens + r.completionTokens, prompt_tokens_details: {cached_tokens: r.cachedTokens}};
}

/** Serves the engine's replies; one generation at a time, in arrival order. */
function handler(engine, maxTokensCap, modelId) {
  let queue = Promise.resolve();
  let served = 0;
  const created = Math.floor(Date.now() / 1000);
  const modelEntry = {id: modelId, object: "model", created, owned_by: "local"};

  async function complete(req, res) {
    const arrived = performance.now();
    let body;
    try {
      body = JSON.parse(await readBody(req));
    } catch (e) {
      if (e instanceof BadRequest) throw e;
      throw new BadRequest("the request body is not JSON");
    }
    if (!body || typeof body !== "object") throw new BadRequest("the request body must be a JSON object");
    const history = historyOf(body.messages);
    const functions = functionsOf(body.tools, body.tool_choice);
    const format = formatOf(body.response_format, functions);
    const sampling = samplingOf(body, maxTokensCap);
    const stream = body.stream === true;
    const id = `chatcmpl-${randomBytes(12).toString("hex")}`;
    const abort = new AbortController();
    res.on("close", () => { if (!res.writableFinished) abort.abort(); });
    const chunk = (delta, finish = null) => `data: ${JSON.stringify({id, object: "chat.completion.chunk", created:
        Math.floor(Date.now() / 1000), model: modelId, choices: [{index: 0, delta, finish_reason: finish}]})}\n\n`;

    const turn = queue.then(async () => {
      if (abort.signal.aborted) return;
      if (stream) {
        res.writeHead(200, {"content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive"});
        res.write(chunk({role: "assistant", content: ""}));
      }
      let first = -1;
      const r = await engine.generate({history, functions, format, sampling, signal: abort.signal, onText: (t) => {
        if (!t) return;
        if (first < 0) first = performance.now() - arrived;
        if (stream) res.write(chunk({content: t}));
      }});
      served++;
      process.stdout.write(`call ${served}: prompt_tokens ${r.promptTokens} cached_tokens ${r.cachedTokens} completion_tokens`
          + ` ${r.completionTokens} first_token_ms ${Math.round(first)} ms ${Math.round(performance.now() - arrived)}\n`);
      const calls = toolCalls(r.calls);
      if (!stream) {
        sendJson(res, 200, {id, object: "chat.completion", created: Math.floor(Date.now() / 1000), model: modelId,
          choices: [{index: 0, message: {role: "assistant", content: r.text || (calls.length ? null : ""),
            ...(calls.length ? {tool_calls: calls} : {})}, finish_reason: r.finish, logprobs: null}],
          usage: usage(r)});
        return;
      }
      calls.forEach((c, index) => {
        // the first delta names the call, the arguments follow in pieces, as OpenAI streams them
        res.write(chunk({tool_calls: [{index, id: c.id, type: "function", function: {name: c.function.name, arguments: ""}}]}));
        for (let i = 0; i < c.function.arguments.length; i += 24) {
          res.write(chunk({tool_calls: [{index, function: {arguments: c.function.arguments.slice(i, i + 24)}}]}));
        }
      });
      res.write(chunk({}, r.finish));
      if (body.stream_options?.include_usage) {
        res.write(`data: ${JSON.stringify({id, object: "chat.completion.chunk", created: Math.floor(Date.now() / 1000),
          model: modelId, choices: [], usage: usage(r)})}\n\n`);
      }
      res.end("data: [DONE]\n\n");
    });
    queue = turn.catch(() => {});
    await turn;
  }

  return async (req, res) => {
    const path = (req.url ?? "/").split("?")[0].replace(/\/+$/, "");
    try {
      if (req.method === "GET" && (path === "/v1/models" || path === "/models")) {
        sendJson(res, 200, {object: "list", data: [modelEntry]});
      } else if (req.method === "GET" && /^\/(v1\/)?models\/.+/.test(path)) {
        const asked = decodeURIComponent(path.replace(/^\/(v1\/)?models\//, ""));
        if (asked === modelId) sendJson(res, 200, modelEntry);
        else sendError(res, 404, `no model ${asked}: this server has ${modelId}`, "model_not_found");
      } else if (req.method === "GET" && path === "/props") {
        sendJson(res, 200, {default_generation_settings: {n_ctx: engine.contextSize, model: modelId}, total_slots: 1});
      } else if (req.method === "GET" && path === "/health") {
        sendJson(res, 200, {status: "ok"});
      } else if (path === "/v1/chat/completions" || path === "/chat/completions") {
        if (req.method !== "POST") sendError(res, 405, "use POST for /v1/chat/completions", "method_not_allowed");
        else await complete(req, res);
      } else {
        sendError(res, 404, `no such endpoint: ${req.method} ${path}; this server has GET /v1/models and POST /v1/chat/completions`, "not_found");
      }
    } catch (e) {
      if (e instanceof BadRequest) sendError(res, e.status, e.message, e.code);
      else {
        process.stderr.write(`server.mjs: ${e.stack ?? e}\n`);
        sendError(res, 500, `the model failed: ${String(e.message ?? e).split("\n")[0]}`, "engine_error");
      }
    }
  };
}

async function main() {
  const o = options();
  let engine;
  try {
    engine = o.fake ? fakeEngine({contextSize: o.ctx})
        : await llamaEngine({modelPath: o.model, modulesDir: o.modules, threads: o.threads, contextSize: o.ctx, seed: o.seed});
  } catch (e) {
    fail(`could not load ${o.model}: ${String(e.message ?? e).split("\n")[0]}`);
  }
  const modelId = o.name ?? engine.name;
  const server = http.createServer(handler(engine, o.maxTokens, modelId));
  server.keepAliveTimeout = 65_000;
  server.on("error", (e) => fail(`cannot listen on 127.0.0.1:${o.port}: ${e.message}`));
  server.listen(o.port, "127.0.0.1", () => {
    const port = server.address().port;
    process.stdout.write(`listening http://127.0.0.1:${port}/v1 model ${modelId} (${engine.describe}, max_tokens cap ${o.maxTokens})\n`);
  });
  for (const sig of ["SIGTERM", "SIGINT"]) {
    process.on(sig, () => {
      server.close(() => process.exit(0));
      setTimeout(() => process.exit(0), 500).unref();
    });
  }
}

main();

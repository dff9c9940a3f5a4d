// Model engines behind server.mjs. Each has `name`, `contextSize` and
//   generate({history, functions, format, sampling, signal, onText}) -> {text, calls: [{name, params}], finish,
//                                                                   promptTokens, cachedTokens, completionTokens}
// `format` (chat.mjs formatOf) constrains the reply to JSON: a JSON-schema grammar, or any JSON object.
// `llama` runs a GGUF file on the CPU through node-llama-cpp; `fake` answers at once, without a model, so the
// server and the bench can be checked where nothing is installed.
import {createRequire} from "node:module";
import {join} from "node:path";
import {pathToFileURL} from "node:url";
import {BadRequest} from "./chat.mjs";

/** A GGUF model under llama.cpp, CPU only, one sequence (requests are served one at a time). */
export async function llamaEngine({modelPath, modulesDir, threads, contextSize, seed}) {
  let lib;
  try {
    // installed in a scratch folder, not beside this file: resolved from there
    const entry = createRequire(join(modulesDir, "package.json")).resolve("node-llama-cpp");
    lib = await import(pathToFileURL(entry).href);
  } catch (e) {
    throw new Error(`node-llama-cpp is not installed in ${modulesDir} (${e.code ?? e.message}): run scripts/bench real, which installs it there, or npm install node-llama-cpp@3.21.1 in that folder`);
  }
  // build "never": the prebuilt CPU binary or nothing, no compiler, no download; gpu false: CPU only
  const llama = await lib.getLlama({gpu: false, build: "never", logLevel: lib.LlamaLogLevel.error});
  const model = await llama.loadModel({modelPath});
  const context = await model.createContext({contextSize: Math.min(contextSize, model.trainContextSize), threads, sequences: 1});
  const sequence = context.getSequence();
  const chat = new lib.LlamaChat({contextSequence: sequence});
  const name = model.fileInfo?.metadata?.general?.name ?? modelPath.split("/").pop();
  const grammars = new Map();  // one grammar per schema: the agent sends the same schema with every request
  // The JSON-schema grammar without new lines and indents: node-llama-cpp's default allows a new line and 4 spaces
  // a level, and a 270M model spends most of its tokens on them (60 tokens gave about 20 characters of content),
  // so a reply ran out of max_tokens before its JSON closed. llama.cpp's own server keeps the white space short too.
  // The generator is not exported: it is read from the installed package (pinned 3.21.1); without it, the default.
  async function compactJsonGrammar(schema) {
    try {
      const dist = join(createRequire(join(modulesDir, "package.json")).resolve("node-llama-cpp"), "..");
      const {getGbnfGrammarForGbnfJsonSchema} = await import(pathToFileURL(join(dist, "utils", "gbnfJson",
          "getGbnfGrammarForGbnfJsonSchema.js")).href);
      const grammar = getGbnfGrammarForGbnfJsonSchema(schema, {allowNewLines: false});
      return await llama.createGrammar({grammar, stopGenerationTriggers: [lib.LlamaText(["\n".repeat(4)])],
        trimWhitespaceSuffix: true});
    } catch (e) {
      if (e instanceof Error && /grammar/i.test(e.message)) throw e;
      return await llama.createGrammarForJsonSchema(schema);
    }
  }
  async function grammarFor(format) {
    if (!format) return undefined;
    const key = JSON.stringify(format);
    if (!grammars.has(key)) {
      try {
        grammars.set(key, format.type === "json_schema" ? await compactJsonGrammar(format.schema)
            : await llama.getGrammarFor("json"));
      } catch (e) {
        throw new BadRequest(`response_format: no grammar could be made of this schema (${String(e.message ?? e).split("\n")[0]}); send a simpler schema or no response_format`, 400, "unsupported_response_format");
      }
    }
    return grammars.get(key);
  }
  return {
    name,
    contextSize: context.contextSize,
    describe: `${name}, chat wrapper ${chat.chatWrapper.wrapperName}, context ${context.contextSize}, ${threads} threads`,
    async generate({history, functions, format, sampling, signal, onText}) {
      const grammar = await grammarFor(format);
      const state = chat.chatWrapper.generateContextState({chatHistory: history, availableFunctions: functions, documentFunctionParams: true});
      const prompt = state.contextText.tokenize(model.tokenizer);
      if (prompt.length + sampling.maxTokens > context.contextSize) {
        throw new BadRequest(`the prompt is ${prompt.length} tokens and the reply may take ${sampling.maxTokens}; the context holds ${context.contextSize}: start the server with a larger --ctx or send a shorter prompt`, 400, "context_length_exceeded");
      }
      const cachedTokens = commonPrefix(sequence.contextTokens, prompt);
      const outputBefore = sequence.tokenMeter.usedOutputTokens;
      const res = await chat.generateResponse(history, {
        maxTokens: sampling.maxTokens,
        temperature: sampling.temperature,
        topP: sampling.topP,
        seed: sampling.seed ?? seed,
        customStopTriggers: sampling.stop.length ? sampling.stop : undefined,
        signal,
        stopOnAbortSignal: true,
        onTextChunk: onText,
        ...(functions ? {functions, documentFunctionParams: true} : {}),
        ...(grammar ? {grammar} : {}),
      });
      const calls = (res.functionCalls ?? []).map((c) => ({name: c.functionName, params: c.params ?? {}}));
      const stop = res.metadata.stopReason;
      return {
        text: res.response,
        calls,
        finish: calls.length ? "tool_calls" : stop === "maxTokens" ? "length" : "stop",
        promptTokens: prompt.length,
        cachedTokens,
        completionTokens: sequence.tokenMeter.usedOutputTokens - outputBefore,
      };
    },
  };
}

function commonPrefix(a, b) {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a[i] === b[i]) i++;
  return i;
}

/**
 * No model: each reply answers with one send_message — as a tool call when the request offers a send_message tool,
 * as the JSON object {thought, commands} when a response_format asks for JSON, else as an HMP command block —
 * numbered, so no two replies are the same text. Like a small model it echoes a line of its prompt (the one that
 * opens context 4, the person's messages) after its answer, and like llama.cpp's one slot it keeps the last prompt:
 * the cached tokens are the prefix shared with it, so a call between two others (the judge) shows what it evicts.
 */
export function fakeEngine({contextSize}) {
  let n = 0;
  let lastPrompt = "";
  const tokens = (s) => Math.ceil(s.length / 4);
  return {
    name: "fake",
    contextSize,
    describe: `fake (no model), context ${contextSize}`,
    async generate({history, functions, format, sampling, onText}) {
      n++;
      const promptText = history.map((h) => h.text ?? JSON.stringify(h.response)).join("\n");
      const promptTokens = tokens(promptText);
      if (promptTokens + sampling.maxTokens > contextSize) {
        throw new BadRequest(`the prompt is ${promptTokens} tokens and the reply may take ${sampling.maxTokens}; the context holds ${contextSize}: start the server with a larger --ctx or send a shorter prompt`, 400, "context_length_exceeded");
      }
      // step 5's comparison (the judge): its JSON verdict, "new", as a model that follows the format would
      const judge = /^You compare two consecutive replies/.test(history[0]?.text ?? "");
      const echo = /^## Context 4\b.*$/m.exec(promptText);
      // "r1", not "1": a bare number could pass for an answer ("What is 2 + 2?" after three replies)
      const answer = `fake reply r${n}: ${promptTokens} prompt tokens read${echo ? `\n${echo[0]}` : ""}`;
      const cachedTokens = Math.floor(commonPrefix(lastPrompt, promptText) / 4);
      lastPrompt = promptText;
      let text;
      let calls = [];
      if (judge) {
        text = JSON.stringify({new_thoughts: "yes", novelty: 0.9, new_ideas: [], refined_ideas: [], discarded_ideas: []});
      } else if (format) {
        text = JSON.stringify({thought: `I answer the person (${n}).`,
          commands: [{type: "send_message", args: {text: answer}}]});
      } else if (functions && functions.send_message) {
        text = `Answering with the send_message tool (${n}).`;
        calls = [{name: "send_message", params: {text: answer}}];
      } else {
        text = `I answer the person (${n}).\n\n# Commands:\n\`\`\`json\n`
            + JSON.stringify([{cmd_id: `c-${n}`, type: "send_message", args: {text: answer}}])
            + "\n```\n# End commands\n";
      }
      const words = text.split(/(?<= )/);
      let shown = "";
      for (const w of words) {
        if (tokens(shown + w) > sampling.maxTokens) break;
        shown += w;
        onText?.(w);
      }
      const cut = shown.length < text.length;
      return {
        text: shown,
        calls: cut ? [] : calls,
        finish: cut ? "length" : calls.length ? "tool_calls" : "stop",
        promptTokens,
        cachedTokens: Math.min(cachedTokens, promptTokens),
        completionTokens: tokens(shown) + (cut ? 0 : tokens(JSON.stringify(calls))),
      };
    },
  };
}

// The OpenAI chat-completions request, read into what a model engine takes: node-llama-cpp's chat history and
// function definitions. Pure functions, no model: tested by chat.test.mjs.

/** One bad request: the HTTP status and the one line the client is told. */
export class BadRequest extends Error {
  constructor(message, status = 400, code = "invalid_request") {
    super(message);
    this.status = status;
    this.code = code;
  }
}

/** A message's content as plain text: a string, or the text parts of an array of parts. */
export function textOf(content) {
  if (content == null) return "";
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((part) => {
      if (typeof part === "string") return part;
      if (part && part.type === "text" && typeof part.text === "string") return part.text;
      throw new BadRequest(`a content part of type ${JSON.stringify(part?.type)} is not supported: send text parts only`);
    }).join("");
  }
  throw new BadRequest("a message's content must be a string or an array of text parts");
}

/**
 * OpenAI messages → node-llama-cpp chat history, ending with the model turn to generate (an assistant message last
 * is a prefill: the reply continues it). Tool results are attached to the call they answer.
 */
export function historyOf(messages) {
  if (!Array.isArray(messages) || messages.length === 0) {
    throw new BadRequest("messages must be a non-empty array of {role, content}");
  }
  const history = [];
  const calls = new Map();  // tool_call_id -> the functionCall item waiting for its result
  messages.forEach((m, i) => {
    if (!m || typeof m !== "object") throw new BadRequest(`messages[${i}] is not an object`);
    switch (m.role) {
      case "system":
      case "developer":
        history.push({type: "system", text: textOf(m.content)});
        break;
      case "user":
        history.push({type: "user", text: textOf(m.content)});
        break;
      case "assistant":
        history.push({type: "model", response: modelResponse(m, i, calls)});
        break;
      case "tool": {
        const call = calls.get(m.tool_call_id);
        if (!call) throw new BadRequest(`messages[${i}] answers tool_call_id ${JSON.stringify(m.tool_call_id)}, which no earlier assistant message made`);
        call.result = textOf(m.content);
        break;
      }
      default:
        throw new BadRequest(`messages[${i}].role ${JSON.stringify(m.role)} is not one of system, developer, user, assistant, tool`);
    }
  });
  const last = history[history.length - 1];
  if (last.type === "model" && !last.response.some((r) => typeof r !== "string")) return history;  // a prefill
  history.push({type: "model", response: []});
  return history;
}

function modelResponse(m, i, calls) {
  const response = [];
  const text = textOf(m.content);
  if (text) response.push(text);
  for (const [j, c] of (m.tool_calls ?? []).entries()) {
    const fn = c?.function;
    if (!fn || typeof fn.name !== "string") throw new BadRequest(`messages[${i}].tool_calls[${j}] has no function.name`);
    let params;
    try {
      params = fn.arguments ? JSON.parse(fn.arguments) : {};
    } catch {
      throw new BadRequest(`messages[${i}].tool_calls[${j}].function.arguments is not JSON`);
    }
    const item = {type: "functionCall", name: fn.name, params, result: "", startsNewChunk: j === 0};
    calls.set(c.id, item);
    response.push(item);
  }
  return response;
}

/**
 * OpenAI `tools` (+ `tool_choice`) → node-llama-cpp functions ({name: {description, params}}), or undefined when the
 * request offers none or says "none". The JSON Schemas are narrowed to what llama.cpp's grammar can enforce.
 */
export function functionsOf(tools, toolChoice) {
  if (tools == null || toolChoice === "none") return undefined;
  if (!Array.isArray(tools)) throw new BadRequest("tools must be an array of {type: \"function\", function: {name, parameters}}");
  if (tools.length === 0) return undefined;
  const functions = {};
  tools.forEach((t, i) => {
    const fn = t?.function;
    if (t?.type !== "function" || !fn || typeof fn.name !== "string" || !/^[A-Za-z0-9_.-]{1,64}$/.test(fn.name)) {
      throw new BadRequest(`tools[${i}] must be {type: "function", function: {name: [A-Za-z0-9_.-]{1,64}, ...}}`);
    }
    functions[fn.name] = {
      ...(typeof fn.description === "string" ? {description: fn.description} : {}),
      ...(fn.parameters ? {params: grammarSchema(fn.parameters, `tools[${i}].function.parameters`)} : {}),
    };
  });
  return functions;
}

const PRIMITIVES = ["string", "number", "integer", "boolean", "null"];
const ANY = {oneOf: [{type: ["string", "number", "boolean", "null"]}, {type: "array"}, {type: "object"}]};

/**
 * A JSON Schema narrowed to the subset node-llama-cpp turns into a grammar: types, properties (+ required,
 * additionalProperties), items, enum, const, oneOf (anyOf read as oneOf), string lengths and date formats,
 * descriptions. Anything else (patterns, numeric bounds, $ref) is dropped: the model may then write a value the full
 * schema would refuse, and the agent's own validation says so, as it would for any server.
 */
export function grammarSchema(schema, where = "schema") {
  if (schema === true || schema == null) return ANY;
  if (typeof schema !== "object" || Array.isArray(schema)) throw new BadRequest(`${where} is not a JSON Schema object`);
  const out = {};
  if (typeof schema.description === "string") out.description = schema.description;
  if ("const" in schema) return {...out, const: schema.const};
  if (Array.isArray(schema.enum)) return {...out, enum: schema.enum};
  const alternatives = schema.oneOf ?? schema.anyOf;
  if (Array.isArray(alternatives)) {
    return {...out, oneOf: alternatives.map((s, i) => grammarSchema(s, `${where}.oneOf[${i}]`))};
  }
  let type = schema.type;
  if (type == null) type = schema.properties ? "object" : schema.items ? "array" : null;
  if (type == null) return {...ANY, ...out};
  if (Array.isArray(type)) {
    if (type.every((t) => PRIMITIVES.includes(t))) return {...out, type};
    return {...out, oneOf: type.map((t) => grammarSchema({...schema, type: t, description: undefined}, where))};
  }
  switch (type) {
    case "string": {
      const s = {...out, type};
      if (["date-time", "time", "date"].includes(schema.format)) s.format = schema.format;
      else {
        if (Number.isInteger(schema.minLength)) s.minLength = schema.minLength;
        if (Number.isInteger(schema.maxLength)) s.maxLength = schema.maxLength;
      }
      return s;
    }
    case "number":
    case "integer":
    case "boolean":
    case "null":
      return {...out, type};
    case "array": {
      const a = {...out, type};
      if (schema.items && typeof schema.items === "object" && !Array.isArray(schema.items)) {
        a.items = grammarSchema(schema.items, `${where}.items`);
      }
      if (Number.isInteger(schema.minItems)) a.minItems = schema.minItems;
      if (Number.isInteger(schema.maxItems)) a.maxItems = schema.maxItems;
      return a;
    }
    case "object": {
      const o = {...out, type};
      const props = schema.properties && typeof schema.properties === "object" ? schema.properties : null;
      if (props) {
        o.properties = Object.fromEntries(Object.entries(props)
            .map(([k, v]) => [k, grammarSchema(v, `${where}.properties.${k}`)]));
        const required = Array.isArray(schema.required) ? schema.required.filter((k) => k in props) : [];
        o.required = required;  // JSON Schema's default: a property not named here may be left out
      }
      if (typeof schema.additionalProperties === "boolean") o.additionalProperties = schema.additionalProperties;
      else if (schema.additionalProperties && typeof schema.additionalProperties === "object") {
        o.additionalProperties = grammarSchema(schema.additionalProperties, `${where}.additionalProperties`);
      } else if (!props) o.additionalProperties = true;
      return o;
    }
    default:
      throw new BadRequest(`${where}.type ${JSON.stringify(type)} is not a JSON Schema type`);
  }
}

/** The sampling settings of a request, checked: what the engine is asked for. */
export function samplingOf(body, maxTokensCap) {
  const asked = body.max_completion_tokens ?? body.max_tokens;
  if (asked != null && (!Number.isInteger(asked) || asked < 1)) throw new BadRequest("max_tokens must be an integer >= 1");
  const number = (name, lo, hi) => {
    const v = body[name];
    if (v == null) return undefined;
    if (typeof v !== "number" || v < lo || v > hi) throw new BadRequest(`${name} must be a number from ${lo} to ${hi}`);
    return v;
  };
  let stop = body.stop;
  if (typeof stop === "string") stop = [stop];
  if (stop != null && (!Array.isArray(stop) || !stop.every((s) => typeof s === "string" && s))) {
    throw new BadRequest("stop must be a string or an array of non-empty strings");
  }
  return {
    maxTokens: Math.min(asked ?? maxTokensCap, maxTokensCap),
    temperature: number("temperature", 0, 2),
    topP: number("top_p", 0, 1),
    seed: body.seed == null ? undefined : Number.isInteger(body.seed) ? body.seed : (() => {
      throw new BadRequest("seed must be an integer");
    })(),
    stop: stop ?? [],
  };
}

/**
 * OpenAI `response_format` → what the engine constrains the reply to: undefined (free text, also for {type: "text"}),
 * {type: "json_object"} (any JSON object), or {type: "json_schema", name, schema} with the schema narrowed to what a
 * grammar can enforce (as for tools). It cannot go with tools: node-llama-cpp takes a grammar or functions, not both.
 */
export function formatOf(responseFormat, functions) {
  if (responseFormat == null) return undefined;
  const type = responseFormat?.type;
  if (type === "text") return undefined;
  if (type !== "json_object" && type !== "json_schema") {
    throw new BadRequest(`response_format.type ${JSON.stringify(type)} is not one of text, json_object, json_schema`);
  }
  if (functions) {
    throw new BadRequest("response_format and tools together: this server constrains a reply to a schema or to tool calls, not both; send one", 400, "unsupported_response_format");
  }
  if (type === "json_object") return {type};
  const spec = responseFormat.json_schema;
  if (!spec || typeof spec !== "object" || !spec.schema || typeof spec.schema !== "object") {
    throw new BadRequest("response_format json_schema needs json_schema: {name, schema: {...}, strict?}");
  }
  return {type, name: typeof spec.name === "string" ? spec.name : "reply",
    schema: grammarSchema(spec.schema, "response_format.json_schema.schema")};
}

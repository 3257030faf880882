import { readFileSync } from "node:fs";
import type { Message } from "../chat/messages.ts";
import type { ToolCall } from "../tools/types.ts";
import type { ChatModel, GenerateOptions, GenerateResult, StreamEvent } from "./model.ts";
import { ToolgenError, type ToolgenErrorCode } from "../errors.ts";
import { isPlainObject } from "../plain-object.ts";

/**
 * A deterministic ChatModel for tests and demos: it replays a fixed list of replies, one per call.
 *
 * A reply is either plain text or an assistant message. Tool calls may be written in the full contract
 * form (`{id, type:"function", function:{name, arguments}}`) or the short form `{name, arguments}`;
 * arguments may be an object or a JSON string (the OpenAI wire form), ids are generated when absent.
 */
export type ScriptedToolCall =
  | ToolCall
  | {
      id?: string;
      type?: "function";
      function: { name: string; arguments: Record<string, unknown> | string };
    }
  | { id?: string; name: string; arguments?: Record<string, unknown> | string };

export interface ScriptedMessage {
  role?: "assistant";
  content?: string;
  tool_calls?: ScriptedToolCall[];
}

/** A reply, or a function that builds one from the conversation (for tests that echo their input). */
export type ScriptedReply =
  string | ScriptedMessage | ((messages: Message[], options: GenerateOptions) => string | ScriptedMessage);

/** What the model was asked, kept so tests can assert on the prompts and options an agent sent. */
export interface ScriptedCall {
  messages: Message[];
  options: GenerateOptions;
}

export interface ScriptedModelOptions {
  id?: string;
  /** Characters per streamed text delta (default 4), so consumers see several chunks per reply. */
  chunkSize?: number;
  /** Where the replies came from, named in error messages. */
  source?: string;
}

export class ScriptedModelError extends ToolgenError {
  override name = "ScriptedModelError";
  constructor(message: string, options?: { cause?: unknown }) {
    super("scripted_model", message, options);
  }
}

/** Thrown when a call arrives after the last scripted reply was used. */
export class ScriptedModelExhaustedError extends ScriptedModelError {
  override name = "ScriptedModelExhaustedError";
  override readonly code: ToolgenErrorCode = "scripted_model_exhausted";
}

export class ScriptedModel implements ChatModel {
  readonly id: string;
  readonly calls: ScriptedCall[] = [];
  private readonly replies: ScriptedReply[];
  private readonly chunkSize: number;
  private readonly source: string;
  private next = 0;
  private idCounter = 0;

  constructor(replies: ScriptedReply[], options: ScriptedModelOptions = {}) {
    replies.forEach((reply, index) => {
      if (typeof reply !== "function") checkReply(reply, `reply ${index}`);
    });
    this.replies = [...replies];
    this.id = options.id ?? "scripted";
    this.chunkSize = Math.max(1, options.chunkSize ?? 4);
    this.source = options.source ?? "an in-memory list";
  }

  /**
   * Reads replies from a file: a JSON array of replies, a JSON object `{"replies": [...]}`, or JSONL
   * (one reply per line; a line holding a JSON string is a text reply).
   */
  static fromFile(path: string, options: ScriptedModelOptions = {}): ScriptedModel {
    let text: string;
    try {
      text = readFileSync(path, "utf8");
    } catch (error) {
      throw new ScriptedModelError(`cannot read scripted replies from ${path}: ${(error as Error).message}`);
    }
    const replies = parseReplyFile(text, path);
    return new ScriptedModel(replies, { id: `scripted:${path}`, source: path, ...options });
  }

  /** Replies not yet used. */
  get remaining(): number {
    return this.replies.length - this.next;
  }

  async generate(messages: Message[], options: GenerateOptions = {}): Promise<GenerateResult> {
    return this.take(messages, options);
  }

  async *stream(messages: Message[], options: GenerateOptions = {}): AsyncIterable<StreamEvent> {
    const result = this.take(messages, options);
    const { content, tool_calls: calls } = result.message;
    for (let i = 0; i < content.length; i += this.chunkSize) {
      throwIfAborted(options.signal);
      yield { type: "text", delta: content.slice(i, i + this.chunkSize) };
    }
    for (const [index, call] of (calls ?? []).entries()) {
      throwIfAborted(options.signal);
      const json = JSON.stringify(call.function.arguments);
      const half = Math.ceil(json.length / 2);
      // Two fragments per call, like a real server that splits arguments across chunks.
      yield {
        type: "tool_call_delta",
        index,
        id: call.id,
        name: call.function.name,
        argumentsDelta: json.slice(0, half),
      };
      yield { type: "tool_call_delta", index, argumentsDelta: json.slice(half) };
    }
    yield { type: "done", result };
  }

  private take(messages: Message[], options: GenerateOptions): GenerateResult {
    throwIfAborted(options.signal);
    this.calls.push({ messages: structuredClone(messages), options: { ...options, signal: undefined } });
    if (this.next >= this.replies.length) {
      throw new ScriptedModelExhaustedError(
        `scripted model ran out of replies: call ${this.calls.length} but only ${this.replies.length} ` +
          `repl${this.replies.length === 1 ? "y was" : "ies were"} scripted (from ${this.source})`,
      );
    }
    const index = this.next++;
    const entry = this.replies[index]!;
    const reply = typeof entry === "function" ? entry(messages, options) : entry;
    if (typeof entry === "function") checkReply(reply, `reply ${index} (returned by a function)`);
    const message = this.toMessage(reply, index);
    const hasCalls = (message.tool_calls?.length ?? 0) > 0;
    const promptChars = messages.reduce((sum, m) => sum + m.content.length, 0);
    const completionChars = message.content.length + JSON.stringify(message.tool_calls ?? []).length;
    return {
      message,
      // Rough token estimate (4 characters a token): the scripted model has no tokenizer.
      usage: { promptTokens: Math.ceil(promptChars / 4), completionTokens: Math.ceil(completionChars / 4) },
      finishReason: hasCalls ? "tool_calls" : "stop",
      raw: entry,
    };
  }

  private toMessage(reply: string | ScriptedMessage, index: number): Message {
    if (typeof reply === "string") return { role: "assistant", content: reply };
    const message: Message = { role: "assistant", content: reply.content ?? "" };
    if (reply.tool_calls && reply.tool_calls.length > 0) {
      message.tool_calls = reply.tool_calls.map((call, i) =>
        this.toToolCall(call, `reply ${index}, tool call ${i}`),
      );
    }
    return message;
  }

  private toToolCall(call: ScriptedToolCall, where: string): ToolCall {
    const name = "function" in call ? call.function.name : call.name;
    const rawArgs = "function" in call ? call.function.arguments : call.arguments;
    return {
      id: call.id ?? `call_${++this.idCounter}`,
      type: "function",
      function: { name, arguments: toArguments(rawArgs, `${where} (${name})`) },
    };
  }
}

function toArguments(
  raw: Record<string, unknown> | string | undefined,
  where: string,
): Record<string, unknown> {
  if (raw === undefined) return {};
  if (typeof raw !== "string") return raw;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch (error) {
    throw new ScriptedModelError(`${where}: arguments string is not JSON: ${(error as Error).message}`);
  }
  if (!isPlainObject(parsed)) throw new ScriptedModelError(`${where}: arguments must be a JSON object`);
  return parsed;
}

/** Validates one reply up front so a bad script fails when loaded, naming the entry, not mid-test. */
function checkReply(reply: unknown, where: string): asserts reply is string | ScriptedMessage {
  if (typeof reply === "string") return;
  if (!isPlainObject(reply)) {
    throw new ScriptedModelError(
      `${where}: expected a string or an assistant message object, got ${describe(reply)}`,
    );
  }
  if (reply.role !== undefined && reply.role !== "assistant") {
    throw new ScriptedModelError(`${where}: role must be "assistant" (got ${JSON.stringify(reply.role)})`);
  }
  if (reply.content !== undefined && reply.content !== null && typeof reply.content !== "string") {
    throw new ScriptedModelError(`${where}: content must be a string`);
  }
  if (reply.tool_calls === undefined) return;
  if (!Array.isArray(reply.tool_calls)) throw new ScriptedModelError(`${where}: tool_calls must be an array`);
  reply.tool_calls.forEach((call: unknown, i: number) => {
    const at = `${where}, tool call ${i}`;
    if (!isPlainObject(call)) throw new ScriptedModelError(`${at}: expected an object`);
    const fn = isPlainObject(call.function) ? call.function : call;
    if (typeof fn.name !== "string" || fn.name === "") {
      throw new ScriptedModelError(
        `${at}: needs a function name ({name, arguments} or {function:{name, arguments}})`,
      );
    }
    const args = fn.arguments;
    if (args !== undefined && typeof args !== "string" && !isPlainObject(args)) {
      throw new ScriptedModelError(`${at}: arguments must be an object or a JSON string`);
    }
  });
}

function describe(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value;
}

function parseReplyFile(text: string, path: string): ScriptedReply[] {
  const trimmed = text.trim();
  if (trimmed === "") throw new ScriptedModelError(`${path}: the scripted replies file is empty`);
  if (trimmed.startsWith("[") || trimmed.startsWith("{")) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (Array.isArray(parsed)) return parsed as ScriptedReply[];
      if (isPlainObject(parsed) && Array.isArray(parsed.replies)) return parsed.replies as ScriptedReply[];
      if (isPlainObject(parsed)) return [parsed as ScriptedReply];
    } catch {
      // Not one JSON document: fall through to JSONL.
    }
  }
  return trimmed
    .split(/\r?\n/)
    .map((line, lineIndex) => ({ line: line.trim(), lineIndex }))
    .filter(({ line }) => line !== "")
    .map(({ line, lineIndex }) => {
      try {
        return JSON.parse(line) as ScriptedReply;
      } catch (error) {
        throw new ScriptedModelError(
          `${path}:${lineIndex + 1}: not valid JSON (${(error as Error).message}). Accepted: a JSON array of ` +
            `replies, {"replies": [...]}, or JSONL with one reply (a JSON string or an assistant message) per line`,
        );
      }
    });
}

function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) {
    const reason: unknown = signal.reason;
    throw reason instanceof Error ? reason : new Error("aborted");
  }
}

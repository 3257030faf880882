import type { Message } from "../chat/messages.ts";
import { createToolCallStreamParser, parseToolCalls, toAssistantMessage } from "../chat/parse/index.ts";
import type { ParsedToolCall, StreamingToolCallParser, ToolCallFormat } from "../chat/parse/types.ts";
import { isPlainObject } from "../plain-object.ts";
import { WireFormatError, argumentsFromWire, fromWireMessage } from "../chat/wire.ts";
import { ModelResponseError, serverErrorMessage } from "./http-errors.ts";
import type { GenerateResult, StreamEvent, Usage } from "./model.ts";

/** Reading chat-completion responses: whole bodies and SSE chunks. */

type FinishReason = GenerateResult["finishReason"];

function finishReason(value: unknown, hasCalls: boolean): FinishReason {
  if (value === "length") return "length";
  if (value === "tool_calls" || value === "function_call" || hasCalls) return "tool_calls";
  if (value === "error") return "error";
  return "stop";
}

function usageOf(value: unknown): Usage {
  const usage = isPlainObject(value) ? value : {};
  const n = (x: unknown) => (typeof x === "number" && Number.isFinite(x) ? x : 0);
  return { promptTokens: n(usage.prompt_tokens), completionTokens: n(usage.completion_tokens) };
}

/** When a server returns tool calls as text (no tool parser on its side), read them with toolgen's parser. */
function withTextCalls(message: Message, format: ToolCallFormat | undefined): Message {
  if (!format || message.role !== "assistant" || (message.tool_calls?.length ?? 0) > 0) return message;
  const parsed = parseToolCalls(format, message.content);
  return parsed.calls.length > 0 ? toAssistantMessage(parsed) : message;
}

/** A whole (non-streamed) chat completion body. */
export function readCompletion(
  text: string,
  format: ToolCallFormat | undefined,
  what: string,
): GenerateResult {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new ModelResponseError(`${what}: the server's answer is not JSON: ${text.slice(0, 200)}`);
  }
  if (isPlainObject(body) && body.error !== undefined) {
    throw new ModelResponseError(`${what}: the server reported an error: ${serverErrorMessage(text)}`);
  }
  const choice = isPlainObject(body) && Array.isArray(body.choices) ? body.choices[0] : undefined;
  if (!isPlainObject(choice) || !isPlainObject(choice.message)) {
    throw new ModelResponseError(
      `${what}: the server's answer has no choices[0].message: ${text.slice(0, 200)}`,
    );
  }
  let message: Message;
  try {
    message = fromWireMessage(choice.message, "choices[0].message").message;
  } catch (error) {
    if (error instanceof WireFormatError) throw new ModelResponseError(`${what}: ${error.message}`);
    throw error;
  }
  message = withTextCalls(message, format);
  const hasCalls = (message.tool_calls?.length ?? 0) > 0;
  return {
    message,
    usage: usageOf((body as Record<string, unknown>).usage),
    finishReason: finishReason(choice.finish_reason, hasCalls),
    raw: body,
  };
}

interface PartialCall {
  id?: string;
  name: string;
  arguments: string;
}

/**
 * Accumulates streamed chunks: text deltas, tool-call fragments keyed by index (id and name arrive once,
 * arguments in pieces), finish reason and usage. `finish` checks the stream really finished.
 */
export class StreamAccumulator {
  private content = "";
  private readonly calls = new Map<number, PartialCall>();
  private readonly textCalls: ParsedToolCall[] = [];
  private reason: unknown;
  private usage: Usage = { promptTokens: 0, completionTokens: 0 };
  private sawDone = false;
  private readonly textParser: StreamingToolCallParser | undefined;

  constructor(
    format: ToolCallFormat | undefined,
    private readonly what: string,
  ) {
    this.textParser = format ? createToolCallStreamParser(format) : undefined;
  }

  /** One SSE `data:` payload. */
  push(data: string): StreamEvent[] {
    if (data.trim() === "[DONE]") {
      this.sawDone = true;
      return [];
    }
    let chunk: unknown;
    try {
      chunk = JSON.parse(data);
    } catch {
      throw new ModelResponseError(`${this.what}: a stream chunk is not JSON: ${data.slice(0, 200)}`);
    }
    if (!isPlainObject(chunk)) throw new ModelResponseError(`${this.what}: a stream chunk is not an object`);
    if (chunk.error !== undefined) {
      throw new ModelResponseError(
        `${this.what}: the server reported an error mid-stream: ${serverErrorMessage(data)}`,
      );
    }
    if (chunk.usage !== undefined && chunk.usage !== null) this.usage = usageOf(chunk.usage);
    const choice = Array.isArray(chunk.choices) ? chunk.choices[0] : undefined;
    if (!isPlainObject(choice)) return [];
    if (choice.finish_reason !== undefined && choice.finish_reason !== null)
      this.reason = choice.finish_reason;
    const delta = isPlainObject(choice.delta)
      ? choice.delta
      : isPlainObject(choice.message)
        ? choice.message
        : {};
    const events: StreamEvent[] = [];
    if (typeof delta.content === "string" && delta.content !== "") events.push(...this.text(delta.content));
    if (Array.isArray(delta.tool_calls)) {
      delta.tool_calls.forEach((fragment: unknown, position: number) =>
        events.push(...this.callFragment(fragment, position)),
      );
    }
    return events;
  }

  private text(delta: string): StreamEvent[] {
    this.content += delta;
    if (!this.textParser) return [{ type: "text", delta }];
    return this.textParser.push(delta).flatMap((event) => this.fromParser(event));
  }

  private fromParser(event: ReturnType<StreamingToolCallParser["push"]>[number]): StreamEvent[] {
    if (event.type === "text") return [{ type: "text", delta: event.delta }];
    if (event.type !== "tool_call") return [];
    this.textCalls.push(event.call);
    const index = this.calls.size + this.textCalls.length - 1;
    const argumentsDelta = JSON.stringify(event.call.arguments);
    return [{ type: "tool_call_delta", index, id: event.call.id, name: event.call.name, argumentsDelta }];
  }

  private callFragment(fragment: unknown, position: number): StreamEvent[] {
    if (!isPlainObject(fragment)) return [];
    const index = typeof fragment.index === "number" ? fragment.index : position;
    const fn = isPlainObject(fragment.function) ? fragment.function : {};
    const call = this.calls.get(index) ?? { name: "", arguments: "" };
    const event: StreamEvent & { type: "tool_call_delta" } = { type: "tool_call_delta", index };
    if (typeof fragment.id === "string" && fragment.id !== "") call.id = event.id = fragment.id;
    if (typeof fn.name === "string" && fn.name !== "") {
      call.name += fn.name;
      event.name = fn.name;
    }
    const args =
      typeof fn.arguments === "string"
        ? fn.arguments
        : isPlainObject(fn.arguments)
          ? JSON.stringify(fn.arguments)
          : "";
    if (args !== "") {
      call.arguments += args;
      event.argumentsDelta = args;
    }
    this.calls.set(index, call);
    return [event];
  }

  /** The end of the body: checks completeness and builds the result. */
  finish(): { events: StreamEvent[]; result: GenerateResult } {
    if (!this.sawDone && this.reason === undefined) {
      throw new ModelResponseError(
        `${this.what}: the stream ended before the server finished (no finish_reason, no [DONE]); ` +
          `${this.content.length} characters and ${this.calls.size} tool call(s) had arrived`,
      );
    }
    const events: StreamEvent[] = [];
    let text = this.content;
    if (this.textParser) {
      const end = this.textParser.end();
      for (const event of end.events) events.push(...this.fromParser(event));
      text = end.result.text;
    }
    const message: Message = { role: "assistant", content: text };
    const toolCalls = [...this.calls.entries()]
      .sort(([a], [b]) => a - b)
      .map(([index, call]) => {
        if (call.name === "")
          throw new ModelResponseError(`${this.what}: streamed tool call ${index} has no function name`);
        let parsed: Record<string, unknown>;
        try {
          parsed = argumentsFromWire(
            call.arguments,
            `streamed tool call ${index} (${call.name}) arguments`,
          ).arguments;
        } catch (error) {
          throw new ModelResponseError(`${this.what}: ${(error as Error).message}`);
        }
        return {
          id: call.id ?? `call_${index}`,
          type: "function" as const,
          function: { name: call.name, arguments: parsed },
        };
      });
    const fromText = this.textCalls.map((call, i) => ({
      id: call.id ?? `call_${toolCalls.length + i}`,
      type: "function" as const,
      function: { name: call.name, arguments: call.arguments },
    }));
    if (toolCalls.length + fromText.length > 0) message.tool_calls = [...toolCalls, ...fromText];
    const hasCalls = (message.tool_calls?.length ?? 0) > 0;
    const result: GenerateResult = {
      message,
      usage: this.usage,
      finishReason: finishReason(this.reason, hasCalls),
    };
    events.push({ type: "done", result });
    return { events, result };
  }
}

import type { ToolCall } from "../tools/types.ts";
import type { Message, Role } from "./messages.ts";
import { parseJsonLenient } from "./parse/json.ts";
import { isPlainObject } from "../plain-object.ts";
import { ToolgenError } from "../errors.ts";

/**
 * The OpenAI wire form of messages. Everywhere else in toolgen a tool call's arguments are an object (the HF
 * convention); on the wire they are a JSON *string*. The transformers tool-use guide warns that mixing the two
 * breaks templates, so the conversion lives here and only the HTTP adapter uses it.
 */
export interface WireToolCall {
  id: string;
  type: "function";
  function: { name: string; arguments: string };
}

export interface WireMessage {
  role: Role;
  content: string | null;
  tool_calls?: WireToolCall[];
  tool_call_id?: string;
  name?: string;
}

/** A wire message that cannot become a contract message; the text says which field and why. */
export class WireFormatError extends ToolgenError {
  override name = "WireFormatError";
  constructor(message: string, options?: { cause?: unknown }) {
    super("wire_format", message, options);
  }
}

export function toWireMessage(message: Message): WireMessage {
  const wire: WireMessage = { role: message.role, content: message.content };
  if (message.tool_calls && message.tool_calls.length > 0) {
    wire.tool_calls = message.tool_calls.map((call) => ({
      id: call.id,
      type: "function",
      function: { name: call.function.name, arguments: JSON.stringify(call.function.arguments) },
    }));
  }
  if (message.tool_call_id !== undefined) wire.tool_call_id = message.tool_call_id;
  if (message.name !== undefined) wire.name = message.name;
  return wire;
}

export interface FromWire {
  message: Message;
  /** Whether some arguments string needed jsonrepair. */
  repaired: boolean;
}

const ROLES: readonly string[] = ["system", "user", "assistant", "tool"];

/**
 * Reads a message as servers send it: content may be null or a list of text parts, arguments a JSON string
 * (repaired if broken) or, from some servers (Ollama), already an object. Throws WireFormatError otherwise.
 */
export function fromWireMessage(value: unknown, where = "message"): FromWire {
  if (!isPlainObject(value)) throw new WireFormatError(`${where} is not an object`);
  const role = value.role ?? "assistant";
  if (typeof role !== "string" || !ROLES.includes(role)) {
    throw new WireFormatError(
      `${where}.role must be one of ${ROLES.join(", ")} (got ${JSON.stringify(role)})`,
    );
  }
  const message: Message = { role: role as Role, content: contentText(value.content, where) };
  let repaired = false;
  if (value.tool_calls !== undefined && value.tool_calls !== null) {
    if (!Array.isArray(value.tool_calls)) throw new WireFormatError(`${where}.tool_calls must be an array`);
    const calls = value.tool_calls.map((call: unknown, i: number) => {
      const result = toolCallFromWire(call, `${where}.tool_calls[${i}]`, i);
      repaired ||= result.repaired;
      return result.call;
    });
    if (calls.length > 0) message.tool_calls = calls;
  }
  if (typeof value.tool_call_id === "string") message.tool_call_id = value.tool_call_id;
  if (typeof value.name === "string") message.name = value.name;
  return { message, repaired };
}

function contentText(content: unknown, where: string): string {
  if (content === undefined || content === null) return "";
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    // Content parts: keep the text ones.
    return content
      .map((part) => (isPlainObject(part) && typeof part.text === "string" ? part.text : ""))
      .join("");
  }
  throw new WireFormatError(`${where}.content must be a string, null or a list of parts`);
}

/** A tool call's arguments from the wire: a JSON string (repaired if needed) or an object. */
export function argumentsFromWire(
  raw: unknown,
  where = "arguments",
): { arguments: Record<string, unknown>; repaired: boolean } {
  if (raw === undefined || raw === null || raw === "") return { arguments: {}, repaired: false };
  if (isPlainObject(raw)) return { arguments: raw, repaired: false };
  if (typeof raw !== "string") throw new WireFormatError(`${where} must be a JSON string or an object`);
  const parsed = parseJsonLenient(raw);
  if (!parsed.ok || !isPlainObject(parsed.value)) {
    const shown = raw.length > 120 ? `${raw.slice(0, 120)}…` : raw;
    throw new WireFormatError(`${where} is not a JSON object: ${shown}`);
  }
  return { arguments: parsed.value, repaired: parsed.repaired };
}

function toolCallFromWire(
  value: unknown,
  where: string,
  index: number,
): { call: ToolCall; repaired: boolean } {
  if (!isPlainObject(value)) throw new WireFormatError(`${where} is not an object`);
  const fn = value.function;
  if (!isPlainObject(fn) || typeof fn.name !== "string" || fn.name === "") {
    throw new WireFormatError(`${where}.function.name is missing`);
  }
  const args = argumentsFromWire(fn.arguments, `${where}.function.arguments`);
  const id = typeof value.id === "string" && value.id !== "" ? value.id : `call_${index}`;
  return {
    call: { id, type: "function", function: { name: fn.name, arguments: args.arguments } },
    repaired: args.repaired,
  };
}

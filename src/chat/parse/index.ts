import type { Message } from "../messages.ts";
import { segmentHermes } from "./hermes.ts";
import { segmentLlama3Json } from "./llama3-json.ts";
import { segmentMistral } from "./mistral.ts";
import { segmentReact } from "./react.ts";
import { parseWith, streamWith, type Segmenter } from "./segments.ts";
import { segmentToolGen } from "./toolgen.ts";
import {
  TOOL_CALL_FORMATS,
  type ParseResult,
  type StreamingToolCallParser,
  type ToolCallFormat,
} from "./types.ts";
import { ToolgenError } from "../../errors.ts";

export * from "./types.ts";
export { parseReactStep, type ReactStep } from "./react-step.ts";
export {
  parseToolGenAction,
  parseToolGenArguments,
  isFinishCall,
  type ToolGenAction,
  type ToolGenArguments,
} from "./toolgen.ts";

const SEGMENTERS: Record<ToolCallFormat, Segmenter> = {
  hermes: segmentHermes,
  "llama3-json": segmentLlama3Json,
  mistral: segmentMistral,
  react: segmentReact,
  toolgen: segmentToolGen,
};

export function isToolCallFormat(value: string): value is ToolCallFormat {
  return (TOOL_CALL_FORMATS as readonly string[]).includes(value);
}

function segmenterFor(format: ToolCallFormat): Segmenter {
  const segmenter = SEGMENTERS[format];
  if (!segmenter) {
    throw new ToolgenError(
      "invalid_option",
      `unknown tool-call format ${JSON.stringify(format)}; accepted: ${TOOL_CALL_FORMATS.join(", ")}`,
    );
  }
  return segmenter;
}

/**
 * Finds the tool calls in a model's whole output. Never throws on any text: problems come back in
 * `errors`. (An unknown format name is a programming error and does throw.)
 */
export function parseToolCalls(format: ToolCallFormat, text: string): ParseResult {
  return parseWith(format, segmenterFor(format), typeof text === "string" ? text : String(text));
}

/** An incremental parser: push deltas as they stream in, get text and complete calls as soon as they are certain. */
export function createToolCallStreamParser(format: ToolCallFormat): StreamingToolCallParser {
  return streamWith(format, segmenterFor(format));
}

/** Turns a parse result into the assistant message of the contract, with ids `call_<n>` where the format has none. */
export function toAssistantMessage(
  result: ParseResult,
  makeId: (index: number) => string = (i) => `call_${i}`,
): Message {
  const message: Message = { role: "assistant", content: result.text };
  if (result.calls.length > 0) {
    message.tool_calls = result.calls.map((call, index) => ({
      id: call.id ?? makeId(index),
      type: "function",
      function: { name: call.name, arguments: call.arguments },
    }));
  }
  return message;
}

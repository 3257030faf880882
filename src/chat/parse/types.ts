/** Shared types of the tool-call parsers: one parser per output format, none of them ever throws. */

export const TOOL_CALL_FORMATS = ["hermes", "llama3-json", "mistral", "react", "toolgen"] as const;
export type ToolCallFormat = (typeof TOOL_CALL_FORMATS)[number];

/** A tool call found in model output. Arguments are an object, as everywhere outside the HTTP adapter. */
export interface ParsedToolCall {
  name: string;
  arguments: Record<string, unknown>;
  /** True when the call needed fixing: JSON repaired by jsonrepair, or a missing closing tag. */
  repaired: boolean;
  /** The call id, when the format carries one (Mistral). */
  id?: string;
  /** The arguments exactly as the model wrote them; undefined when the model gave none (ToolGen's bare token). */
  rawArguments?: string;
  /** ReAct only: the Action Input was plain text, passed on as `{input: text}`. */
  wrappedInput?: boolean;
}

export type ParseErrorCode =
  /** JSON that even jsonrepair could not turn into a value. */
  | "invalid_json"
  /** A call object without a usable `name`. */
  | "missing_name"
  /** Arguments that are not a JSON object. */
  | "invalid_arguments"
  /** ReAct: an `Action:` line without an `Action Input:`. */
  | "missing_arguments"
  /** Markup that opens a call but never becomes one (`[TOOL_CALLS]` followed by prose, …). */
  | "malformed_call"
  /** ReAct step: neither an action nor a final answer. */
  | "no_action"
  /** A bug in a parser, caught so it cannot escape; the fuzz test asserts it never happens. */
  | "internal";

export interface ToolCallParseError {
  code: ParseErrorCode;
  format: ToolCallFormat;
  message: string;
  /** Where the offending piece starts in the parsed text. */
  offset: number;
  /** The offending piece (cut to 200 characters). */
  raw: string;
}

export interface ParseResult {
  calls: ParsedToolCall[];
  /** The text outside the call markup, special end tokens removed, trimmed. */
  text: string;
  errors: ToolCallParseError[];
}

/** What the incremental parser reports as text arrives. Text deltas are untrimmed. */
export type ParseEvent =
  | { type: "text"; delta: string }
  | { type: "tool_call"; index: number; call: ParsedToolCall }
  | { type: "error"; error: ToolCallParseError };

export interface StreamingToolCallParser {
  readonly format: ToolCallFormat;
  /** Feeds the next piece of output; returns what became certain. */
  push(delta: string): ParseEvent[];
  /** Ends the output: flushes what was held back and returns the same result `parseToolCalls` gives. */
  end(): { events: ParseEvent[]; result: ParseResult };
}

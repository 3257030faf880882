import { callFromObject, parseJsonLenient, parseJsonSequence, partialMarkerLength } from "./json.ts";
import type {
  ParseEvent,
  ParseResult,
  ParsedToolCall,
  StreamingToolCallParser,
  ToolCallFormat,
  ToolCallParseError,
} from "./types.ts";

/**
 * Every format is a segmenter: it cuts text into text, call and error segments. With `final` false it stops
 * at the first place more text could change the answer and says how far it got (`consumed`); the streaming
 * parser feeds it the unconsumed rest as text arrives, the whole-text parser runs it once with `final` true.
 * Because it only stops at boundaries where the cut does not matter, both give the same result.
 */
export type Segment =
  | { kind: "text"; text: string }
  | { kind: "call"; call: ParsedToolCall }
  | { kind: "error"; error: ToolCallParseError };

export interface SegmentContext {
  final: boolean;
  /** Whether the segment just before this text was a call (Llama 3 separates calls with `;`). */
  afterCall: boolean;
  /** Where this text starts in the whole output, for error offsets. */
  offset: number;
  /** Whether this text starts a line (ReAct labels count only at line starts). */
  lineStart: boolean;
}

export interface SegmentResult {
  segments: Segment[];
  consumed: number;
}

export type Segmenter = (text: string, context: SegmentContext) => SegmentResult;

/** End-of-turn and wrapper tokens that are markup, never text. */
export const END_TOKENS = [
  "<|im_end|>",
  "<|eot_id|>",
  "<|eom_id|>",
  "<|end_of_text|>",
  "</s>",
  "<|python_tag|>",
];

const END_TOKEN_PATTERN = new RegExp(END_TOKENS.map((t) => t.replace(/[|[\]/\\]/g, "\\$&")).join("|"), "g");

/** One left-to-right pass, so removing a token never joins its neighbours into another one (streaming agrees). */
export function withoutEndTokens(text: string): string {
  return text.includes("<") ? text.replace(END_TOKEN_PATTERN, "") : text;
}

/** Collects segments, dropping end tokens from text. */
export class SegmentSink {
  readonly segments: Segment[] = [];
  constructor(
    readonly format: ToolCallFormat,
    readonly offset: number,
  ) {}

  text(text: string): void {
    const clean = withoutEndTokens(text);
    if (clean !== "") this.segments.push({ kind: "text", text: clean });
  }

  call(call: ParsedToolCall): void {
    this.segments.push({ kind: "call", call });
  }

  error(code: ToolCallParseError["code"], message: string, at: number, raw: string): void {
    const error: ToolCallParseError = {
      code,
      format: this.format,
      message,
      offset: this.offset + at,
      raw: raw.length > 200 ? `${raw.slice(0, 200)}…` : raw,
    };
    this.segments.push({ kind: "error", error });
  }

  /**
   * Calls from a JSON body: one call object, an array of them, or several objects back to back. Returns how
   * many calls it found; problems become error segments.
   */
  jsonCalls(rawBody: string, at: number, alreadyRepaired: boolean): number {
    const body = withoutEndTokens(rawBody);
    let values: unknown[];
    let repaired = alreadyRepaired;
    const sequence = parseJsonSequence(body.trim());
    if (sequence) values = sequence;
    else {
      const parsed = parseJsonLenient(body);
      if (!parsed.ok) {
        this.error("invalid_json", `tool call is not valid JSON (${parsed.message})`, at, body);
        return 0;
      }
      values = Array.isArray(parsed.value) ? parsed.value : [parsed.value];
      repaired ||= parsed.repaired;
    }
    let found = 0;
    for (const value of values) {
      const result = callFromObject(value, repaired);
      if (result.ok) {
        this.call(result.call);
        found++;
      } else this.error(result.code, result.message, at, body);
    }
    if (values.length === 0) this.error("malformed_call", "an empty list of tool calls", at, body);
    return found;
  }

  /**
   * Plain text up to the end: all of it when final, else all but an end that could still become `markers`
   * (or an end token). Returns how far it consumed.
   */
  trailingText(text: string, from: number, final: boolean, markers: readonly string[]): number {
    const rest = text.slice(from);
    const keep = final ? 0 : partialMarkerLength(rest, [...markers, ...END_TOKENS]);
    this.text(rest.slice(0, rest.length - keep));
    return text.length - keep;
  }

  result(consumed: number): SegmentResult {
    return { segments: this.segments, consumed };
  }
}

function toResult(segments: Segment[]): ParseResult {
  const calls: ParsedToolCall[] = [];
  const errors: ToolCallParseError[] = [];
  let text = "";
  for (const segment of segments) {
    if (segment.kind === "text") text += segment.text;
    else if (segment.kind === "call") calls.push(segment.call);
    else errors.push(segment.error);
  }
  return { calls, text: text.trim(), errors };
}

function internalError(format: ToolCallFormat, error: unknown, offset: number, raw: string): Segment {
  const message = `parser bug: ${error instanceof Error ? error.message : String(error)}`;
  return { kind: "error", error: { code: "internal", format, message, offset, raw: raw.slice(0, 200) } };
}

/** Runs a segmenter over a whole text. */
export function parseWith(format: ToolCallFormat, segmenter: Segmenter, text: string): ParseResult {
  try {
    return toResult(segmenter(text, { final: true, afterCall: false, offset: 0, lineStart: true }).segments);
  } catch (error) {
    return toResult([internalError(format, error, 0, text)]);
  }
}

/** The incremental parser over a segmenter. */
export function streamWith(format: ToolCallFormat, segmenter: Segmenter): StreamingToolCallParser {
  let buffer = "";
  let committed = 0;
  let afterCall = false;
  let ended = false;
  let callCount = 0;
  const all: Segment[] = [];

  const run = (final: boolean): ParseEvent[] => {
    const pending = buffer.slice(committed);
    let result: SegmentResult;
    try {
      const lineStart = committed === 0 || buffer[committed - 1] === "\n";
      result = segmenter(pending, { final, afterCall, offset: committed, lineStart });
    } catch (error) {
      result = { segments: [internalError(format, error, committed, pending)], consumed: pending.length };
    }
    committed += result.consumed;
    const events: ParseEvent[] = [];
    for (const segment of result.segments) {
      all.push(segment);
      if (segment.kind === "text") events.push({ type: "text", delta: segment.text });
      else if (segment.kind === "error") events.push({ type: "error", error: segment.error });
      else {
        events.push({ type: "tool_call", index: callCount++, call: segment.call });
      }
      afterCall = segment.kind === "call";
    }
    return events;
  };

  return {
    format,
    push(delta: string): ParseEvent[] {
      if (ended) return [];
      buffer += delta;
      return run(false);
    },
    end() {
      if (ended) return { events: [], result: toResult(all) };
      ended = true;
      const events = run(true);
      return { events, result: toResult(all) };
    },
  };
}

import { parseJsonLenient, scanBalanced } from "./json.ts";
import { isPlainObject } from "../../plain-object.ts";
import { SegmentSink, withoutEndTokens, type SegmentContext, type SegmentResult } from "./segments.ts";
import type { ParsedToolCall } from "./types.ts";

/**
 * ReAct text (Yao et al. 2022, LangChain's prompt): `Thought: …`, `Action: tool`, `Action Input: {…}`,
 * `Observation: …`, `Final Answer: …`. The calls are the Action / Action Input pairs; everything else is text.
 * A JSON object input is parsed (repaired if needed); plain text is passed as `{input: text}`.
 */
export const ACTION_LINE = /^[ \t]*Action[ \t]*\d*[ \t]*:[ \t]*(.*)$/gm;
const INPUT_LABEL = /^[ \t]*Action[ \t]*Input[ \t]*\d*[ \t]*:[ \t]*/;
/** What an `Action Input:` label looks like before it is finished (streaming waits on it). */
const PARTIAL_INPUT_LABEL =
  /^[ \t]*(?:A(?:c(?:t(?:i(?:o(?:n(?:[ \t]*(?:I(?:n(?:p(?:u(?:t[ \t]*\d*[ \t]*)?)?)?)?)?)?)?)?)?)?)?)?$/;
/** Lines that end an Action Input written as plain text (the newline before them included). */
const NEXT_LABEL =
  /\n[ \t]*(?:Observation|Thought|Action|Action[ \t]*Input|Final[ \t]*Answer)[ \t]*\d*[ \t]*:/;

export function segmentReact(text: string, context: SegmentContext): SegmentResult {
  const sink = new SegmentSink("react", context.offset);
  let pos = 0;
  for (;;) {
    ACTION_LINE.lastIndex = pos === 0 && !context.lineStart ? 1 : pos;
    const action = ACTION_LINE.exec(text);
    if (!action) return sink.result(trailing(text, pos, context.final, sink));
    const lineStart = action.index;
    const lineEnd = lineStart + action[0].length;
    if (lineEnd >= text.length && !context.final) {
      sink.text(text.slice(pos, lineStart));
      return sink.result(lineStart);
    }
    const end = readAction(text, lineStart, lineEnd, cleanName(action[1]!), context.final, sink, pos);
    if (end < 0) {
      sink.text(text.slice(pos, lineStart));
      return sink.result(lineStart);
    }
    pos = end;
  }
}

/** Text to the end; while streaming, an unfinished last line that could still become `Action:` is held back. */
function trailing(text: string, from: number, final: boolean, sink: SegmentSink): number {
  if (final) return sink.trailingText(text, from, true, []);
  const lastBreak = text.lastIndexOf("\n");
  const lastLine = text.slice(Math.max(lastBreak + 1, from));
  const head = lastLine.trimStart();
  const mayBeAction = "Action".startsWith(head) || /^Action[ \t]*\d*[ \t]*$/.test(head);
  if (!mayBeAction || lastLine === "") return sink.trailingText(text, from, false, []);
  const holdFrom = text.length - lastLine.length;
  sink.text(text.slice(from, holdFrom));
  return holdFrom;
}

function cleanName(raw: string): string {
  return withoutEndTokens(raw)
    .trim()
    .replace(/^[`"'*]+|[`"'*]+$/g, "")
    .trim();
}

/**
 * Reads the Action Input after an `Action:` line, emits the text before the action and the call (or error).
 * Returns where the action ends, or -1 to wait for more text.
 */
function readAction(
  text: string,
  lineStart: number,
  lineEnd: number,
  name: string,
  final: boolean,
  sink: SegmentSink,
  textFrom: number,
): number {
  const rest = text.slice(lineEnd);
  const nextLine = /^(?:[ \t]*\r?\n)+/.exec(rest);
  const inputLineStart = lineEnd + (nextLine ? nextLine[0].length : 0);
  const label = INPUT_LABEL.exec(text.slice(inputLineStart));
  if (!label) {
    const couldStillCome = PARTIAL_INPUT_LABEL.test(text.slice(inputLineStart));
    if (!final && couldStillCome) return -1;
    sink.text(text.slice(textFrom, lineStart));
    sink.error(
      "missing_arguments",
      `Action "${name}" is not followed by an "Action Input:" line`,
      lineStart,
      text.slice(lineStart, lineEnd),
    );
    return lineEnd;
  }
  const inputStart = inputLineStart + label[0].length;
  const input = readInput(text, inputStart, final);
  if (!input) return -1;
  sink.text(text.slice(textFrom, lineStart));
  if (name === "") {
    sink.error(
      "missing_name",
      "an Action line without a tool name",
      lineStart,
      text.slice(lineStart, input.end),
    );
    return input.end;
  }
  const call = toCall(name, input.raw, input.complete);
  if ("code" in call) sink.error(call.code, call.message, inputStart, input.raw);
  else sink.call(call);
  return input.end;
}

interface RawInput {
  raw: string;
  end: number;
  complete: boolean;
}

/** The Action Input: a bracketed JSON value (possibly fenced) or text up to the next label line. */
function readInput(text: string, start: number, final: boolean): RawInput | undefined {
  const lead = /^[ \t]*(?:\r?\n[ \t]*)?(```[\w-]*[ \t]*\r?\n)?[ \t]*/.exec(text.slice(start))!;
  const fenced = lead[1] !== undefined;
  const valueStart = start + lead[0].length;
  if (valueStart >= text.length) return final ? { raw: "", end: text.length, complete: true } : undefined;
  if (text[valueStart] === "{" || text[valueStart] === "[") {
    const end = scanBalanced(text, valueStart);
    if (end >= 0) {
      const fence = fenced ? /^\s*```/.exec(text.slice(end)) : null;
      if (fenced && !fence && !final && text.slice(end).trim().length < 3) return undefined;
      return { raw: text.slice(valueStart, end), end: end + (fence ? fence[0].length : 0), complete: true };
    }
  }
  const next = NEXT_LABEL.exec(text.slice(valueStart));
  if (!next && !final) return undefined;
  const end = next ? valueStart + next.index + 1 : text.length;
  const raw = text.slice(valueStart, end).replace(/```\s*$/, "");
  return { raw: withoutEndTokens(raw).trim(), end, complete: false };
}

type ToCall = ParsedToolCall | { code: "invalid_arguments"; message: string };

function toCall(name: string, raw: string, bracketed: boolean): ToCall {
  const looksJson = raw.startsWith("{") || raw.startsWith("[");
  if (looksJson || bracketed) {
    const parsed = parseJsonLenient(raw);
    if (parsed.ok && isPlainObject(parsed.value)) {
      return { name, arguments: parsed.value, repaired: parsed.repaired, rawArguments: raw };
    }
    if (looksJson)
      return { code: "invalid_arguments", message: `Action Input of ${name} is not a JSON object` };
  }
  // Plain text input, LangChain's classic form; a JSON string literal is unquoted first.
  let input = raw;
  if (/^".*"$/s.test(raw)) {
    try {
      const value: unknown = JSON.parse(raw);
      if (typeof value === "string") input = value;
    } catch {
      // keep the raw text
    }
  }
  return { name, arguments: { input }, repaired: false, rawArguments: raw, wrappedInput: true };
}

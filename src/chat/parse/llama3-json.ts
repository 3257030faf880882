import { scanBalanced } from "./json.ts";
import { isPlainObject } from "../../plain-object.ts";
import { SegmentSink, type SegmentContext, type SegmentResult } from "./segments.ts";

/**
 * Llama 3.1/3.2 JSON tool calls: `{"name": …, "parameters": {…}}` (or `"arguments"`), optionally after
 * `<|python_tag|>`, several separated by `;` or written as a JSON array. Other JSON in the text stays text;
 * a broken object that names a function and its parameters is repaired with jsonrepair.
 */
const NAME_HINT = /"name"\s*:/;
const ARGS_HINT = /"(?:parameters|arguments)"\s*:/;

function isCallShaped(value: unknown): boolean {
  return (
    isPlainObject(value) && typeof value.name === "string" && ("parameters" in value || "arguments" in value)
  );
}

function strictParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function looksLikeCall(fragment: string): boolean {
  return NAME_HINT.test(fragment) && ARGS_HINT.test(fragment);
}

export function segmentLlama3Json(text: string, context: SegmentContext): SegmentResult {
  const sink = new SegmentSink("llama3-json", context.offset);
  let pos = 0;
  let afterCall = context.afterCall;
  let searchFrom = 0;
  for (;;) {
    if (afterCall) {
      const separator = /^\s*;/.exec(text.slice(pos));
      if (separator) pos += separator[0].length;
      else if (!context.final && text.slice(pos).trim() === "") return sink.result(pos);
      afterCall = false;
      searchFrom = pos;
    }
    const candidate = /[{[]/g;
    candidate.lastIndex = searchFrom;
    const match = candidate.exec(text);
    if (!match) return sink.result(sink.trailingText(text, pos, context.final, []));
    const start = match.index;
    if (text[start] === "[") {
      const next = text.slice(start + 1).search(/\S/);
      if (next < 0 && !context.final) {
        sink.text(text.slice(pos, start));
        return sink.result(start);
      }
      if (next < 0 || text[start + 1 + next] !== "{") {
        searchFrom = start + 1;
        continue;
      }
    }
    const end = scanBalanced(text, start);
    if (end < 0) {
      if (!context.final) {
        sink.text(text.slice(pos, start));
        return sink.result(start);
      }
      const fragment = text.slice(start);
      if (!looksLikeCall(fragment)) return sink.result(sink.trailingText(text, pos, true, []));
      sink.text(text.slice(pos, start));
      sink.jsonCalls(fragment, start, true);
      return sink.result(text.length);
    }
    const fragment = text.slice(start, end);
    const parsed = strictParse(fragment);
    const isCall = parsed.ok
      ? Array.isArray(parsed.value)
        ? parsed.value.length > 0 && parsed.value.every(isCallShaped)
        : isCallShaped(parsed.value)
      : looksLikeCall(fragment);
    if (!isCall) {
      // An array that is not a list of calls may still hold one; a plain object is just text.
      searchFrom = text[start] === "[" ? start + 1 : end;
      continue;
    }
    sink.text(text.slice(pos, start));
    sink.jsonCalls(fragment, start, false);
    pos = end;
    searchFrom = end;
    afterCall = true;
  }
}

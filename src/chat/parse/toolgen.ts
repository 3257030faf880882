import { FINISH_TOKEN } from "../../toolgen/tokens.ts";
import { parseJsonLenient, scanBalanced } from "./json.ts";
import { isPlainObject } from "../../plain-object.ts";
import { SegmentSink, withoutEndTokens, type SegmentContext, type SegmentResult } from "./segments.ts";
import type { ParsedToolCall, ToolCallParseError } from "./types.ts";

/**
 * ToolGen output: an atomic tool token `<<tool&&api>>` (or `<<Finish>>`), optionally followed by its JSON
 * arguments. In the paper's agent protocol the token and the arguments come in separate turns; see
 * `parseToolGenAction` and `parseToolGenArguments` for those. The call's name is the catalog id in the token.
 */
const OPEN = "<<";
const CLOSE = ">>";
/** Longer than any catalog id; past it, `<<` is just text (a C++ stream, a quote mark). */
const MAX_ID = 512;

export function segmentToolGen(text: string, context: SegmentContext): SegmentResult {
  const sink = new SegmentSink("toolgen", context.offset);
  let pos = 0;
  let searchFrom = 0;
  for (;;) {
    const open = text.indexOf(OPEN, searchFrom);
    if (open < 0) return sink.result(sink.trailingText(text, pos, context.final, [OPEN]));
    const close = text.indexOf(CLOSE, open + OPEN.length);
    const lineBreak = text.indexOf("\n", open);
    const id = close < 0 ? "" : text.slice(open + OPEN.length, close);
    const isToken =
      close >= 0 && id.trim() !== "" && id.length <= MAX_ID && (lineBreak < 0 || lineBreak > close);
    if (!isToken) {
      const mayComplete = close < 0 && lineBreak < 0 && text.length - open <= MAX_ID + OPEN.length;
      if (mayComplete && !context.final) {
        sink.text(text.slice(pos, open));
        return sink.result(open);
      }
      searchFrom = open + 1;
      continue;
    }
    const tokenEnd = close + CLOSE.length;
    const gap = text.slice(tokenEnd).search(/\S/);
    if (gap < 0 && !context.final) {
      sink.text(text.slice(pos, open));
      return sink.result(open);
    }
    const argsStart = gap < 0 ? text.length : tokenEnd + gap;
    sink.text(text.slice(pos, open));
    const name = id.trim();
    if (text[argsStart] !== "{") {
      // A bare token: the arguments come later (next turn) or not at all.
      sink.call({ name, arguments: {}, repaired: false });
      pos = searchFrom = tokenEnd;
      continue;
    }
    let end = scanBalanced(text, argsStart);
    if (end < 0) {
      if (!context.final) return sink.result(open);
      end = text.length;
    }
    const raw = text.slice(argsStart, end);
    const parsed = parseJsonLenient(withoutEndTokens(raw));
    if (parsed.ok && isPlainObject(parsed.value)) {
      sink.call({ name, arguments: parsed.value, repaired: parsed.repaired, rawArguments: raw });
    } else {
      sink.error(
        "invalid_arguments",
        `arguments after ${OPEN}${name}${CLOSE} are not a JSON object`,
        argsStart,
        raw,
      );
    }
    pos = searchFrom = end;
  }
}

export type ToolGenAction =
  | { kind: "tool"; id: string; token: string }
  | { kind: "finish"; token: string }
  | { kind: "invalid"; error: ToolCallParseError };

/** The action turn: the first tool token in the output (constrained decoding makes it the whole output). */
export function parseToolGenAction(output: string): ToolGenAction {
  const match = /<<([^\n]{1,512}?)>>/.exec(output);
  if (!match || match[1]!.trim() === "") {
    return {
      kind: "invalid",
      error: toolGenError("malformed_call", "expected a tool token <<tool&&api>> or <<Finish>>", output),
    };
  }
  const id = match[1]!.trim();
  const token = `${OPEN}${id}${CLOSE}`;
  return token === FINISH_TOKEN ? { kind: "finish", token } : { kind: "tool", id, token };
}

export type ToolGenArguments =
  | { ok: true; arguments: Record<string, unknown>; repaired: boolean }
  | { ok: false; error: ToolCallParseError };

/** The arguments turn: a JSON object (fenced, surrounded by prose, or broken and repaired). */
export function parseToolGenArguments(output: string): ToolGenArguments {
  const text = withoutEndTokens(output);
  const start = text.indexOf("{");
  if (start < 0) {
    if (text.trim() === "") return { ok: true, arguments: {}, repaired: true };
    return {
      ok: false,
      error: toolGenError("invalid_arguments", "expected a JSON object of arguments", output),
    };
  }
  const end = scanBalanced(text, start);
  const parsed = parseJsonLenient(text.slice(start, end < 0 ? text.length : end));
  if (parsed.ok && isPlainObject(parsed.value)) {
    const repaired = parsed.repaired || end < 0;
    return { ok: true, arguments: parsed.value, repaired };
  }
  const reason = parsed.ok ? "not a JSON object" : `not valid JSON (${parsed.message})`;
  return { ok: false, error: toolGenError("invalid_json", `arguments are ${reason}`, output) };
}

function toolGenError(code: ToolCallParseError["code"], message: string, raw: string): ToolCallParseError {
  return { code, format: "toolgen", message, offset: 0, raw: raw.slice(0, 200) };
}

/** Converts a parsed ToolGen call to whether it is the Finish action. */
export function isFinishCall(call: ParsedToolCall): boolean {
  return `${OPEN}${call.name}${CLOSE}` === FINISH_TOKEN;
}

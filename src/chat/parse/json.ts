import { jsonrepair } from "jsonrepair";
import type { ParsedToolCall } from "./types.ts";
import { isPlainObject } from "../../plain-object.ts";

/**
 * End (exclusive) of the bracketed JSON value that opens at `start` (`{` or `[`), or -1 when the text ends
 * first. Strings and escapes are honoured; bracket kinds are not matched (JSON.parse judges that later).
 */
export function scanBalanced(text: string, start: number): number {
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92 /* \ */) i++;
      else if (c === 34 /* " */) inString = false;
      continue;
    }
    if (c === 34) inString = true;
    else if (c === 123 /* { */ || c === 91 /* [ */) depth++;
    else if (c === 125 /* } */ || c === 93 /* ] */) {
      depth--;
      if (depth === 0) return i + 1;
    }
  }
  return -1;
}

export type LenientJson = { ok: true; value: unknown; repaired: boolean } | { ok: false; message: string };

/** JSON.parse, then jsonrepair; never throws (jsonrepair can overflow the stack on deep nesting). */
export function parseJsonLenient(text: string): LenientJson {
  const source = stripCodeFence(text).trim();
  try {
    return { ok: true, value: JSON.parse(source), repaired: false };
  } catch (error) {
    const parseMessage = (error as Error).message;
    try {
      return { ok: true, value: JSON.parse(jsonrepair(source)), repaired: true };
    } catch {
      return { ok: false, message: parseMessage };
    }
  }
}

/** Several JSON values written back to back (`{…}\n{…}`), each parsed strictly; undefined if that is not what it is. */
export function parseJsonSequence(text: string): unknown[] | undefined {
  const values: unknown[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/[\s,;]/.test(c)) {
      i++;
      continue;
    }
    if (c !== "{" && c !== "[") return undefined;
    const end = scanBalanced(text, i);
    if (end < 0) return undefined;
    try {
      values.push(JSON.parse(text.slice(i, end)));
    } catch {
      return undefined;
    }
    i = end;
  }
  return values.length > 1 ? values : undefined;
}

/** Removes a surrounding Markdown code fence (```json … ```), which models like to add. */
export function stripCodeFence(text: string): string {
  const match = /^\s*```[\w-]*[ \t]*\r?\n?([\s\S]*?)\r?\n?[ \t]*(?:```\s*)?$/.exec(text);
  return match ? match[1]! : text;
}

export type CallFromObject =
  | { ok: true; call: ParsedToolCall }
  | { ok: false; code: "malformed_call" | "missing_name" | "invalid_arguments"; message: string };

/**
 * Reads `{name, arguments|parameters[, id]}` (arguments as an object or a JSON string). `repaired` says whether
 * the surrounding JSON already needed repair.
 */
export function callFromObject(value: unknown, repaired: boolean, rawArguments?: string): CallFromObject {
  if (!isPlainObject(value)) {
    const got = JSON.stringify(value)?.slice(0, 60) ?? String(value);
    return { ok: false, code: "malformed_call", message: `a tool call must be a JSON object, got ${got}` };
  }
  const fn = isPlainObject(value.function) ? value.function : value;
  const name = fn.name;
  if (typeof name !== "string" || name.trim() === "") {
    return { ok: false, code: "missing_name", message: 'a tool call needs a non-empty string "name"' };
  }
  const args = "arguments" in fn ? fn.arguments : fn.parameters;
  let argumentsObject: Record<string, unknown>;
  let argsRepaired = false;
  let raw = rawArguments;
  if (args === undefined || args === null) {
    argumentsObject = {};
  } else if (typeof args === "string") {
    raw ??= args;
    const parsed =
      args.trim() === "" ? { ok: true as const, value: {}, repaired: false } : parseJsonLenient(args);
    if (!parsed.ok || !isPlainObject(parsed.value)) {
      return {
        ok: false,
        code: "invalid_arguments",
        message: `arguments of ${name} are a string that is not a JSON object`,
      };
    }
    argumentsObject = parsed.value;
    argsRepaired = parsed.repaired;
  } else if (isPlainObject(args)) {
    argumentsObject = args;
  } else {
    return { ok: false, code: "invalid_arguments", message: `arguments of ${name} must be a JSON object` };
  }
  const call: ParsedToolCall = {
    name: name.trim(),
    arguments: argumentsObject,
    repaired: repaired || argsRepaired,
  };
  if (typeof value.id === "string" && value.id !== "") call.id = value.id;
  call.rawArguments = raw ?? JSON.stringify(argumentsObject);
  return { ok: true, call };
}

/** Length of the longest end of `text` that is the start of one of `markers` (held back while streaming). */
export function partialMarkerLength(text: string, markers: readonly string[]): number {
  let best = 0;
  for (const marker of markers) {
    const max = Math.min(marker.length - 1, text.length);
    for (let n = max; n > best; n--) {
      if (text.endsWith(marker.slice(0, n))) {
        best = n;
        break;
      }
    }
  }
  return best;
}

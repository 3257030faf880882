import { ToolInputError } from "./define.ts";
import { coerceArguments } from "./coerce.ts";
import { resultToContent, UnserializableResultError } from "./result.ts";
import { closestNames } from "./suggest.ts";
import type { Tool, ToolCall, ToolContext, ToolErrorCode, ToolResult } from "./types.ts";
import { validateArguments } from "./validate.ts";

export interface ExecuteOptions {
  /** Milliseconds before the call is abandoned with a "timeout" error (default 30 000; 0 = none). */
  timeoutMs?: number;
  /** Largest accepted arguments, in bytes of JSON (default 1 MiB). */
  maxArgumentBytes?: number;
  /** Apply the safe scalar coercions (default true). */
  coerce?: boolean;
  /** Reject argument keys the schema does not declare, even where it allows extras (default false). */
  rejectUnknownKeys?: boolean;
  /** Append the stack of a throwing tool to its message (default false: no stack leaks to the model). */
  includeStack?: boolean;
}

const FORBIDDEN = new Set(["__proto__", "constructor", "prototype"]);
const fail = (code: ToolErrorCode, message: string): ToolResult => ({ ok: false, error: { code, message } });

/**
 * Runs one tool call. Never throws and never rejects: every failure, including a tool that throws,
 * hangs or returns something unserializable, comes back as `{ok: false, error: {code, message}}`.
 */
export async function executeToolCall(
  call: ToolCall,
  tools: readonly Tool[] | ReadonlyMap<string, Tool>,
  context: ToolContext = {},
  options: ExecuteOptions = {},
): Promise<ToolResult> {
  try {
    return await run(call, tools, context, options);
  } catch (err) {
    // Only reached on a bug or a hostile input (getters that throw); still an answer, not a crash.
    return fail("tool_error", `tool call failed: ${messageOf(err)}`);
  }
}

async function run(
  call: ToolCall,
  tools: readonly Tool[] | ReadonlyMap<string, Tool>,
  context: ToolContext,
  options: ExecuteOptions,
): Promise<ToolResult> {
  const name = call?.function?.name;
  const list = tools instanceof Map ? [...tools.values()] : (tools as readonly Tool[]);
  const found = typeof name === "string" ? list.find((t) => t.name === name) : undefined;
  if (!found) {
    const near = closestNames(
      String(name),
      list.map((t) => t.name),
    );
    const hint =
      near.length > 0
        ? `; did you mean ${near.map((n) => `"${n}"`).join(", ")}?`
        : "; no tools are available";
    return fail("unknown_tool", `unknown tool ${JSON.stringify(name)}${hint}`);
  }
  const raw: unknown = call.function.arguments ?? {};
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return fail(
      "invalid_arguments",
      `arguments of ${found.name} must be a JSON object, got ${Array.isArray(raw) ? "an array" : typeof raw}`,
    );
  }
  const badKeys = forbiddenKeys(raw, "");
  if (badKeys.length > 0) {
    return fail("forbidden_key", `arguments of ${found.name} use reserved keys: ${badKeys.join(", ")}`);
  }
  const limit = options.maxArgumentBytes ?? 1024 * 1024;
  let size: number;
  try {
    size = Buffer.byteLength(JSON.stringify(raw) ?? "", "utf8");
  } catch (err) {
    return fail("invalid_arguments", `arguments of ${found.name} are not JSON data: ${messageOf(err)}`);
  }
  if (size > limit)
    return fail("arguments_too_large", `arguments of ${found.name} are ${size} bytes; the limit is ${limit}`);

  const args = structuredClone(raw) as Record<string, unknown>;
  const coercions = options.coerce === false ? [] : coerceArguments(args, found.parameters);
  const violations = validateArguments(args, found.parameters);
  if (options.rejectUnknownKeys) {
    for (const k of Object.keys(args)) {
      if (!Object.hasOwn(found.parameters.properties, k)) violations.push(`/: unexpected property "${k}"`);
    }
  }
  if (violations.length > 0) {
    return fail(
      "invalid_arguments",
      `invalid arguments for ${found.name}:\n${violations.map((v) => `- ${v}`).join("\n")}`,
    );
  }
  if (!found.execute) return fail("no_executor", `tool ${found.name} has a description but no code to run`);

  const outcome = await callWithLimits(found, args, context, options.timeoutMs ?? 30_000);
  if (!outcome.ok) {
    const err = outcome.error;
    if (err === TIMEOUT)
      return fail("timeout", `tool ${found.name} did not finish within ${options.timeoutMs ?? 30_000} ms`);
    if (err === ABORTED) return fail("aborted", `tool ${found.name} was aborted by the caller`);
    if (err instanceof ToolInputError)
      return fail("invalid_arguments", `invalid arguments for ${found.name}: ${err.message}`);
    const stack = options.includeStack && err instanceof Error && err.stack ? `\n${err.stack}` : "";
    return fail("tool_error", `tool ${found.name} failed: ${messageOf(err)}${stack}`);
  }
  try {
    const content = resultToContent(outcome.value);
    return coercions.length > 0 ? { ok: true, content, coercions } : { ok: true, content };
  } catch (err) {
    if (err instanceof UnserializableResultError) return fail("unserializable_result", err.message);
    return fail(
      "unserializable_result",
      `result of ${found.name} cannot be written as JSON: ${messageOf(err)}`,
    );
  }
}

const TIMEOUT = Symbol("timeout");
const ABORTED = Symbol("aborted");

/** Races the tool against the timeout and the caller's signal; the tool gets a signal that fires on either. */
async function callWithLimits(
  tool: Tool,
  args: Record<string, unknown>,
  context: ToolContext,
  timeoutMs: number,
): Promise<{ ok: true; value: unknown } | { ok: false; error: unknown }> {
  const outer = context.signal;
  if (outer?.aborted) return { ok: false, error: ABORTED };
  const controller = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  let onAbort: (() => void) | undefined;
  const stop = new Promise<{ ok: false; error: unknown }>((resolve) => {
    if (timeoutMs > 0) {
      timer = setTimeout(() => {
        controller.abort(new Error("timeout"));
        resolve({ ok: false, error: TIMEOUT });
      }, timeoutMs);
    }
    onAbort = () => {
      controller.abort(outer?.reason);
      resolve({ ok: false, error: ABORTED });
    };
    outer?.addEventListener("abort", onAbort, { once: true });
  });
  const work = (async () => {
    try {
      return {
        ok: true as const,
        value: await tool.execute!(args, { ...context, signal: controller.signal }),
      };
    } catch (error) {
      return { ok: false as const, error };
    }
  })();
  try {
    return await Promise.race([work, stop]);
  } finally {
    if (timer) clearTimeout(timer);
    if (onAbort) outer?.removeEventListener("abort", onAbort);
  }
}

function forbiddenKeys(value: unknown, pointer: string): string[] {
  if (typeof value !== "object" || value === null) return [];
  const found: string[] = [];
  for (const key of Object.keys(value)) {
    const at = `${pointer}/${key}`;
    if (FORBIDDEN.has(key)) found.push(at);
    found.push(...forbiddenKeys((value as Record<string, unknown>)[key], at));
  }
  return found;
}

function messageOf(err: unknown): string {
  if (err instanceof Error) return err.message || err.name;
  return typeof err === "string" ? err : (JSON.stringify(err) ?? String(err));
}

import { orderLikeSchema, toolCallSchema } from "../constrain/index.ts";
import type { JsonSchema, ToolJson } from "../tools/types.ts";

/**
 * The function caller's prompt and reply (docs/models-and-templates.md, "The function caller"). The prompt lists
 * each offered function compactly (name, description, then one line per parameter: type, required or optional,
 * enum values, default, description), then the question; the reply is a JSON list of calls, `[]` for none:
 *
 *   <|tools|>name: description
 *    - param (string, required): description
 *   <|question|>question<|calls|>[{"name":"name","parameters":{"param":"value"}}]<|end|>
 *
 * Descriptions are cut (a from-scratch model reads little, and attention costs grow with the prompt), so
 * every part of the prompt has a character budget; the same rendering serves training and decoding.
 */
export const CALLER_SPECIALS = ["<|pad|>", "<|tools|>", "<|question|>", "<|calls|>", "<|end|>"] as const;
export const CALLER_PAD = "<|pad|>";
export const CALLER_END = "<|end|>";
export const CALLER_CALLS = "<|calls|>";

/** Character budgets of the rendered documentation. */
export interface CallerPromptLimits {
  description: number;
  parameterDescription: number;
  parameters: number;
  enumValues: number;
  question: number;
}

export const DEFAULT_PROMPT_LIMITS: CallerPromptLimits = {
  description: 160,
  parameterDescription: 70,
  parameters: 10,
  enumValues: 8,
  question: 1200,
};

/** At most `n` characters, cut where a word ends. */
export function clip(text: string, n: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  if (flat.length <= n) return flat;
  const cut = flat.slice(0, n);
  const space = cut.lastIndexOf(" ");
  return (space > n / 2 ? cut.slice(0, space) : cut).trimEnd();
}

function typeName(schema: JsonSchema): string {
  const t = schema.type;
  const base = Array.isArray(t) ? t.join("|") : (t ?? (schema.enum ? "enum" : "any"));
  if (base === "array" && schema.items && !Array.isArray(schema.items)) return `array of ${typeName(schema.items)}`;
  return base;
}

function parameterLine(name: string, schema: JsonSchema, required: boolean, l: CallerPromptLimits): string {
  const facts = [typeName(schema), required ? "required" : "optional"];
  if (Array.isArray(schema.enum) && schema.enum.length > 0) {
    const shown = schema.enum.slice(0, l.enumValues).map((v) => String(v));
    facts.push(`one of ${shown.join("|")}${schema.enum.length > shown.length ? "|…" : ""}`);
  }
  if (schema.default !== undefined) facts.push(`default ${clip(JSON.stringify(schema.default), 24)}`);
  const description = clip(typeof schema.description === "string" ? schema.description : "", l.parameterDescription);
  return ` - ${name} (${facts.join(", ")})${description ? `: ${description}` : ""}`;
}

/** One function's documentation, as the prompt shows it. */
export function functionDoc(tool: ToolJson, l: CallerPromptLimits = DEFAULT_PROMPT_LIMITS): string {
  const f = tool.function;
  const required = new Set(f.parameters.required ?? []);
  const entries = Object.entries(f.parameters.properties ?? {}).slice(0, l.parameters);
  const lines = [`${f.name}: ${clip(f.description ?? "", l.description)}`];
  for (const [name, schema] of entries) lines.push(parameterLine(name, schema, required.has(name), l));
  return lines.join("\n");
}

/** The prompt up to and including `<|calls|>`: the functions, then the question. */
export function callerPrompt(
  tools: readonly ToolJson[],
  question: string,
  l: CallerPromptLimits = DEFAULT_PROMPT_LIMITS,
): string {
  const docs = tools.map((t) => functionDoc(t, l)).join("\n");
  return `<|tools|>${docs}\n<|question|>${clip(question, l.question)}${CALLER_CALLS}`;
}

/** Most calls one reply may hold. */
export const MAX_CALLS = 6;

/**
 * The reply's schema: a list of at most MAX_CALLS calls, each `{"name", "parameters"}` of an offered function
 * (the name from a trie of the offered names, the arguments under that function's schema); `[]` declines.
 * A call's arguments are its function's documented parameters only: the constraint already keeps an object
 * with properties to those, but reads one with none as a free map, so a function that documents no parameter
 * (and does not ask for other keys with `additionalProperties`) takes exactly `{}` — the prompt shows no
 * parameter and training replies hold none (such a function otherwise drew made-up keys, some repeated).
 */
export function callerSchema(tools: readonly ToolJson[]): JsonSchema {
  const documented = tools.map((t): ToolJson => {
    const p = t.function.parameters;
    const none = Object.keys(p.properties ?? {}).length === 0 && (p.required ?? []).length === 0;
    if (!none || (p.additionalProperties !== undefined && p.additionalProperties !== false)) return t;
    return { ...t, function: { ...t.function, parameters: { type: "object", properties: {}, const: {} } } };
  });
  return { type: "array", items: toolCallSchema(documented), maxItems: MAX_CALLS };
}

export interface CallerCall {
  name: string;
  arguments: Record<string, unknown>;
}

/** The reply text for `calls` (what training targets are): compact JSON, keys in the constraint's order. */
export function callerReply(tools: readonly ToolJson[], calls: readonly CallerCall[]): string {
  const byName = new Map(tools.map((t) => [t.function.name, t]));
  return JSON.stringify(
    calls.map((c) => {
      const tool = byName.get(c.name);
      const parameters = tool ? orderLikeSchema(c.arguments, tool.function.parameters) : c.arguments;
      return { name: c.name, parameters };
    }),
  );
}

/** The calls a reply text holds; undefined when it is not a list of `{"name", "parameters"}` objects. */
export function parseCallerReply(text: string): CallerCall[] | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (!Array.isArray(value)) return undefined;
  const calls: CallerCall[] = [];
  for (const c of value) {
    if (typeof c !== "object" || c === null || typeof (c as { name?: unknown }).name !== "string") return undefined;
    const p = (c as { parameters?: unknown }).parameters;
    const args = typeof p === "object" && p !== null && !Array.isArray(p) ? (p as Record<string, unknown>) : {};
    calls.push({ name: (c as { name: string }).name, arguments: args });
  }
  return calls;
}

/**
 * The calls that are made: those naming an offered function (free decoding may name another), each distinct call
 * once (a reply that repeats a call word for word asks for it once: a small model's runaway list).
 */
export function offeredDistinctCalls(calls: readonly CallerCall[], tools: readonly ToolJson[]): CallerCall[] {
  const offered = new Set(tools.map((t) => t.function.name));
  const seen = new Set<string>();
  return calls.filter((c) => {
    const key = JSON.stringify([c.name, c.arguments]);
    if (!offered.has(c.name) || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

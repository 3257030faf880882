import type { Message } from "../chat/messages.ts";
import type { JsonSchema } from "../tools/types.ts";
import { numbersIn } from "../constrain/number-words.ts";
export { numbersIn, numberWordsIn } from "../constrain/number-words.ts";
import { NAMES } from "./tools/names.ts";

/**
 * The arguments turn's constraint for a small model: every JSON object the tool's schema allows whose values
 * come from the question (numbers, quoted text, word spans, enum values) — or, for <<Finish>>, the tools'
 * results so far. The model still decides which candidate; the constraint only keeps it to well-formed,
 * schema-valid objects built from what the user said. Returns undefined when the turn is not an arguments
 * turn, or when the candidates cannot be listed (then the model writes freely).
 */
const DOC_PREFIX = "Please give the input. Here is the documentation: ";
const BEGIN_SUFFIX = "\nBegin!";
const EDGE = /^["'“”‘’`]+|["'“”‘’`?!.,;:]+$/g;

interface DocParam extends JsonSchema {
  name: string;
}

/** Quoted passages, and runs of up to `maxWords` words (edge punctuation removed). */
export function querySpans(query: string, maxWords = 6): string[] {
  const spans = new Set<string>();
  for (const m of query.matchAll(/"([^"]+)"|“([^”]+)”|'([^']+)'/g)) spans.add((m[1] ?? m[2] ?? m[3])!);
  const words = query.split(/\s+/).filter(Boolean);
  for (let i = 0; i < words.length; i++) {
    for (let j = i + 1; j <= Math.min(words.length, i + maxWords); j++) {
      const span = words.slice(i, j).join(" ").replace(EDGE, "");
      if (span !== "") spans.add(span);
    }
  }
  return [...spans];
}

function quotedSpans(query: string): string[] {
  return [...query.matchAll(/"([^"]+)"|“([^”]+)”/g)].map((m) => (m[1] ?? m[2])!);
}

/** True when `value` occurs in the query as a whole word (not inside a longer word or number). */
function mentions(query: string, value: string): boolean {
  const escaped = value.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
  return new RegExp(`(^|[^\\p{L}\\p{N}])${escaped}($|[^\\p{L}\\p{N}])`, "u").test(query);
}

function valuesFor(param: DocParam, query: string, spans: string[]): unknown[] {
  if (Array.isArray(param.enum)) {
    // The enum values the question names, when it names any (e.g. the two units of a conversion).
    const named = param.enum.filter((v) =>
      [String(v), ...(NAMES[String(v)] ?? [])].some((form) => mentions(query, form)),
    );
    return named.length > 0 ? named : param.enum;
  }
  const type = Array.isArray(param.type) ? param.type[0] : param.type;
  if (type === "number") return numbersIn(query);
  if (type === "integer") return numbersIn(query).filter(Number.isInteger);
  if (type === "boolean") return [true, false];
  // Free text the question quotes is the text argument; otherwise any run of its words.
  const quoted = quotedSpans(query);
  return quoted.length > 0 ? quoted : spans;
}

function product(
  params: DocParam[],
  values: unknown[][],
  limit: number,
): Record<string, unknown>[] | undefined {
  const total = values.reduce((n, v) => n * v.length, 1);
  if (total === 0 || total > limit) return undefined;
  let out: Record<string, unknown>[] = [{}];
  params.forEach((p, i) => {
    out = out.flatMap((partial) => values[i]!.map((v) => ({ ...partial, [p.name]: v })));
  });
  // One piece of the question fills one parameter: drop objects that repeat a value, unless nothing else is left.
  const distinct = out.filter(
    (o) => new Set(Object.values(o).map((v) => JSON.stringify(v))).size === params.length,
  );
  return distinct.length > 0 ? distinct : out;
}

/** The candidate argument objects of a tool documented as `doc` (ToolGen's documentation JSON) for `query`. */
export function argumentCandidates(
  doc: { required?: DocParam[]; optional?: DocParam[] },
  query: string,
  limit = 4000,
): Record<string, unknown>[] | undefined {
  const params = [...(doc.required ?? []), ...(doc.optional ?? [])];
  for (const maxWords of [6, 3, 0]) {
    const spans = maxWords === 0 ? querySpans(query, 1) : querySpans(query, maxWords);
    const found = product(
      params,
      params.map((p) => valuesFor(p, query, spans)),
      limit,
    );
    if (found) return found;
  }
  return undefined;
}

/** The user's question of a ToolGen episode (the turn that ends with "Begin!"). */
export function episodeQuery(messages: readonly Message[]): string | undefined {
  const task = messages.find((m) => m.role === "user" && m.content.endsWith(BEGIN_SUFFIX));
  return task?.content.slice(0, -BEGIN_SUFFIX.length);
}

/** The tools' responses in the episode so far (function turns are {"error", "response"}). */
function responses(messages: readonly Message[]): string[] {
  const out: string[] = [];
  for (const m of messages) {
    if (m.role !== "tool" && !(m.role === "user" && m.content.startsWith('{"error"'))) continue;
    try {
      const value = JSON.parse(m.content) as { error?: string; response?: string };
      if (!value.error && typeof value.response === "string" && value.response !== "")
        out.push(value.response);
    } catch {
      // not a function turn
    }
  }
  return out;
}

export interface ArgumentChoice {
  /** The written options (JSON texts), in the form the model was trained to write them. */
  options: string[];
  /** What the options were built from, for display. */
  source: string;
}

/** The arguments turn's options when the last message asks for an action's input, else undefined. */
export function argumentChoice(messages: readonly Message[]): ArgumentChoice | undefined {
  const last = messages[messages.length - 1];
  if (!last || last.role !== "user" || !last.content.startsWith(DOC_PREFIX)) return undefined;
  let doc: { name?: string; required?: DocParam[]; optional?: DocParam[] };
  try {
    doc = JSON.parse(last.content.slice(DOC_PREFIX.length)) as typeof doc;
  } catch {
    return undefined;
  }
  if (doc.name === "<<Finish>>") {
    const answers = responses(messages);
    if (answers.length === 0) return undefined;
    const options = answers.map((a) => JSON.stringify({ return_type: "give_answer", final_answer: a }));
    return { options: [...new Set(options)], source: `the ${answers.length} tool result(s) so far` };
  }
  const query = episodeQuery(messages);
  if (query === undefined) return undefined;
  const candidates = argumentCandidates(doc, query);
  if (!candidates) return undefined;
  return {
    options: [...new Set(candidates.map((c) => JSON.stringify(c)))],
    source: "the schema and the question's numbers, words and quoted text",
  };
}

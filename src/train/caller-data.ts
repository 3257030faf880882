import type { CatalogEntry } from "../catalog/catalog.ts";
import {
  CALLER_END,
  callerPrompt,
  callerReply,
  DEFAULT_PROMPT_LIMITS,
  type CallerCall,
  type CallerPromptLimits,
} from "../models/caller-prompt.ts";
import type { Sample } from "../nn/train/batches.ts";
import type { Tokenizer } from "../nn/tokenizer/index.ts";
import type { ToolJson } from "../tools/types.ts";
import { ToolgenError } from "../errors.ts";

/** One training example of the function caller: the offered functions, a question, the calls (none: decline). */
export interface CallerExample {
  tools: ToolJson[];
  question: string;
  calls: CallerCall[];
}

/** A labelled item as `toolgen synth` writes it (src/synth: SynthItem): catalog ids for names. */
export interface LabelledItem {
  question: string;
  calls: { name: string; arguments: Record<string, unknown> }[];
  tools: string[];
}

const word = (s: string): string =>
  s
    .replace(/([a-z0-9])([A-Z])/g, "$1_$2")
    .replace(/[^A-Za-z0-9]+/g, "_")
    .replace(/^_+|_+$/g, "")
    .toLowerCase() || "f";

/**
 * The function name a catalog entry is offered under: its id when that is already a function name
 * (`get_weather`), else `tool.api` in snake case (StableToolBench's `tool&&api` ids).
 */
export function functionName(entry: CatalogEntry): string {
  if (/^[A-Za-z_][A-Za-z0-9_.-]*$/.test(entry.id)) return entry.id;
  return entry.api ? `${word(entry.tool)}.${word(entry.api)}` : word(entry.tool);
}

/** A catalog entry as an offered function (the model-facing tool form). */
export function entryToolJson(entry: CatalogEntry): ToolJson {
  return {
    type: "function",
    function: { name: functionName(entry), description: entry.description, parameters: entry.parameters },
  };
}

/**
 * Labelled items over `catalog` as caller examples: ids become function names, the offered tools their
 * documentation. Items naming an id the catalog lacks, or offering two functions under one name, are skipped.
 */
export function callerExamples(
  items: readonly LabelledItem[],
  catalog: readonly CatalogEntry[],
): CallerExample[] {
  const byId = new Map(catalog.map((e) => [e.id, e]));
  const out: CallerExample[] = [];
  for (const item of items) {
    const entries = item.tools.map((id) => byId.get(id));
    if (entries.some((e) => e === undefined)) continue;
    const tools = entries.map((e) => entryToolJson(e!));
    if (new Set(tools.map((t) => t.function.name)).size !== tools.length) continue;
    const named = new Map(entries.map((e, i) => [e!.id, tools[i]!.function.name]));
    if (item.calls.some((c) => !named.has(c.name))) continue;
    out.push({
      tools,
      question: item.question,
      calls: item.calls.map((c) => ({ name: named.get(c.name)!, arguments: c.arguments })),
    });
  }
  return out;
}

/** The texts of an example (prompt, reply), for training the tokenizer. */
export function exampleTexts(e: CallerExample, limits: CallerPromptLimits = DEFAULT_PROMPT_LIMITS): string[] {
  return [callerPrompt(e.tools, e.question, limits), callerReply(e.tools, e.calls)];
}

/**
 * The character ranges of a reply's function names that the decoder writes by itself: from where the name's
 * prefix is no other offered name's prefix to the name's end (the offered-name trie leaves one way on).
 */
export function forcedNameRanges(
  tools: readonly ToolJson[],
  calls: readonly CallerCall[],
): [number, number][] {
  const names = tools.map((t) => t.function.name);
  const reply = callerReply(tools, calls);
  const ranges: [number, number][] = [];
  // callerReply is JSON.stringify of the list: "[" + calls joined by "," + "]", each call starting {"name":"…
  let at = 1;
  for (const call of JSON.parse(reply) as { name: string }[]) {
    const text = JSON.stringify(call);
    const quoted = JSON.stringify(call.name);
    const start = at + '{"name":'.length + 1;
    let unique = 0;
    while (
      unique < call.name.length &&
      names.some((n) => n !== call.name && n.startsWith(call.name.slice(0, unique)))
    )
      unique++;
    // escapes make the quoted name longer than the name: such names are left to the loss
    if (quoted.length === call.name.length + 2 && unique < call.name.length)
      ranges.push([start + unique, start + call.name.length]);
    at += text.length + 1;
  }
  return ranges;
}

/**
 * A training sample: the prompt (not predicted), then the reply and <|end|> (predicted). `skipForcedNames`:
 * a reply token wholly inside a function name's forced part (forcedNameRanges) is not predicted either — the
 * decoder writes it, so the model need not learn to copy it.
 */
export function callerSample(
  tokenizer: Tokenizer,
  e: CallerExample,
  limits: CallerPromptLimits = DEFAULT_PROMPT_LIMITS,
  options: { skipForcedNames?: boolean } = {},
): Sample {
  const prompt = tokenizer.encode(callerPrompt(e.tools, e.question, limits));
  const end = tokenizer.tokenToId(CALLER_END);
  if (end === undefined) throw new ToolgenError("invalid_input", `the tokenizer has no ${CALLER_END} token`);
  const replyText = callerReply(e.tools, e.calls);
  const replyIds = tokenizer.encode(replyText, { special: false });
  const reply = [...replyIds, end];
  const ids = [...prompt, ...reply];
  const lossMask = new Uint8Array(ids.length);
  lossMask.fill(1, prompt.length);
  if (options.skipForcedNames) {
    const texts = replyIds.map((id) => tokenizer.decode([id]));
    // token texts line up with the reply's characters unless a token splits a character (then no skipping)
    if (texts.join("") === replyText) {
      const ranges = forcedNameRanges(e.tools, e.calls);
      let at = 0;
      texts.forEach((t, i) => {
        if (ranges.some(([a, b]) => at >= a && at + t.length <= b)) lossMask[prompt.length + i] = 0;
        at += t.length;
      });
    }
  }
  return { ids, lossMask };
}

/**
 * Declines made from calls: a share of the one-call examples asked again with only other functions of the same
 * catalog offered (1 to 3 of them), and no call as the answer. Synth's own declines are questions no tool
 * answers (small talk); these teach the harder case, a real request that none of the offered functions serves,
 * so the model must read the documentation to decline. (A drawn function may happen to serve the question too:
 * a catalog with near-duplicate tools makes some of these labels wrong.)
 */
export function mismatchedDeclines(
  examples: readonly CallerExample[],
  share: number,
  seed: number,
): CallerExample[] {
  const pool = [...new Map(examples.flatMap((e) => e.tools).map((t) => [t.function.name, t])).values()];
  const out: CallerExample[] = [];
  let state = seed >>> 0 || 1;
  const random = (): number => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
  for (const e of examples) {
    if (e.calls.length !== 1 || random() >= share || pool.length < 4) continue;
    const called = e.calls[0]!.name;
    const count = 1 + Math.floor(random() * 3);
    const tools = new Map<string, ToolJson>();
    while (tools.size < count) {
      const t = pool[Math.floor(random() * pool.length)]!;
      if (t.function.name !== called) tools.set(t.function.name, t);
    }
    out.push({ tools: [...tools.values()], question: e.question, calls: [] });
  }
  return out;
}

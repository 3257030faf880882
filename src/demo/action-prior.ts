import type { ActionDecoder } from "../agents/toolgen.ts";
import { CopySource, numbersIn, quotedSpans } from "../constrain/index.ts";
import type { CatalogEntry } from "../catalog/catalog.ts";
import { Bm25Retriever } from "../retrieval/bm25.ts";
import { WordNaiveBayes } from "../retrieval/naive-bayes.ts";
import type { Retriever } from "../retrieval/retriever.ts";
import type { ToolIndex } from "../toolgen/ids.ts";
import type { ToolGenChatModel } from "./chat-model.ts";

/** What the question's words say of each tool: a score per catalog id, higher for likelier tools. */
export type WordPrior = (question: string) => Promise<Map<string, number>>;

/** BM25 over the tool descriptions, each score divided by the best one (0 to 1; tools without a hit: absent). */
export function bm25Prior(bm25: Retriever): WordPrior {
  return async (question) => {
    const hits = await bm25.search(question, { k: 1000 });
    const best = hits[0]?.score ?? 0;
    return new Map(hits.map((h) => [h.id, best > 0 ? h.score / best : 0]));
  };
}

/** log P(tool | words) of a word Naive Bayes trained on the model's own training questions (a tool each). */
export function naiveBayesPrior(training: readonly { query: string; tool?: string | null }[]): WordPrior {
  const labelled = training.filter((s): s is { query: string; tool: string } => typeof s.tool === "string");
  const nb = new WordNaiveBayes();
  nb.train(
    labelled.map((s) => s.query),
    labelled.map((s) => s.tool),
  );
  return async (question) => nb.logPosterior(question);
}

/**
 * An action decoder that weighs the model's tool choice with the question's words: of the model's `beams`
 * likeliest actions, the tool with the highest log-probability + `weight` × its word prior is taken (a tool the
 * prior does not score gets the lowest score it gives). When the model's likeliest action is <<Finish>>, it
 * stands: the words never turn a decline into a call. The small demo model sometimes takes a tool that a word
 * of the question rules out ("url-encode …" → base64_decode); a word prior alone picks the right first tool
 * less often (docs/demo-model.md).
 */
export function lexicalActionDecoder(o: {
  chat: ToolGenChatModel;
  /** BM25 over the tool descriptions: the words' evidence for `declineWithoutEvidence`. */
  bm25: Retriever;
  /** The weighing term (default: bm25Prior of `bm25`). */
  prior?: WordPrior;
  /** The written form of each action → its catalog id (the Finish token maps to nothing). */
  idOf: (written: string) => string | undefined;
  weight: number;
  beams?: number;
  /**
   * Decline at the first action when the question shares no word with any tool description (BM25 finds
   * nothing) and carries no value a tool could take (a number, in digits or words, or quoted text), even
   * though the model chose a tool: the small model calls a tool for "what rhymes with orange?".
   */
  declineWithoutEvidence?: boolean;
  /**
   * With a prior of log-probabilities (naiveBayesPrior): at the first action, a decline gives way to the
   * prior's tool when the prior gives it at least this probability, the model ranks it among its likeliest and
   * the question holds a value a tool could take ("90 minutes is how many hours" was declined).
   */
  overrideDeclineAt?: number;
  /**
   * With a prior of log-probabilities: after a call that worked, another tool is taken only when the prior
   * gives it at least this probability; else the answer is given (Finish). The demo model was taught one call
   * per question, yet after "compute SHA256 for …" worked it called round_number on the 256 of "SHA256".
   */
  nextCallNeeds?: number;
  /**
   * What the question's values say of each tool: a tool whose required string enums all take a value the
   * question writes out ("3 gallons -> liters": convert_volume) gains this much, one with a required string
   * enum the question gives no value for (convert_mass) loses it; tools without such enums are left as they
   * are. Needs `entryOf`.
   */
  enumWeight?: number;
  /** With enumWeight: the model's likeliest this many actions, of which those past `beams` join only when the
   * question states a value for each of their required enums. */
  evidenceBeams?: number;
  /** The catalog entry of a catalog id (for enumWeight). */
  entryOf?: (id: string) => CatalogEntry | undefined;
}): ActionDecoder {
  const prior = o.prior ?? bm25Prior(o.bm25);
  const cache = new Map<string, Promise<Map<string, number>>>();
  const remembered = (f: WordPrior, key: string, question: string) => {
    const k = `${key}\u0000${question}`;
    let found = cache.get(k);
    if (!found) {
      if (cache.size > 512) cache.clear();
      cache.set(k, (found = f(question)));
    }
    return found;
  };
  const evidence = bm25Prior(o.bm25);
  return async ({ messages, options }) => {
    const beams = o.beams ?? 5;
    const wider = o.enumWeight && o.evidenceBeams ? Math.max(beams, o.evidenceBeams) : beams;
    const all = await o.chat.rankChoice(messages, options, wider);
    // past the model's likeliest `beams`, only tools whose enums the question fills (enumEvidence +1) join
    const asked = messages.find((m) => m.role === "user")?.content ?? "";
    const fills = wider > beams ? new CopySource([asked]) : undefined;
    const ranked = all.filter((r, i) => {
      if (i < beams || !fills) return true;
      const id = o.idOf(r.option);
      const entry = id === undefined ? undefined : o.entryOf?.(id);
      return entry !== undefined && enumEvidence(entry, fills) === 1;
    });
    const top = ranked[0];
    const question = messages.find((m) => m.role === "user")?.content ?? "";
    const first = !messages.some((m) => m.role === "tool");
    if (top && o.idOf(top.option) === undefined && o.overrideDeclineAt !== undefined && first) {
      const words = await remembered(prior, "prior", question);
      const sure = ranked.find((r) => {
        const id = o.idOf(r.option);
        return id !== undefined && Math.exp(words.get(id) ?? -Infinity) >= o.overrideDeclineAt!;
      });
      if (sure && carriesValue(question)) return sure.option;
    }
    if (!top || o.idOf(top.option) === undefined) return top?.option ?? options[options.length - 1]!;
    if (o.nextCallNeeds !== undefined && lastCallWorked(messages)) {
      const finish = options.find((option) => o.idOf(option) === undefined);
      const words = await remembered(prior, "prior", question);
      const wanted = ranked.filter((r) => {
        const id = o.idOf(r.option);
        return id !== undefined && Math.exp(words.get(id) ?? -Infinity) >= o.nextCallNeeds!;
      });
      if (wanted.length === 0 && finish !== undefined) return finish;
    }
    if (o.declineWithoutEvidence && first) {
      const finish = options.find((option) => o.idOf(option) === undefined);
      if (
        finish !== undefined &&
        (await remembered(evidence, "bm25", question)).size === 0 &&
        !carriesValue(question)
      )
        return finish;
    }
    const words = await remembered(prior, "prior", question);
    const floor = words.size > 0 ? Math.min(0, ...words.values()) : 0;
    let best = top;
    let bestScore = -Infinity;
    const stated = o.enumWeight ? new CopySource([question]) : undefined;
    for (const r of ranked) {
      const id = o.idOf(r.option);
      if (id === undefined) continue;
      const entry = stated ? o.entryOf?.(id) : undefined;
      const values = entry && stated ? o.enumWeight! * enumEvidence(entry, stated) : 0;
      const score = r.logProb + o.weight * (words.get(id) ?? floor) + values;
      if (score > bestScore) [best, bestScore] = [r, score];
    }
    return best.option;
  };
}

/**
 * +1 when each required string enum of the tool's parameters has a value `question` writes out (as many
 * different values as enums), -1 when not, 0 for a tool without required string enums.
 */
export function enumEvidence(entry: CatalogEntry, question: CopySource): number {
  const required = new Set(entry.parameters.required ?? []);
  const enums = Object.entries(entry.parameters.properties).flatMap(([key, schema]) =>
    required.has(key) && Array.isArray(schema.enum) && schema.enum.every((v) => typeof v === "string")
      ? [schema.enum as string[]]
      : [],
  );
  if (enums.length === 0) return 0;
  // each enum its own value: "days in april 2026" states one unit, not a conversion's two
  const said = enums.map((values) => values.filter((v) => question.states(v)));
  const distinct = new Set(said.flat().map((v) => v.toLowerCase()));
  return said.every((values) => values.length > 0) && distinct.size >= enums.length ? 1 : -1;
}

/** Did the conversation's last tool result report no error (the agent's {"error", "response"} turn)? */
function lastCallWorked(messages: readonly { role: string; content?: string | null }[]): boolean {
  const last = messages.findLast((m) => m.role === "tool");
  if (!last || typeof last.content !== "string") return false;
  try {
    const turn = JSON.parse(last.content) as { error?: unknown };
    return turn.error === "";
  } catch {
    return false;
  }
}

/** A number (digits or words) or a quoted text: something a tool could take as an argument. */
function carriesValue(question: string): boolean {
  return numbersIn(question).length > 0 || quotedSpans(question).length > 0;
}

/** The word priors the demo can weigh its tool choice with. */
export const WORD_PRIORS = ["naive-bayes", "bm25"] as const;
export type WordPriorKind = (typeof WORD_PRIORS)[number];

/** The demo's word prior and its weight (docs/demo-model.md: chosen on the dev questions). */
export const DEMO_WORD_PRIOR: WordPriorKind = "naive-bayes";
export const DEMO_PRIOR_WEIGHTS: Record<WordPriorKind, number> = { bm25: 2, "naive-bayes": 1 };

/** The Naive Bayes probability at which the demo's first decline gives way to a tool (undefined: never). */
export const DEMO_OVERRIDE_DECLINE_AT: number | undefined = 0.75;

/**
 * The Naive Bayes probability a tool needs to be called after a call that worked (lexicalActionDecoder's
 * nextCallNeeds; undefined: any tool the model takes).
 */
export const DEMO_NEXT_CALL_NEEDS: number | undefined = 0.01;

/** How much the question's enum values weigh a tool (lexicalActionDecoder's enumWeight; 0: not at all). */
export const DEMO_ENUM_WEIGHT = 4;

/**
 * How many of the model's likeliest actions the enum evidence may reach: past the 5, a tool joins only when the
 * question states a value for each of its required enums ("3 gallons -> liters": convert_volume).
 */
export const DEMO_EVIDENCE_BEAMS = 20;

/** Whether the demo declines questions without lexical evidence (lexicalActionDecoder's declineWithoutEvidence). */
export const DEMO_DECLINE_WITHOUT_EVIDENCE = true;

export interface DemoActionOptions {
  prior?: WordPriorKind;
  /** Default: DEMO_PRIOR_WEIGHTS of the prior. */
  weight?: number;
  declineWithoutEvidence?: boolean;
  /** lexicalActionDecoder's overrideDeclineAt, with the Naive Bayes prior (default DEMO_OVERRIDE_DECLINE_AT). */
  overrideDeclineAt?: number;
  /** lexicalActionDecoder's evidenceBeams. */
  evidenceBeams?: number;
  /** lexicalActionDecoder's enumWeight (default DEMO_ENUM_WEIGHT). */
  enumWeight?: number;
  /** lexicalActionDecoder's nextCallNeeds, with the Naive Bayes prior (default DEMO_NEXT_CALL_NEEDS). */
  nextCallNeeds?: number;
  /** The model's training questions (demoData().train): what the Naive Bayes prior learns from. */
  training?: readonly { query: string; tool?: string | null }[];
}

/** The demo's action decoder for an opened demo model (BM25 over the demo catalog), and how it says so. */
export function demoActionDecoder(
  opened: { chat: ToolGenChatModel; index: ToolIndex },
  catalog: readonly CatalogEntry[],
  options: DemoActionOptions = {},
): { decode: ActionDecoder; how: string } {
  const kind = options.prior ?? DEMO_WORD_PRIOR;
  const weight = options.weight ?? DEMO_PRIOR_WEIGHTS[kind];
  const declineWithoutEvidence = options.declineWithoutEvidence ?? DEMO_DECLINE_WITHOUT_EVIDENCE;
  const overrideAt = "overrideDeclineAt" in options ? options.overrideDeclineAt : DEMO_OVERRIDE_DECLINE_AT;
  const nextCallNeeds = "nextCallNeeds" in options ? options.nextCallNeeds : DEMO_NEXT_CALL_NEEDS;
  const enumWeight = options.enumWeight ?? DEMO_ENUM_WEIGHT;
  const evidenceBeams = options.evidenceBeams ?? DEMO_EVIDENCE_BEAMS;
  const entries = new Map(catalog.map((e) => [e.id, e]));
  if (kind === "naive-bayes" && !options.training)
    throw new Error("the Naive Bayes word prior needs the model's training questions");
  const idOfText = new Map(Object.entries(opened.index.texts).map(([id, text]) => [text, id]));
  const bm25 = new Bm25Retriever(catalog);
  const decode = lexicalActionDecoder({
    chat: opened.chat,
    bm25,
    prior: kind === "naive-bayes" ? naiveBayesPrior(options.training!) : bm25Prior(bm25),
    idOf: (t) => idOfText.get(t),
    weight,
    declineWithoutEvidence,
    ...(kind === "naive-bayes" && overrideAt !== undefined ? { overrideDeclineAt: overrideAt } : {}),
    ...(kind === "naive-bayes" && nextCallNeeds !== undefined ? { nextCallNeeds } : {}),
    ...(enumWeight ? { enumWeight, entryOf: (id: string) => entries.get(id) } : {}),
    ...(enumWeight && evidenceBeams ? { evidenceBeams } : {}),
  });
  const over = kind === "naive-bayes" ? overrideAt : undefined;
  const next = kind === "naive-bayes" ? nextCallNeeds : undefined;
  const how = `the model's token: its 5 likeliest tools weighed by the question's words (${kind === "bm25" ? "BM25" : "Naive Bayes"} × ${weight})${over !== undefined ? `, a decline overridden at Naive Bayes ≥ ${over}` : ""}${declineWithoutEvidence ? ", declined without lexical evidence" : ""}${enumWeight ? `, ± ${enumWeight} by the enum values it states (from the model's ${evidenceBeams} likeliest)` : ""}${next !== undefined ? `, a second call only at Naive Bayes ≥ ${next}` : ""}`;
  return { decode, how };
}

/** What decides the action, in words (the demo's action lines and its "Model:" line). */
export function actionDecodingWords(
  kind: WordPriorKind = DEMO_WORD_PRIOR,
  weight = DEMO_PRIOR_WEIGHTS[kind],
  declineWithoutEvidence = DEMO_DECLINE_WITHOUT_EVIDENCE,
  overrideDeclineAt = kind === "naive-bayes" ? DEMO_OVERRIDE_DECLINE_AT : undefined,
  nextCallNeeds = kind === "naive-bayes" ? DEMO_NEXT_CALL_NEEDS : undefined,
  enumWeight = DEMO_ENUM_WEIGHT,
  evidenceBeams = DEMO_EVIDENCE_BEAMS,
): string {
  const prior =
    kind === "bm25"
      ? `BM25 over the tool descriptions × ${weight}`
      : `a word Naive Bayes over its training questions, log-probability × ${weight}`;
  const stands =
    overrideDeclineAt === undefined
      ? "a decline stands"
      : `a first decline stands unless the Naive Bayes gives one of those tools ≥ ${overrideDeclineAt} and the question holds a number or quoted text`;
  const gate = declineWithoutEvidence
    ? "; declined at once when no word of the question is in a tool description and it holds no number or quoted text"
    : "";
  const next =
    nextCallNeeds === undefined
      ? ""
      : `; after a call that worked, another tool only at Naive Bayes ≥ ${nextCallNeeds}, else the answer`;
  const values = enumWeight
    ? ` and its values (± ${enumWeight} as it states a value for each required enum or not; a tool among the model's ${evidenceBeams} likeliest joins when it does)`
    : "";
  return `the model's token among the tool tokens and <<Finish>>: its 5 likeliest tools weighed by the question's words (${prior})${values}; ${stands}${gate}${next}`;
}

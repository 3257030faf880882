/**
 * Trains the factored function caller (src/models/caller-factored.ts) on labelled questions (caller examples
 * from `toolgen synth`): word rarity and list joiners counted on the training questions, the argument scorer
 * (a softmax per parameter over its candidates and "leave it out", on one-call questions whose gold values are
 * among the candidates), then the per-function call model (a logistic: is this offered function called?), then
 * the call threshold and the parallel ratio chosen on a held-out share of the same synth questions (never BFCL).
 */
import type { FactoredModelFile } from "../models/caller-factored.ts";
import { FAMILIES, type Candidate } from "../models/factored/candidates.ts";
import {
  argumentsOf,
  assignLearned,
  blockOf,
  callProbability,
  MORE_DIM,
  MORE_FLOOR,
  moreFeatures,
  placesOf,
  NULL_BLOCK,
  scoreFunctions,
  scoreParams,
  spanOwners,
  type FactoredWeights,
  type ScoredParam,
} from "../models/factored/decide.ts";
import {
  FUNCTION_DIM,
  functionView,
  type FunctionView,
  NULL_DIM,
  nullFeatures,
  PAIR_DIM,
  pairFeatures,
  questionView,
  ROLE_FEATURES,
} from "../models/factored/features.ts";
import { trainLogistic, trainSoftmax, type SoftmaxGroup } from "../models/factored/linear.ts";
import { residualGrid, trainResidual, type ResidualChoice } from "./residual-train.ts";
import { learnRoleWords, type RoleWordOptions } from "./role-words.ts";
import type { RoleWordTable } from "../models/factored/role-words.ts";
import { nameWords, stemOf, tokenize } from "../models/factored/text.ts";
import { Rng } from "../nn/rng.ts";
import type { JsonSchema, ToolJson } from "../tools/types.ts";
import type { CallerExample } from "./caller-data.ts";

export interface FactoredTrainOptions {
  seed?: number;
  /** Most one-call questions the argument scorer trains on (default 8000). */
  argumentExamples?: number;
  /** Most questions the call model trains on (default 6000). */
  functionExamples?: number;
  /** Most wrong candidates kept per parameter (default 40). */
  negatives?: number;
  epochs?: number;
  /** Share of the argument scorer's questions added again without name cues (default 0.5). */
  cueDropShare?: number;
  /** Share of the argument scorer's questions added again with names after values (default 0.3). */
  nameAfterShare?: number;
  /** Share of the argument scorer's questions added again with string values as identifiers (default 0). */
  identifierShare?: number;
  /** Share of the argument scorer's questions added again with a fraction written as a percent (default 0.2). */
  percentShare?: number;
  /** Share of the argument scorer's questions added again with true flags said by name alone (default 1). */
  flagShare?: number;
  /** Word rarity counted on questions without their values (default true; withoutValues). */
  statsWithoutValues?: boolean;
  /** Word rarity counted on parameter descriptions too (default true). */
  statsFromParameters?: boolean;
  /**
   * Questions people wrote (no calls, no values marked), counted into word rarity beside the synth questions:
   * synth's templates leave every word outside them rare, and a rare word reads as a value ("feet", "week").
   */
  statsQuestions?: readonly string[];
  /** Train the "more" model on same-function multi-call questions again without name cues too (default false). */
  moreCueDrop?: boolean;
  /**
   * The "more" model also learns from questions that call several functions, each function's rows read in its
   * own segment of the question as decoding reads them (spanOwners; default false: one-function questions only).
   */
  moreSeveral?: boolean;
  /** Train the "more" model on questions the argument scorer was not trained on (default false). */
  unseenRows?: boolean;
  /** The call model too (default false). */
  unseenCallRows?: boolean;
  /** The call threshold, when given, instead of the one chosen on the held-out synth questions. */
  callThreshold?: number;
  /** Every k-th example is held out to choose the thresholds (default 10). */
  devEvery?: number;
  /**
   * Pair features (features.ts pairFeatures indices) the argument scorer is not given: zero in training, so their
   * weights stay 0 and decoding ignores them. For features that tell where synth puts values (its questions
   * rarely go on after the last value) more than where people put them. Default none.
   */
  dropPairFeatures?: readonly number[];
  /**
   * The argument scorer trained this many times (epoch orders from different seeds) and its weights averaged:
   * a linear score whose weights move less with the order it met the questions in (default 1).
   */
  argumentBags?: number;
  /**
   * Pair features learnt in a second pass over the argument scorer's groups (default none): the first pass trains
   * without them (as dropPairFeatures), the second starts from its weights and lets only these learn, so features
   * added later (name-shapes.ts, boundary-words.ts) learn what the others leave unexplained instead of moving every
   * weight (a retraining's churn costs as many items as the features win).
   */
  secondPassFeatures?: readonly number[];
  /**
   * Share of the argument scorer's questions added again with one-word string values made two words
   * (multiWordValues; default 0): synth draws mostly one-word values, people name places and things in several.
   */
  multiWordShare?: number;
  /**
   * Train with another parameter's name near a span read as a cue only when that parameter is of the span's
   * family (features.ts otherNames), as decoding reads it (default false: training reads every other parameter's
   * name, decoding only its family's; chosen on BFCL dev, DEVELOPMENT_PROBES: trained on, figures fell).
   */
  kinNames?: boolean;
  /**
   * Further argument-scorer groups built with the word rarity and joiners counted here (default none): pseudo-labelled
   * real questions (pseudo-labels.ts, `--pseudo-labels` of scripts/build-factored-caller.ts; a probe).
   */
  extraArgumentGroups?: (
    stats: ReadonlyMap<string, number>,
    joiners: ReadonlySet<string>,
    rng: Rng,
    roleWords: RoleWordTable | undefined,
  ) => SoftmaxGroup[];
  /**
   * Questions people wrote (written-questions.ts), each as often as it should count: the "more" and call models
   * learn from them beside the synth questions (the argument scorer through extraArgumentGroups, written-groups.ts).
   * Never in the held-out synth tenth that chooses the thresholds. Default none.
   */
  writtenExamples?: readonly CallerExample[];
  /** Which of the two learn from writtenExamples (default both; a probe). */
  writtenFor?: { more: boolean; calls: boolean };
  /** Written questions counted into word rarity beside the synth ones, their values cut out (default none). */
  writtenStats?: readonly CallerExample[];
  /**
   * Learn a residual (src/models/factored/residual.ts) over the frozen argument scorer (default none): "grid" chooses
   * its hidden size, L2 and epochs on a held-out tenth of the synth groups (residualGrid), then trains on all groups.
   */
  residual?: "grid" | { hidden: number; l2: number; epochs: number };
  /**
   * Learn a role-word table (src/train/role-words.ts) from the synth training questions and `written` (each
   * counted `writtenWeight` times), store it in the weights and give the argument scorer x[49], x[50]
   * (role-words.ts); the synth ones `synthWeight` times (0: none). Default none: both stay 0 and the model file is as
   * before.
   */
  /**
   * Argument-scorer groups that only the second pass reads (secondPassFeatures): people's questions teach the
   * later features' weights while every other weight stays the first pass's, learnt on synth alone (default none).
   */
  secondPassGroups?: (
    stats: ReadonlyMap<string, number>,
    joiners: ReadonlySet<string>,
    rng: Rng,
  ) => SoftmaxGroup[];
  roleWords?: RoleWordOptions & {
    written?: readonly CallerExample[];
    writtenWeight?: number;
    synthWeight?: number;
  };
}

const norm = (v: unknown): unknown => {
  if (typeof v === "string") return v.trim().toLowerCase().replace(/\s+/g, " ");
  if (Array.isArray(v)) return v.map(norm);
  if (v !== null && typeof v === "object")
    return Object.fromEntries(
      Object.entries(v)
        .sort(([a], [b]) => a.localeCompare(b))
        .map(([k, x]) => [k, norm(x)]),
    );
  return v;
};

/** Do two argument values agree (strings without case or extra spaces, numbers by value, lists item by item)? */
export function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(norm(a)) === JSON.stringify(norm(b));
}

/** A reply's calls as one comparable key (order of calls and of keys ignored). */
export function callsKey(calls: readonly { name: string; arguments: Record<string, unknown> }[]): string {
  return JSON.stringify(calls.map((c) => JSON.stringify([c.name, norm(c.arguments)])).sort());
}

/** How common each stem is: log(1 + questions holding it) / log(1 + questions); stems in fewer than 2 left out. */
export function wordStats(questions: readonly string[]): Map<string, number> {
  const df = new Map<string, number>();
  for (const q of questions)
    for (const s of new Set(tokenize(q).map((t) => t.stem))) if (s !== "") df.set(s, (df.get(s) ?? 0) + 1);
  const out = new Map<string, number>();
  const z = Math.log(1 + questions.length);
  for (const [s, n] of df) if (n >= 2) out.set(s, Math.round((Math.log(1 + n) / z) * 1000) / 1000);
  return out;
}

/**
 * The question with its calls' values cut out: word rarity then tells the words written around values (which
 * a value seldom is) from the rest; counted with the values in, a real value the catalogs give often ("New
 * York") reads as common and a made-up one as rare, and the scorer learns to take rare words.
 */
export function withoutValues(e: CallerExample): string {
  let q = e.question;
  const texts = e.calls
    .flatMap((c) => Object.values(c.arguments))
    .flatMap((v) => (Array.isArray(v) ? v : [v]))
    .filter((v) => typeof v === "string" || typeof v === "number")
    .map(String)
    .filter((t) => t !== "")
    .sort((a, b) => b.length - a.length);
  for (const t of texts) {
    const i = q.toLowerCase().indexOf(t.toLowerCase());
    if (i >= 0) q = `${q.slice(0, i)} ${q.slice(i + t.length)}`;
  }
  return q;
}

/** A function's description, and with `parameters` each parameter's description (the words documentation uses). */
function documentation(t: ToolJson, parameters: boolean): string[] {
  const out = [t.function.description ?? ""];
  if (!parameters) return out;
  const props =
    ((t.function.parameters ?? {}) as { properties?: Record<string, JsonSchema> }).properties ?? {};
  for (const p of Object.values(props)) if (typeof p?.description === "string") out.push(p.description);
  return out;
}

/** Words found between the items of list values in the questions (at least `minShare` of the lists). */
export function learnJoiners(examples: readonly CallerExample[], minShare = 0.02): string[] {
  const counts = new Map<string, number>();
  let found = 0;
  for (const e of examples) {
    const lower = e.question.toLowerCase();
    const across: Record<string, unknown[]> = {};
    if (e.calls.length > 1 && e.calls.every((c) => c.name === e.calls[0]!.name))
      for (const c of e.calls) for (const [k, v] of Object.entries(c.arguments)) (across[k] ??= []).push(v);
    const lists = [
      ...e.calls.flatMap((c) => Object.values(c.arguments)),
      ...Object.values(across).filter((vs) => new Set(vs.map((v) => JSON.stringify(v))).size === vs.length),
    ];
    for (const v of lists) {
      if (
        !Array.isArray(v) ||
        v.length < 2 ||
        !v.every((x) => typeof x === "string" || typeof x === "number")
      )
        continue;
      let at = 0;
      const spots: [number, number][] = [];
      for (const item of v) {
        const i = lower.indexOf(String(item).toLowerCase(), at);
        if (i < 0) break;
        spots.push([i, i + String(item).length]);
        at = i + String(item).length;
      }
      if (spots.length !== v.length) continue;
      found++;
      const seen = new Set<string>();
      for (let k = 1; k < spots.length; k++) {
        const gap = tokenize(e.question.slice(spots[k - 1]![1], spots[k]![0]));
        if (gap.length > 3) continue; // joined items sit close
        for (const t of gap) if (t.kind === "word") seen.add(t.lower);
      }
      for (const w of seen) counts.set(w, (counts.get(w) ?? 0) + 1);
    }
  }
  return [...counts]
    .filter(([, n]) => n >= Math.max(3, minShare * found))
    .map(([w]) => w)
    .sort();
}

/**
 * The question without the words of its function's parameter names (outside the values): synth questions
 * put a value after its parameter's name ("city Paris"), which people seldom do; without that cue the scorer
 * learns what else tells a value (its place, rarity, capitals, quotes, the description's words).
 */
export function withoutNameCues(e: CallerExample): CallerExample {
  const call = e.calls[0];
  const tool = call && e.tools.find((t) => t.function.name === call.name);
  if (!call || !tool) return e;
  const props = Object.keys(((tool.function.parameters ?? {}) as { properties?: object }).properties ?? {});
  const stems = new Set(props.flatMap((p) => nameWords(p).map(stemOf)));
  const protect: [number, number][] = [];
  const lower = e.question.toLowerCase();
  for (const v of e.calls.flatMap((c) => Object.values(c.arguments)))
    for (const item of Array.isArray(v) ? v : [v]) {
      if (typeof item !== "string" && typeof item !== "number") continue;
      const i = lower.indexOf(String(item).toLowerCase());
      if (i >= 0) protect.push([i, i + String(item).length]);
    }
  let out = "";
  let at = 0;
  for (const t of tokenize(e.question)) {
    if (t.kind !== "word" || !stems.has(t.stem) || protect.some(([a, b]) => t.start < b && a < t.end))
      continue;
    out += e.question.slice(at, t.start);
    at = t.end;
    while (at < e.question.length && e.question[at] === " ") at++;
  }
  out += e.question.slice(at);
  return { ...e, question: out.trim() };
}

const escape = (t: string) => t.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * The question with each "<parameter name words> <value>" turned into "<value> <parameter name words>": synth
 * writes a parameter's name before its value, people write it on either side ("180 hits and 600 at-bats").
 */
export function nameAfterValue(e: CallerExample): CallerExample {
  const call = e.calls[0];
  if (!call) return e;
  let q = e.question;
  for (const [name, v] of Object.entries(call.arguments)) {
    if (typeof v !== "string" && typeof v !== "number") continue;
    const words = nameWords(name).join(" ");
    const pattern = new RegExp(
      `\\b${escape(words).replace(/ /g, "[\\s_-]+")}\\s*[:=]?\\s*(${escape(String(v))})(?![\\p{L}\\p{N}])`,
      "iu",
    );
    q = q.replace(pattern, (_, value: string) => `${value} ${words}`);
  }
  return q === e.question ? e : { ...e, question: q };
}

/**
 * The question with each one-word string value (letters only, said once) made two words: the value and `other`,
 * written in the value's case ("Dastar" → "Dastar Nalul"), in the question and in the call.
 */
export function multiWordValues(e: CallerExample, others: readonly string[], seed: number): CallerExample {
  const call = e.calls[0];
  if (!call || others.length === 0) return e;
  let q = e.question;
  const args: Record<string, unknown> = { ...call.arguments };
  let n = seed;
  for (const [name, v] of Object.entries(call.arguments)) {
    if (typeof v !== "string" || !/^\p{L}+$/u.test(v)) continue;
    const at = [...q.matchAll(new RegExp(`(?<![\\p{L}\\p{N}])${v}(?![\\p{L}\\p{N}])`, "gu"))];
    if (at.length !== 1) continue;
    let w = others[n++ % others.length]!;
    if (w.toLowerCase() === v.toLowerCase()) continue;
    w = /^\p{Lu}/u.test(v) ? w[0]!.toUpperCase() + w.slice(1) : w.toLowerCase();
    const i = at[0]!.index;
    q = q.slice(0, i) + `${v} ${w}` + q.slice(i + v.length);
    args[name] = `${v} ${w}`;
  }
  return q === e.question ? e : { ...e, question: q, calls: [{ ...call, arguments: args }] };
}

/**
 * The question with its string values written as code identifiers ("drasin toke" → `drasinToke`, every other one
 * in backticks), in the question and in the call: synth's made-up values are words, while calls into code take
 * variable names.
 */
export function identifierValues(e: CallerExample, seed: number): CallerExample {
  const call = e.calls[0];
  if (!call) return e;
  let q = e.question;
  const args: Record<string, unknown> = { ...call.arguments };
  let n = seed;
  for (const [name, v] of Object.entries(call.arguments)) {
    if (typeof v !== "string" || !/^[\p{L}][\p{L}\p{N} ]*$/u.test(v)) continue;
    const i = q.indexOf(v);
    if (i < 0) continue;
    const words = v.split(" ");
    const id = words
      .map((w, k) => (k === 0 ? w[0]!.toLowerCase() + w.slice(1) : w[0]!.toUpperCase() + w.slice(1)))
      .join("");
    const written = n++ % 2 === 0 ? `\`${id}\`` : id;
    q = q.slice(0, i) + written + q.slice(i + v.length);
    args[name] = id;
  }
  return q === e.question ? e : { ...e, question: q, calls: [{ ...call, arguments: args }] };
}

/**
 * The question with one value of a parameter of type number written as a percent ("5%") and its call holding
 * the fraction (0.05): synth draws numbers of 0.5 and more, while rates and shares are asked for as percents.
 */
export function percentValues(e: CallerExample, seed: number): CallerExample {
  const call = e.calls[0];
  const tool = call && e.tools.find((t) => t.function.name === call.name);
  const props = ((tool?.function.parameters ?? {}) as { properties?: Record<string, JsonSchema> }).properties;
  if (!call || !props) return e;
  for (const [name, v] of Object.entries(call.arguments)) {
    const type = props[name]?.type;
    if (typeof v !== "number" || (Array.isArray(type) ? !type.includes("number") : type !== "number"))
      continue;
    const at = new RegExp(`(?<![\\d.,])${escape(String(v))}(?![\\d%]|[.,]\\d)`).exec(e.question);
    if (!at) continue;
    const whole = 1 + (seed % 40);
    const pct = seed % 5 === 0 ? whole + 0.5 : whole;
    const question = e.question.slice(0, at.index) + `${pct}%` + e.question.slice(at.index + at[0].length);
    const args = { ...call.arguments, [name]: Number((pct / 100).toPrecision(12)) };
    return { ...e, question, calls: [{ ...call, arguments: args }] };
  }
  return e;
}

/**
 * The question with each true boolean said by its parameter's name alone ("… with overwrite true" → "… with
 * overwrite"): synth writes the literal, people ask for a flag by naming it ("include the owners").
 */
export function mentionedBooleans(e: CallerExample): CallerExample {
  const call = e.calls[0];
  if (!call) return e;
  let q = e.question;
  for (const [name, v] of Object.entries(call.arguments)) {
    if (v !== true) continue;
    const words = escape(nameWords(name).join(" ")).replace(/ /g, "[\\s_-]+");
    if (words === "" || !new RegExp(`\\b${words}\\b`, "iu").test(q)) continue;
    // the literal as synth writes it (JSON's), quoted or not; a question that says the flag otherwise is left
    q = q.replace(new RegExp(`\\s*["'\u201c]?\\b${String(v)}\\b["'\u201d]?`, "i"), "");
  }
  return q === e.question ? e : { ...e, question: q };
}

/** Zeroes features `indices` of every pair item (not the null's) for a first pass; `restore` puts them back. */
export function holdFeatures(
  groups: readonly SoftmaxGroup[],
  indices: readonly number[],
): { restore: () => void } {
  const kept: { x: Float32Array; i: number; v: number }[] = [];
  for (const g of groups)
    for (const it of g.items) {
      if (it.block === NULL_BLOCK) continue;
      for (const i of indices)
        if (it.x[i] !== 0) {
          kept.push({ x: it.x, i, v: it.x[i]! });
          it.x[i] = 0;
        }
    }
  return { restore: () => kept.forEach((k) => (k.x[k.i] = k.v)) };
}

function argumentGroups(
  examples: readonly CallerExample[],
  stats: Map<string, number>,
  joiners: Set<string>,
  negatives: number,
  rng: Rng,
  drop: readonly number[] = [],
  kin = false,
  roleWords?: RoleWordTable,
): SoftmaxGroup[] {
  const masked = (x: Float32Array): Float32Array => {
    for (const i of drop) x[i] = 0;
    return x;
  };
  const groups: SoftmaxGroup[] = [];
  for (const e of examples) {
    if (e.calls.length !== 1) continue;
    const call = e.calls[0]!;
    const tool = e.tools.find((t) => t.function.name === call.name);
    if (!tool) continue;
    const f = functionView(tool, { ...questionView(e.question, joiners, true, true, kin), roleWords }, stats);
    for (const p of f.params) {
      const gold = call.arguments[p.name];
      const matches =
        gold === undefined ? [] : p.candidates.flatMap((c, i) => (sameValue(c.value, gold) ? [i] : []));
      if (gold !== undefined && matches.length === 0) continue;
      const others = p.candidates.map((_, i) => i).filter((i) => !matches.includes(i));
      for (let i = others.length - 1; i > 0; i--) {
        const j = rng.int(i + 1);
        [others[i], others[j]] = [others[j]!, others[i]!];
      }
      const keep = [...matches, ...others.slice(0, negatives)];
      const items = keep.map((i) => ({
        block: blockOf(p.candidates[i]!),
        x: masked(pairFeatures(f, p, p.candidates[i]!)),
      }));
      items.push({ block: NULL_BLOCK, x: nullFeatures(f, p) });
      groups.push({ items, gold: gold === undefined ? [items.length - 1] : matches.map((_, k) => k) });
    }
  }
  return groups;
}

/**
 * One-call questions whose call holds a list of plain values, turned into questions that call a function once
 * per item: the list parameter made a plain one ("prices for AAPL, MSFT and GOOG" with `symbols: [...]` becomes
 * three calls with `symbol`). Values joined in a question are then learnt as values of several calls.
 */
export function listsAsCalls(examples: readonly CallerExample[]): CallerExample[] {
  const out: CallerExample[] = [];
  for (const e of examples) {
    if (e.calls.length !== 1) continue;
    const call = e.calls[0]!;
    const tool = e.tools.find((t) => t.function.name === call.name);
    const schema = tool?.function.parameters as { properties?: Record<string, JsonSchema> } | undefined;
    if (!tool || !schema?.properties) continue;
    const entry = Object.entries(call.arguments).find(
      ([k, v]) =>
        Array.isArray(v) &&
        v.length >= 2 &&
        v.every((x) => typeof x === "string" || typeof x === "number") &&
        !Array.isArray(schema.properties![k]?.items) &&
        typeof schema.properties![k]?.items === "object",
    );
    if (!entry) continue;
    const [key, items] = entry as [string, unknown[]];
    const itemSchema = schema.properties[key]!.items as JsonSchema;
    const plain: ToolJson = {
      ...tool,
      function: {
        ...tool.function,
        parameters: {
          ...schema,
          properties: {
            ...schema.properties,
            [key]: { ...itemSchema, description: schema.properties[key]!.description },
          },
        } as ToolJson["function"]["parameters"],
      },
    };
    out.push({
      tools: e.tools.map((t) => (t === tool ? plain : t)),
      question: e.question,
      calls: items.map((item) => ({ name: call.name, arguments: { ...call.arguments, [key]: item } })),
    });
  }
  return out;
}

/**
 * Rows of the "more" model: on questions that call one function (once or several times), each candidate
 * beside a parameter's first value (when that one is right) is a further value (1) when the calls hold it too.
 */
function moreExamples(
  examples: readonly CallerExample[],
  w: FactoredWeights,
  stats: Map<string, number>,
  joiners: Set<string>,
  kin = false,
  severalTools = false,
): { x: Float32Array; y: number }[] {
  const rows: { x: Float32Array; y: number }[] = [];
  for (const e of examples) {
    const names = [...new Set(e.calls.map((c) => c.name))];
    if (names.length === 0 || (names.length > 1 && !severalTools)) continue;
    const tools = names.map((n) => e.tools.find((t) => t.function.name === n));
    if (tools.some((t) => t === undefined)) continue;
    const view = { ...questionView(e.question, joiners, true, true, kin), roleWords: w.roleWords };
    const scored = tools.map((tool) => {
      const f = functionView(tool!, view, stats);
      return { view: f, params: scoreParams(f, w.argument, w.residual), features: new Float32Array(0) };
    });
    // several tools called: each reads its own segment of the question, as decoding does (spanOwners)
    const owner = scored.length > 1 ? spanOwners(scored) : undefined;
    scored.forEach((s, i) => {
      const allowed = (c: Candidate) => owner === undefined || c.start < 0 || owner[c.start] === i;
      const calls = e.calls.filter((c) => c.name === names[i]);
      rows.push(...moreRowsOf(s.view, s.params, calls, allowed));
    });
  }
  return rows;
}

/** moreExamples' rows for one called function (its gold `calls`), its values taken among `allowed` candidates. */
function moreRowsOf(
  f: FunctionView,
  params: ScoredParam[],
  calls: readonly { arguments: Record<string, unknown> }[],
  allowed: (c: Candidate) => boolean,
): { x: Float32Array; y: number }[] {
  const rows: { x: Float32Array; y: number }[] = [];
  const picked = assignLearned(f, params, undefined, allowed);
  // where each value stands: its whole token range, or an enum member's written name (placesOf)
  const where = (c: Candidate): [number, number][] => (c.start >= 0 ? [[c.start, c.end]] : placesOf(f, c));
  const taken = picked.flatMap((pk) => pk.values.flatMap(where));
  for (const pk of picked) {
    const c0 = pk.values[0]!;
    // an enum member counts where its name is written (placesOf), as decoding reads it
    if (placesOf(f, c0).length === 0) continue;
    const golds = calls.map((c) => c.arguments[pk.param.info.name]).filter((v) => v !== undefined);
    if (!golds.some((g) => sameValue(g, c0.value))) continue;
    pk.param.probs.forEach((pr, i) => {
      const c = pk.param.info.candidates[i]!;
      if (pr < MORE_FLOOR || c === c0 || !allowed(c)) return;
      const at = where(c);
      if (at.length === 0 || taken.some((t) => at.some((r) => t[0] < r[1] && r[0] < t[1]))) return;
      if (JSON.stringify(c.value) === JSON.stringify(c0.value)) return;
      const y = golds.some((g) => sameValue(g, c.value)) && !sameValue(c.value, c0.value) ? 1 : 0;
      rows.push({ x: moreFeatures(f, params, pk.param, [c0], c), y });
    });
  }
  return rows;
}

/** Exact-match share on examples: declines, one-call and multi-call questions weighted alike. */
function balancedExact(results: readonly { calls: number; right: boolean }[]): number {
  const groups = [0, 1, 2].map((g) => results.filter((r) => Math.min(2, r.calls) === g));
  const shares = groups.filter((g) => g.length > 0).map((g) => g.filter((r) => r.right).length / g.length);
  return shares.reduce((a, b) => a + b, 0) / Math.max(1, shares.length);
}

export function trainFactored(
  all: readonly CallerExample[],
  o: FactoredTrainOptions = {},
): FactoredModelFile {
  const seed = o.seed ?? 1;
  const rng = new Rng(seed);
  const devEvery = o.devEvery ?? 10;
  const train = all.filter((_, i) => i % devEvery !== 0);
  const dev = all.filter((_, i) => i % devEvery === 0);
  const shuffled = [...train];
  for (let i = shuffled.length - 1; i > 0; i--) {
    const j = rng.int(i + 1);
    [shuffled[i], shuffled[j]] = [shuffled[j]!, shuffled[i]!];
  }
  // rarity over the questions and the offered functions' descriptions (words every description uses are not values)
  const descriptions = [
    ...new Set(train.flatMap((e) => e.tools.flatMap((t) => documentation(t, o.statsFromParameters ?? true)))),
  ];
  const questions = [...train, ...(o.writtenStats ?? [])].map((e) =>
    (o.statsWithoutValues ?? true) ? withoutValues(e) : e.question,
  );
  const stats = wordStats([...questions, ...descriptions, ...(o.statsQuestions ?? [])]);
  const joiners = new Set(learnJoiners(train));
  const started = Date.now();
  const oneCall = shuffled.filter((e) => e.calls.length === 1).slice(0, o.argumentExamples ?? 8000);
  // half of them again without their parameter-name cues (withoutNameCues)
  const cueShare = o.cueDropShare ?? 0.5;
  const plain = [...oneCall];
  oneCall.push(...plain.filter((_, i) => i % 100 < cueShare * 100).map(withoutNameCues));
  // and a share with string values as code identifiers (identifierValues)
  for (const [i, e] of plain.entries()) {
    if (i % 100 >= (o.identifierShare ?? 0) * 100) continue;
    const coded = identifierValues(e, i);
    if (coded !== e) oneCall.push(coded);
  }
  // and a share with each parameter's name after its value (nameAfterValue)
  for (const [i, e] of plain.entries()) {
    if (i % 100 < 100 - (o.nameAfterShare ?? 0.3) * 100) continue;
    const moved = nameAfterValue(e);
    if (moved !== e) oneCall.push(moved);
  }
  // and a share with one-word string values made two words (multiWordValues), the second word another
  // question's one-word value
  const words = plain.flatMap((e) =>
    Object.values(e.calls[0]!.arguments).filter(
      (v): v is string => typeof v === "string" && /^\p{L}{3,}$/u.test(v),
    ),
  );
  for (const [i, e] of plain.entries()) {
    if ((i + 20) % 100 >= (o.multiWordShare ?? 0) * 100) continue;
    const two = multiWordValues(e, words, i);
    if (two !== e) oneCall.push(two);
  }
  // and a share with true flags said by name alone (mentionedBooleans)
  for (const [i, e] of plain.entries()) {
    if ((i + 30) % 100 >= (o.flagShare ?? 1) * 100) continue;
    const flags = mentionedBooleans(e);
    if (flags !== e) oneCall.push(flags);
  }
  // and a share with a number written as a percent (percentValues)
  for (const [i, e] of plain.entries()) {
    if ((i + 50) % 100 >= (o.percentShare ?? 0.2) * 100) continue; // its own band: [50, 70) of each 100
    const pct = percentValues(e, i);
    if (pct !== e) oneCall.push(pct);
  }
  const kin = o.kinNames ?? false;
  // the value rules of 2026-12-06 (h38h: leftover numbers and names, digit texts, named runs, required first, order
  // swaps, empty names) came after the ratio grid's choice: it decodes without them, so a rebuild keeps its ratio
  const view = {
    kinNames: kin,
    leftoverNumbers: false as const,
    leftoverNames: false as const,
    digitTexts: false,
    namedRuns: false,
    orderSwaps: false as const,
    emptyNames: false as const,
    commaNames: false,
    numberScales: false as const,
    plainLists: false,
    scatteredNumbers: true,
  };
  // the role words from the synth training questions (never the held-out tenth) and the written ones given
  const roleWords = o.roleWords
    ? learnRoleWords(
        [
          { examples: (o.roleWords.synthWeight ?? 1) > 0 ? train : [], weight: o.roleWords.synthWeight ?? 1 },
          { examples: o.roleWords.written ?? [], weight: o.roleWords.writtenWeight ?? 1 },
        ],
        o.roleWords,
      )
    : undefined;
  const groups = argumentGroups(
    oneCall,
    stats,
    joiners,
    o.negatives ?? 40,
    rng,
    o.dropPairFeatures,
    kin,
    roleWords,
  );
  const extra = o.extraArgumentGroups?.(stats, joiners, rng, roleWords) ?? [];
  groups.push(...extra);
  const dims = [...FAMILIES.map(() => PAIR_DIM), NULL_DIM];
  const later = o.secondPassFeatures ?? [];
  const held = later.length > 0 ? holdFeatures(groups, later) : undefined;
  let arg = trainSoftmax(groups, dims, { epochs: o.epochs ?? 4, lr: 0.1, l2: 1e-5, seed });
  const secondOnly = held ? (o.secondPassGroups?.(stats, joiners, rng) ?? []) : [];
  if (held) {
    held.restore();
    arg = trainSoftmax([...groups, ...secondOnly], dims, {
      epochs: o.epochs ?? 4,
      lr: 0.1,
      l2: 1e-5,
      seed,
      init: arg.weights,
      learn: new Set(later),
    });
  }
  const bags = o.argumentBags ?? 1;
  for (let b = 1; b < bags; b++) {
    const more = trainSoftmax(groups, dims, {
      epochs: o.epochs ?? 4,
      lr: 0.1,
      l2: 1e-5,
      seed: seed + 1000 * b,
    });
    arg.weights = arg.weights.map((block, i) => block.map((v, d) => v + more.weights[i]![d]!));
  }
  if (bags > 1)
    arg.weights = arg.weights.map((block) => block.map((v) => Math.round((v / bags) * 1e5) / 1e5));
  // without role words x[49], x[50] never learn: the file keeps the width it had before them
  if (!roleWords)
    arg.weights = arg.weights.map((block, b) =>
      b === NULL_BLOCK ? block : block.slice(0, ROLE_FEATURES[0]),
    );
  const weights: FactoredWeights = {
    argument: arg.weights,
    function: new Array(FUNCTION_DIM).fill(0),
    callThreshold: 0.5,
    more: new Array(MORE_DIM).fill(0),
    moreThreshold: 0.5,
    maxCalls: 6,
    ...(roleWords ? { roleWords } : {}),
  };
  // the residual learns after the linear scorer, its weights frozen, on the same groups (residual-train.ts)
  let residualChoice: ResidualChoice | undefined;
  let residualLoss: number | undefined;
  if (o.residual !== undefined) {
    const fixed = o.residual === "grid" ? undefined : o.residual;
    residualChoice = fixed
      ? undefined
      : residualGrid(groups, arg.weights, NULL_BLOCK, seed, [8, 16, 32], [1e-5, 1e-4, 1e-3], 4);
    const c = fixed ?? residualChoice!;
    const fit = trainResidual(groups, arg.weights, NULL_BLOCK, {
      hidden: c.hidden,
      l2: c.l2,
      epochs: c.epochs,
      seed,
    });
    weights.residual = fit.residual;
    residualLoss = Math.round(fit.loss * 1e4) / 1e4;
  }
  // same-function multi-call questions again without name cues: a further value is then told by how it is
  // written beside the first (joined, the same frame), as people write several values, not by its name
  const sameCalls = (e: CallerExample) =>
    e.calls.length > 1 && e.calls.every((c) => c.name === e.calls[0]!.name);
  const moreCueDrop = (o.moreCueDrop ?? false) ? shuffled.filter(sameCalls).map(withoutNameCues) : [];
  // the "more" and call models read the argument scorer's chances: trained on questions the scorer did not see,
  // they meet chances as spread out as on new questions, not the scorer's sure answers on its own data
  const seen = new Set(plain);
  const rowSource = o.unseenRows ? shuffled.filter((e) => !seen.has(e)) : shuffled;
  const moreRows = moreExamples(
    [
      ...rowSource.slice(0, o.functionExamples ?? 6000),
      ...listsAsCalls(train),
      ...moreCueDrop,
      ...((o.writtenFor?.more ?? true) ? (o.writtenExamples ?? []) : []),
    ],
    weights,
    stats,
    joiners,
    kin,
    o.moreSeveral ?? false,
  );
  const moreFit = trainLogistic(moreRows, MORE_DIM, { epochs: o.epochs ?? 4, lr: 0.1, l2: 1e-5, seed });
  weights.more = moreFit.weights;
  const rows: { x: Float32Array; y: number }[] = [];
  const callSource = (o.unseenCallRows ? rowSource : shuffled).slice(0, o.functionExamples ?? 6000);
  for (const e of [...callSource, ...((o.writtenFor?.calls ?? true) ? (o.writtenExamples ?? []) : [])]) {
    const called = new Set(e.calls.map((c) => c.name));
    for (const s of scoreFunctions(e.tools, e.question, weights, stats, joiners, view))
      rows.push({ x: s.features, y: called.has(s.view.tool.function.name) ? 1 : 0 });
  }
  const fn = trainLogistic(rows, FUNCTION_DIM, { epochs: o.epochs ?? 4, lr: 0.1, l2: 1e-5, seed });
  weights.function = fn.weights;
  // thresholds on the held-out synth questions
  const scoredDev = [...dev, ...listsAsCalls(dev)].map((e) => {
    const scored = scoreFunctions(e.tools, e.question, weights, stats, joiners, view);
    return { e, scored, p: scored.map((s) => callProbability(s, weights)) };
  });
  const ratios = [0.3, 0.5, 0.7, 0.8, 0.9, 0.95, 2];
  const thresholds = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8];
  if (o.callThreshold !== undefined && !thresholds.includes(o.callThreshold))
    thresholds.push(o.callThreshold);
  const grid: { threshold: number; ratio: number; score: number }[] = [];
  // the ratio is chosen with the decoding it was first chosen with: number groups and quoted joins, decoding rules
  // added later on BFCL dev (2026-12-06, h38f), moved a near tie on synth dev (seed 1: 0.8 64.54 against 0.9 64.43)
  // and with it every BFCL figure they were measured with; the rebuilt model keeps the ratio those were measured at
  const ratioDecoding = { numberGroups: 0, quotedJoins: false };
  const argsByRatio = ratios.map((ratio) =>
    scoredDev.map((d) =>
      d.scored.map((s) => argumentsOf(s, { ...weights, moreThreshold: ratio }, ratioDecoding)),
    ),
  );
  for (const [ri, ratio] of ratios.entries())
    for (const threshold of thresholds) {
      const results = scoredDev.map((d, k) => {
        const calls = d.scored.flatMap((_, i) => (d.p[i]! >= threshold ? argsByRatio[ri]![k]![i]! : []));
        return { calls: d.e.calls.length, right: callsKey(calls) === callsKey(d.e.calls) };
      });
      grid.push({ threshold, ratio, score: Math.round(balancedExact(results) * 10000) / 100 });
    }
  const fixed = o.callThreshold;
  const best = grid
    .filter((g) => fixed === undefined || g.threshold === fixed)
    .reduce((a, b) => (b.score > a.score ? b : a), { threshold: fixed ?? 0, ratio: 0.9, score: -1 });
  weights.callThreshold = best.threshold;
  weights.moreThreshold = best.ratio;
  return {
    kind: "factored",
    version: 1,
    weights,
    words: Object.fromEntries([...stats].sort(([a], [b]) => a.localeCompare(b))),
    joiners: [...joiners],
    training: {
      examples: all.length,
      train: train.length,
      dev: dev.length,
      argumentGroups: groups.length,
      ...(extra.length > 0 ? { extraArgumentGroups: extra.length } : {}),
      ...(secondOnly.length > 0 ? { secondPassGroups: secondOnly.length } : {}),
      ...(o.writtenExamples?.length ? { writtenExamples: o.writtenExamples.length } : {}),
      ...(roleWords
        ? {
            roleWords: {
              before: Object.keys(roleWords.before).length,
              after: Object.keys(roleWords.after).length,
            },
          }
        : {}),
      argumentLoss: Math.round(arg.loss * 1e4) / 1e4,
      ...(residualLoss !== undefined ? { residualLoss } : {}),
      ...(residualChoice ? { residualGrid: residualChoice } : {}),
      moreRows: moreRows.length,
      morePositives: moreRows.filter((r) => r.y === 1).length,
      listsAsCalls: listsAsCalls(train).length,
      moreLoss: Math.round(moreFit.loss * 1e4) / 1e4,
      functionRows: rows.length,
      functionLoss: Math.round(fn.loss * 1e4) / 1e4,
      devGrid: grid,
      chosen: best,
      seconds: Math.round((Date.now() - started) / 1000),
    },
  };
}

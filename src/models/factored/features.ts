/**
 * Tool-agnostic features of the factored caller: (parameter, candidate value) pairs, "leave it out" for a
 * parameter, and (function, question) pairs. They read the schema (types, required, enum, default), the words of
 * names and descriptions compared to the question's words by stem, where a candidate sits and how common its
 * words are in questions (a statistic learnt from training questions, `WordStats`), never particular words.
 */
import type { JsonSchema, ToolJson } from "../../tools/types.ts";
import { candidatesFor, gluedRuns, paramKind, percentAfter, quotedSpans, unwrapQuoted, type Candidate, type ParamKind, type QuestionView } from "./candidates.ts";
import { afterAbbreviation, listedExamples } from "./abbreviations.ts";
import { looseNameCover } from "./loose-names.ts";
import { negatedMention } from "./negations.ts";
import { saysPercent } from "./percent-words.ts";
import { otherNameBefore } from "./preceding-names.ts";
import { roleContext, roleScore } from "./role-words.ts";
import { nameWords, stemOf, textStems, tokenize } from "./text.ts";

/** How common each word stem is in questions, 0 (never seen) to 1 (in every question). */
export type WordStats = ReadonlyMap<string, number>;

export interface ParamInfo {
  name: string;
  schema: JsonSchema;
  kind: ParamKind;
  required: boolean;
  hasDefault: boolean;
  nameStems: Set<string>;
  descStems: Set<string>;
  /** Stems of the words the description writes as values would be: capitalised inside a sentence, or quoted. */
  exampleStems: Set<string>;
  /** Position among the function's parameters of the same family, 0..1 (0.5 when alone). */
  order: number;
  candidates: Candidate[];
}

export interface FunctionView {
  tool: ToolJson;
  view: QuestionView;
  params: ParamInfo[];
  toolStems: Set<string>;
  /** The stems of every parameter's name and description. */
  docStems: Set<string>;
  stats: WordStats;
}

const familyOf = (k: ParamKind): string =>
  k.type === "boolean" ? "bool" : k.enumValues && k.type !== "array" ? "enum" : k.type === "integer" || k.type === "number" ? "number" : k.type === "array" ? "list" : "span";

export function questionView(
  question: string,
  joiners: ReadonlySet<string>,
  fractions = true,
  glued = true,
  kinNames = true,
  dotted = true,
  unwrap = true,
): QuestionView {
  // a message wrapped whole in quote marks is read without them (unwrapQuoted; false: the ablation)
  if (unwrap) question = unwrapQuoted(question);
  const tokens = tokenize(question, dotted);
  const view: QuestionView = { question, tokens, quoted: quotedSpans(question, tokens), joiners, fractions, glued, kinNames };
  view.runs = gluedRuns(view);
  return view;
}

const CODE_NAME = /\p{Ll}\p{Lu}/u;

/**
 * Stems of a description's capitalised (not sentence-initial) words and of its quoted texts; with `typeNames`, not
 * of its unquoted code identifiers.
 */
function exampleStems(description: string, typeNames = true, abbreviations: boolean | "lists" = false): Set<string> {
  const out = new Set<string>();
  // a code identifier with a capital inside ("StringBuilder", "LogEvent") names a type or an API the parameter is
  // of, not a value it takes: "the StringBuilder `logBuilder`" asks for logBuilder (quoted, it still counts);
  // with `abbreviations`, a capitalised word after "e.g." counts too (abbreviations.ts)
  const tokens = tokenize(description);
  tokens.forEach((t, i) => {
    const capital = t.capital || (abbreviations !== false && afterAbbreviation(tokens, i));
    if (capital && t.stem !== "" && !(typeNames && CODE_NAME.test(t.text))) out.add(t.stem);
  });
  if (abbreviations === "lists") for (const t of listedExamples(tokens)) if (t.stem !== "") out.add(t.stem);
  for (const m of description.matchAll(/['"`“‘]([^'"`”’\n]{1,40})['"`”’]/gu)) for (const s of textStems(m[1]!)) out.add(s);
  return out;
}

export function functionView(tool: ToolJson, view: QuestionView, stats: WordStats): FunctionView {
  const schema = (tool.function.parameters ?? {}) as JsonSchema & { properties?: Record<string, JsonSchema>; required?: string[] };
  const props = schema.properties ?? {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const names = Object.keys(props);
  const fam = names.map((n) => familyOf(paramKind(props[n])));
  const params = names.map((name, i): ParamInfo => {
    const s = props[name] ?? {};
    const kind = paramKind(s);
    const same = fam.map((f, j) => (f === fam[i] ? j : -1)).filter((j) => j >= 0);
    const at = same.indexOf(i);
    return {
      name,
      schema: s,
      kind,
      required: required.has(name),
      hasDefault: "default" in s,
      nameStems: new Set(nameWords(name).map(stemOf)),
      descStems: new Set(textStems(typeof s.description === "string" ? s.description : "")),
      exampleStems: exampleStems(typeof s.description === "string" ? s.description : "", view.typeNames !== false, view.abbreviations ?? false),
      order: same.length < 2 ? 0.5 : at / (same.length - 1),
      // "5%" is no fraction for a parameter whose description says it takes a percentage (percent-words.ts)
      candidates: candidatesFor(view, kind).filter((c) => !c.fraction || !saysPercent(String(s.description ?? ""), view.percentWords)),
    };
  });
  const toolStems = new Set([
    ...nameWords(tool.function.name).map(stemOf),
    ...textStems(tool.function.description ?? ""),
  ]);
  const docStems = new Set(params.flatMap((p) => [...p.nameStems, ...p.descStems]));
  return { tool, view, params, toolStems, docStems, stats };
}

export const PAIR_DIM = 51;
/** The pair features that read the learnt role words (role-words.ts): the word before a span, the word after. */
export const ROLE_FEATURES = [49, 50] as const;
export const NULL_DIM = 10;
export const FUNCTION_DIM = 14;

const DECAY = [1, 0.6, 0.35];
const rarity = (stats: WordStats, stem: string): number => 1 - (stats.get(stem) ?? 0);

/** Strongest match of `stems` among the 3 tokens before (dir -1) or after (dir +1) a range, decayed by distance. */
export function windowMatch(f: FunctionView, stems: Set<string>, from: number, dir: 1 | -1, idf: boolean): number {
  let best = 0;
  const t = f.view.tokens;
  // a symbol written onto the value ("$3000", "5%", "'Paris'") is how the value is written, not a word between it
  // and its name: the window starts past it
  if (f.view.symbols !== false)
    while (from >= 0 && from < t.length && t[from]!.kind === "punct" && glued(t, Math.min(from, from - dir), Math.max(from, from - dir)))
      from += dir;
  for (let d = 0, i = from; d < 3 && i >= 0 && i < t.length; d++, i += dir) {
    const s = t[i]!.stem;
    if (s !== "" && stems.has(s)) best = Math.max(best, DECAY[d]! * (idf ? rarity(f.stats, s) : 1));
  }
  return best;
}

/** 1/(1+distance) to the nearest token outside [s, e) whose stem is in `stems`; 0 if none. */
function nearest(f: FunctionView, stems: Set<string>, s: number, e: number): number {
  let best = 0;
  f.view.tokens.forEach((t, i) => {
    if ((i >= s && i < e) || !stems.has(t.stem) || t.stem === "") return;
    const d = i < s ? s - i : i - e + 1;
    best = Math.max(best, 1 / d);
  });
  return best;
}

/**
 * The name words of the other parameters that could take a value like this one's (the same family: "humidity" of
 * a flag include_humidity is no cue for the place after it, "child" of a count is none for a name); every other
 * parameter's with `kinNames` off.
 */
function otherNames(f: FunctionView, p: ParamInfo): Set<string> {
  const out = new Set<string>();
  const fam = familyOf(p.kind);
  for (const q of f.params) {
    if (q === p || (f.view.kinNames !== false && familyOf(q.kind) !== fam)) continue;
    for (const s of q.nameStems) if (!p.nameStems.has(s)) out.add(s);
  }
  return out;
}

/** The name stems of `p` and of each other parameter of its family that no other of them has (preceding-names.ts). */
function exclusiveNames(f: FunctionView, p: ParamInfo): { own: Set<string>; others: Set<string>[] } {
  const fam = familyOf(p.kind);
  const kin = f.params.filter((q) => familyOf(q.kind) === fam);
  const only = (q: ParamInfo) => new Set([...q.nameStems].filter((s) => kin.every((r) => r === q || !r.nameStems.has(s))));
  return { own: only(p), others: kin.filter((q) => q !== p).map(only) };
}

/** Stems of the other parameters' descriptions that are not in this parameter's name or description. */
function otherDescriptions(f: FunctionView, p: ParamInfo): Set<string> {
  const out = new Set<string>();
  for (const q of f.params)
    if (q !== p) for (const s of q.descStems) if (!p.descStems.has(s) && !p.nameStems.has(s)) out.add(s);
  return out;
}

const norm = (s: string) => s.toLowerCase().replace(/[_\-\s]+/g, " ").trim();

/** Where each maximal run of capitalised words starts. */
function capitalRuns(f: FunctionView): number[] {
  const t = f.view.tokens;
  return t.flatMap((k, i) => (k.capital && !t[i - 1]?.capital ? [i] : []));
}

/** The place of the number at token `i` among the question's numbers, 0..1 (0.5 when it is the only one). */
function numberRank(f: FunctionView, i: number): number {
  const at = f.view.tokens.map((t, k) => (t.kind === "number" ? k : -1)).filter((k) => k >= 0);
  return at.length < 2 ? 0.5 : at.indexOf(i) / (at.length - 1);
}

/** Are tokens i and j (= i + 1) both there and written with no space between them? */
const glued = (t: readonly { start: number; end: number }[], i: number, j: number): boolean =>
  i >= 0 && j < t.length && t[i]!.end === t[j]!.start;

/** Features of value `c` for parameter `p` (one weight vector per candidate family reads them). */
export function pairFeatures(f: FunctionView, p: ParamInfo, c: Candidate): Float32Array {
  const x = new Float32Array(PAIR_DIM);
  const t = f.view.tokens;
  const n = Math.max(1, t.length);
  x[0] = 1;
  x[1] = p.required ? 1 : 0;
  if (c.start >= 0) {
    const others = otherNames(f, p);
    x[2] = windowMatch(f, p.nameStems, c.start - 1, -1, false);
    x[3] = windowMatch(f, p.nameStems, c.end, 1, false);
    x[4] = windowMatch(f, p.descStems, c.start - 1, -1, true);
    x[5] = windowMatch(f, p.descStems, c.end, 1, true);
    x[6] = nearest(f, p.nameStems, c.start, c.end);
    x[7] = nearest(f, p.descStems, c.start, c.end);
    x[8] = nearest(f, others, c.start, c.end);
    x[9] = windowMatch(f, others, c.start - 1, -1, false);
    const inside = t.slice(c.start, c.end).filter((k) => k.kind !== "punct");
    const len = Math.max(1, inside.length);
    // written words: a run without spaces ("2022-04-27") is one
    let words = 1;
    for (let i = c.start + 1; i < c.end; i++) if (!glued(t, i - 1, i)) words++;
    x[10] = inside.filter((k) => p.nameStems.has(k.stem)).length / len;
    x[11] = inside.filter((k) => f.toolStems.has(k.stem)).length / len;
    x[12] = words === 1 ? 1 : 0;
    x[13] = words === 2 ? 1 : 0;
    x[14] = words >= 3 ? words / 6 : 0;
    x[15] = c.quoted ? 1 : 0;
    x[16] = inside.filter((k) => k.capital).length / len;
    x[17] = inside.some((k) => /[_/\\]|[a-z][A-Z]|\.\w/.test(k.text)) ? 1 : 0;
    const common = inside.map((k) => f.stats.get(k.stem) ?? 0);
    x[18] = common.reduce((a, b) => a + b, 0) / len;
    x[19] = common[0] ?? 0;
    x[20] = common[common.length - 1] ?? 0;
    x[21] = inside.filter((k) => k.kind === "number").length / len;
    const before = t[c.start - 1];
    const after = t[c.end];
    // a quote mark that opens (closes) a quoted text next to the span is that text's, no boundary of the span:
    // "a reference named 'X'" does not end at "named" (quoteBounds false: it does, as before 2026-12-06)
    const quoteMark = (i: number, side: "open" | "close") =>
      f.view.quoteBounds === false ? false : f.view.quoted.some((q) => (side === "open" ? q.start - 1 : q.end) === i);
    x[22] = !before || (before.kind === "punct" && !quoteMark(c.start - 1, "close")) ? 1 : 0;
    x[23] = !after || (after.kind === "punct" && !quoteMark(c.end, "open")) ? 1 : 0;
    x[24] = 1 - Math.abs(p.order - c.start / n);
    x[25] = c.family === "number" ? 1 - Math.abs(p.order - numberRank(f, c.start)) : c.start / n;
  }
  if (c.family === "number") {
    const v = c.value as number;
    x[26] = v < 0 ? 1 : 0;
    x[27] = Math.min(1, Math.log10(1 + Math.abs(v)) / 6);
    x[28] = Number.isInteger(v) ? 1 : 0;
  }
  if (c.family === "enum") {
    const v = norm(String(c.value));
    const q = norm(f.view.question);
    x[26] = v !== "" && q.includes(v) ? 1 : 0;
    const stems = nameWords(String(c.value)).map(stemOf);
    const qs = new Set(t.map((k) => k.stem));
    x[27] = stems.length === 0 ? 0 : stems.filter((s) => qs.has(s)).length / stems.length;
    x[28] = p.kind.enumValues?.[0] === c.value ? 1 : 0;
    x[29] = "default" in p.schema && p.schema.default === c.value ? 1 : 0;
  }
  if (c.family === "list" && c.members) memberFeatures(f, p, c, x);
  if (c.family === "bool") {
    const lit = String(c.value);
    const opp = String(!c.value);
    x[26] = c.value ? 1 : 0;
    x[27] = t.some((k) => k.lower === lit) ? 1 : 0;
    x[28] = t.some((k) => k.lower === opp) ? 1 : 0;
    const qs = new Set(t.map((k) => k.stem));
    const cover = nameCover(f, p, qs);
    // a name written beside a negating word ("not inlined") is said for false (a language policy: negations.ts)
    const negated = f.view.negations !== undefined && cover > 0 && negatedMention(t, nameWords(p.name), p.nameStems, f.view.negations, f.view.joiners);
    x[29] = c.value !== negated ? cover : 0;
    x[30] = "default" in p.schema && p.schema.default === c.value ? 1 : 0;
  }
  if (c.family === "list" && !c.members) {
    // a literal's items share one range (candidates.ts literals): count its values
    const k = Array.isArray(c.value) ? c.value.length : (c.items?.length ?? 1);
    x[26] = k === 1 ? 1 : 0;
    x[27] = Math.min(1, k / 5);
    x[28] = c.items && c.items.length > 1 && c.start === 0 && c.end === t.length ? 1 : 0;
  }
  x[31] = p.kind.type === "any" ? 1 : 0;
  x[32] = p.kind.type === "string" && c.family === "span" && c.start >= 0 && t[c.start]!.kind === "number" ? 1 : 0;
  x[33] = p.hasDefault ? 1 : 0;
  if (c.start >= 0) {
    const inside = t.slice(c.start, c.end).filter((k) => k.kind !== "punct");
    const len = Math.max(1, inside.length);
    x[34] = inside.filter((k) => f.docStems.has(k.stem)).length / len;
    const cap = (i: number) => t[i]?.capital === true || (t[i]?.kind === "number" && t[i - 1]?.capital === true);
    const allCap = inside.length > 0 && t.slice(c.start, c.end).every((_, k) => cap(c.start + k));
    x[35] = allCap && !cap(c.start - 1) && !cap(c.end) ? 1 : 0;
    x[36] = (cap(c.start) && cap(c.start - 1)) || (cap(c.end - 1) && cap(c.end)) ? 1 : 0;
    if (x[35] === 1) {
      const runs = capitalRuns(f);
      x[37] = 1 - Math.abs(p.order - (runs.length < 2 ? 0.5 : runs.indexOf(c.start) / (runs.length - 1)));
    }
    x[38] = Math.max(0, ...inside.map((k) => f.stats.get(k.stem) ?? 0));
    x[39] = t[c.start - 1]?.kind === "number" ? 1 : 0;
    // another parameter's name words inside the span: that parameter's cue, not this one's value
    const others = otherNames(f, p);
    x[40] = inside.filter((k) => others.has(k.stem)).length / len;
    // part of a quoted text, not all of it: a quoted value is quoted whole
    x[41] = !c.quoted && f.view.quoted.some((q) => q.start <= c.start && c.end <= q.end && (q.start < c.start || c.end < q.end)) ? 1 : 0;
  }
  if (c.family === "number") {
    x[42] = c.fraction ? 1 : 0;
    x[43] = !c.fraction && percentAfter(f.view, c.start) ? 1 : 0;
  }
  if (c.start >= 0 && c.family === "span") {
    // the span's words among the values this parameter's description names (capitalised or quoted: "such as
    // Boston", "'x'"), or only among another parameter's; and another parameter's description words around it.
    // Text values only: read for numbers too, they cost numbers' cases on BFCL dev (DEVELOPMENT_PROBES)
    const inside = t.slice(c.start, c.end).filter((k) => k.kind === "word" && k.stem !== "");
    const len = Math.max(1, inside.length);
    const theirs = new Set<string>();
    for (const q of f.params) if (q !== p) for (const s of q.exampleStems) if (!p.exampleStems.has(s)) theirs.add(s);
    x[44] = inside.filter((k) => p.exampleStems.has(k.stem)).length / len;
    x[45] = inside.filter((k) => theirs.has(k.stem)).length / len;
    const around = otherDescriptions(f, p);
    x[46] = windowMatch(f, around, c.start - 1, -1, true);
    x[47] = windowMatch(f, around, c.end, 1, true);
  }
  // another parameter of the family named nearer before the span than this one (preceding-names.ts)
  if (c.start >= 0 && f.view.precedingNames !== false) {
    const { own, others } = exclusiveNames(f, p);
    x[48] = otherNameBefore(t, own, others, c.start);
  }
  // the learnt role words beside the span: "from" before an origin, "to" before a destination (role-words.ts)
  if (c.start >= 0 && f.view.roleWords !== undefined) {
    x[ROLE_FEATURES[0]] = roleScore(f.view.roleWords.before, p.nameStems, roleContext(t, c.start, c.end, "before"));
    x[ROLE_FEATURES[1]] = roleScore(f.view.roleWords.after, p.nameStems, roleContext(t, c.start, c.end, "after"));
  }
  return x;
}

/**
 * A list of enum members (enum-lists.ts) read as the enum scorer reads one member (decide.ts blockOf gives it the
 * enum weights): x[26] the share of members written whole in the question, x[27] the mean share of their words
 * there, x[29] the schema's default. One member's evidence, not the words around a list of the question's own.
 */
function memberFeatures(f: FunctionView, p: ParamInfo, c: Candidate, x: Float32Array): void {
  const members = c.value as unknown[];
  const q = norm(f.view.question);
  const qs = new Set(f.view.tokens.map((k) => k.stem));
  let whole = 0;
  let words = 0;
  for (const m of members) {
    const v = norm(String(m));
    if (v !== "" && q.includes(v)) whole++;
    const stems = nameWords(String(m)).map(stemOf);
    words += stems.length === 0 ? 0 : stems.filter((s) => qs.has(s)).length / stems.length;
  }
  x[26] = whole / Math.max(1, members.length);
  x[27] = words / Math.max(1, members.length);
  x[28] = 0;
  x[29] = "default" in p.schema && JSON.stringify(p.schema.default) === JSON.stringify(members) ? 1 : 0;
}

/** The share of the parameter's name stems the question writes (by looseNameCover where the view says so). */
const nameCover = (f: FunctionView, p: ParamInfo, qs: ReadonlySet<string>): number =>
  f.view.looseNames === true
    ? looseNameCover(p.name, f.view.tokens)
    : p.nameStems.size === 0
      ? 0
      : [...p.nameStems].filter((s) => qs.has(s)).length / p.nameStems.size;

/** Features of leaving parameter `p` out. */
export function nullFeatures(f: FunctionView, p: ParamInfo): Float32Array {
  const x = new Float32Array(NULL_DIM);
  const qs = new Set(f.view.tokens.map((k) => k.stem));
  x[0] = 1;
  x[1] = p.required ? 1 : 0;
  x[2] = p.hasDefault ? 1 : 0;
  const fam = familyOf(p.kind);
  x[3] = fam === "bool" ? 1 : 0;
  x[4] = fam === "enum" ? 1 : 0;
  x[5] = fam === "number" ? 1 : 0;
  x[6] = fam === "list" ? 1 : 0;
  x[7] = nameCover(f, p, qs);
  x[8] = p.candidates.length === 0 ? 1 : 0;
  x[9] = p.kind.type === "object" ? 1 : 0;
  return x;
}

/**
 * Features of calling `f` for the question: how much of the question its text covers (weighted by rarity) and
 * the other way round, its name's words in the question, how fillable its required parameters are (`fill`:
 * the argument scorer's mean chance that a required parameter gets a value), and the same compared with the
 * best offered function (`best`: its raw features).
 */
export function functionFeatures(f: FunctionView, fill: number, requiredShare: number): Float32Array {
  const x = new Float32Array(FUNCTION_DIM);
  const q = f.view.tokens.filter((k) => k.kind === "word" && k.stem !== "");
  const allStems = new Set(f.toolStems);
  for (const p of f.params) {
    for (const s of p.nameStems) allStems.add(s);
    for (const s of p.descStems) allStems.add(s);
  }
  let w = 0;
  let hit = 0;
  let hitName = 0;
  for (const k of q) {
    const r = rarity(f.stats, k.stem);
    w += r;
    if (allStems.has(k.stem)) hit += r;
    if (f.toolStems.has(k.stem)) hitName += r;
  }
  const nameStems = nameWords(f.tool.function.name).map(stemOf);
  const qs = new Set(q.map((k) => k.stem));
  const descStems = [...new Set(textStems(f.tool.function.description ?? ""))];
  let dw = 0;
  let dh = 0;
  for (const s of descStems) {
    const r = rarity(f.stats, s);
    dw += r;
    if (qs.has(s)) dh += r;
  }
  x[0] = 1;
  x[1] = w === 0 ? 0 : hit / w;
  x[2] = w === 0 ? 0 : hitName / w;
  x[3] = nameStems.length === 0 ? 0 : nameStems.filter((s) => qs.has(s)).length / nameStems.length;
  x[4] = dw === 0 ? 0 : dh / dw;
  x[5] = fill;
  x[6] = requiredShare;
  x[7] = Math.min(1, f.params.filter((p) => p.required).length / 5);
  x[8] = Math.min(1, hit / 4);
  x[9] = Math.min(1, dh / 4);
  return x;
}

/** The question's word tokens a function's documentation covers (index → rarity). */
export function coveredTokens(f: FunctionView): Map<number, number> {
  const all = new Set(f.toolStems);
  for (const s of f.docStems) all.add(s);
  const out = new Map<number, number>();
  f.view.tokens.forEach((k, i) => {
    if (k.kind === "word" && k.stem !== "" && all.has(k.stem)) out.set(i, rarity(f.stats, k.stem));
  });
  return out;
}

/**
 * Adds, to each function's features, their difference from the best offered, whether it is the best, and how
 * much of the question it covers that the best other function does not (a second function called explains
 * another part of the question; a distractor repeats the best one's).
 */
export function relativeFeatures(xs: Float32Array[], covered: readonly Map<number, number>[] = []): Float32Array[] {
  const best1 = Math.max(...xs.map((x) => x[1]!));
  const best4 = Math.max(...xs.map((x) => x[4]!));
  const top = xs.findIndex((x) => x[1] === best1);
  return xs.map((x, i) => {
    const y = Float32Array.from(x);
    // with one function offered there is no rival: both slots stay 0
    y[13] = i === top && xs.length > 1 ? 1 : 0;
    const mine = covered[i];
    if (mine && mine.size > 0 && xs.length > 1) {
      let rival = -1;
      xs.forEach((z, j) => {
        if (j !== i && (rival < 0 || z[1]! > xs[rival]![1]!)) rival = j;
      });
      const theirs = rival >= 0 ? covered[rival]! : new Map<number, number>();
      let all = 0;
      let own = 0;
      for (const [k, r] of mine) {
        all += r;
        if (!theirs.has(k)) own += r;
      }
      y[12] = all === 0 ? 0 : own / all;
    }
    y[10] = x[1]! - best1;
    y[11] = x[4]! - best4;
    return y;
  });
}

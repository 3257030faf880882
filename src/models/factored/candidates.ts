/**
 * The values a question offers a parameter, by the parameter's schema: numbers it states in digits, quoted
 * text, spans of 1 to MAX_SPAN words (a run written without spaces, "2022-04-27", whole and never cut), enum
 * members, true and false, and lists (runs of numbers, quoted texts or capitalised names joined by commas or by
 * a joiner word learnt from training questions). The caller's
 * learned scorer (arguments.ts) chooses among them; nothing here decides.
 */
import type { JsonSchema } from "../../tools/types.ts";
import { memberMentions } from "./enum-lists.ts";
import { numberWordTokens, type NumberWords } from "./number-words.ts";
import { scaleAfter, type NumberScales } from "./number-scales.ts";
import { plainListRuns } from "./plain-lists.ts";
import { numberCommaRanges } from "./number-commas.ts";
import { withoutPossessive } from "./possessives.ts";
import type { RoleWordTable } from "./role-words.ts";
import type { QToken } from "./text.ts";

export const MAX_SPAN = 6;

export type Family = "span" | "number" | "enum" | "bool" | "list";
export const FAMILIES: readonly Family[] = ["span", "number", "enum", "bool", "list"];

export interface Candidate {
  family: Family;
  value: unknown;
  /** Token range [start, end) in the question; enum and bool candidates have none (-1). */
  start: number;
  end: number;
  quoted: boolean;
  /** For lists: each item's token range (two items never overlap another call's). */
  items?: [number, number][];
  /** A list of enum members (enum-lists.ts), not of the question's own words. */
  members?: boolean;
  /** A number written with "%" read as a fraction (5% → 0.05); the scorer learns when that reading is meant. */
  fraction?: boolean;
}

/** What a parameter takes, read from its schema. */
export interface ParamKind {
  type: "string" | "integer" | "number" | "boolean" | "array" | "object" | "any";
  enumValues?: unknown[];
  itemType?: ParamKind["type"];
  /** The description writes a value with a comma inside ("e.g. Boston, MA"): spans may hold one comma. */
  commaJoined?: boolean;
}

/**
 * A description that writes a value joined by a comma between two capitalised words ("Boston, MA", "City,
 * State"): a shape read from the schema's text, no word list. The scorer still chooses among the spans.
 */
const COMMA_VALUE = /\p{Lu}[\p{L}.]*, \p{Lu}/u;

export function paramKind(schema: JsonSchema | undefined): ParamKind {
  const s = (schema ?? {}) as JsonSchema & { items?: JsonSchema; enum?: unknown[] };
  const t0 = Array.isArray(s.type) ? s.type.find((t) => t !== "null") : s.type;
  const enumValues = Array.isArray(s.enum) ? s.enum.filter((v) => v !== null) : undefined;
  const type = (
    ["string", "integer", "number", "boolean", "array", "object"].includes(String(t0)) ? t0 : "any"
  ) as ParamKind["type"];
  const kind: ParamKind = { type };
  if (type === "string" && typeof s.description === "string" && COMMA_VALUE.test(s.description)) kind.commaJoined = true;
  if (enumValues && enumValues.length > 0) kind.enumValues = enumValues;
  if (type === "array") {
    const items = (Array.isArray(s.items) ? s.items[0] : s.items) as JsonSchema | undefined;
    const k = paramKind(items);
    kind.itemType = k.type;
    if (k.enumValues) kind.enumValues = k.enumValues;
  }
  return kind;
}

/** Quoted texts of the question as token ranges (whole tokens between the quote marks) and their raw text. */
export interface Quoted {
  start: number;
  end: number;
  text: string;
}

const OPEN = `"'\`\u201c\u2018`;
const CLOSE_OF: Record<string, string> = { '"': '"', "'": "'", "`": "`", "\u201c": "\u201d", "\u2018": "\u2019" };

/** Where the quote opened at `i` closes (a close mark followed by a letter or digit is an apostrophe); -1: never. */
function closingQuote(question: string, i: number): number {
  const close = CLOSE_OF[question[i]!]!;
  let j = question.indexOf(close, i + 1);
  while (j !== -1 && j + 1 < question.length && /[\p{L}\p{N}]/u.test(question[j + 1]!)) j = question.indexOf(close, j + 1);
  return j;
}

/**
 * The question with the quote marks that wrap all of it blanked (same length, so offsets hold): a message written
 * inside one pair of quote marks quotes the request, not a value, and read as one quoted text it would hide every
 * value inside (the quoted texts and lists within). Unchanged when the first quote closes before the end.
 */
export function unwrapQuoted(question: string): string {
  const i = question.search(/\S/);
  const last = question.trimEnd().length - 1;
  if (i < 0 || last <= i || !OPEN.includes(question[i]!) || closingQuote(question, i) !== last) return question;
  return `${question.slice(0, i)} ${question.slice(i + 1, last)} ${question.slice(last + 1)}`;
}

/** `doubled` false: "'… = 'active''" closes at the first of its two closing marks, as before 2026-12-06. */
export function quotedSpans(question: string, tokens: readonly QToken[], doubled = true): Quoted[] {
  const out: Quoted[] = [];
  for (let i = 0; i < question.length; i++) {
    const q = question[i]!;
    if (!OPEN.includes(q)) continue;
    if (i > 0 && /[\p{L}\p{N}]/u.test(question[i - 1]!)) continue;
    const close = CLOSE_OF[q]!;
    let j = closingQuote(question, i);
    // a quoted text that ends with a quoted text of its own ("'… status = 'active''"): both marks close it
    if (doubled && j !== -1 && question[j + 1] === close && close === q) j++;
    if (j === -1 || j === i + 1) continue;
    const start = tokens.findIndex((t) => t.start > i);
    let end = start;
    while (end < tokens.length && tokens[end]!.end <= j) end++;
    if (start !== -1 && end > start) out.push({ start, end, text: question.slice(i + 1, j) });
    i = j;
  }
  return out;
}

export interface QuestionView {
  question: string;
  tokens: QToken[];
  quoted: Quoted[];
  /** Lower-cased words learnt to join list items (from training questions). */
  joiners: ReadonlySet<string>;
  /** false: "5%" offers only 5 (the ablation of percent fractions). */
  fractions?: boolean;
  /** false: no glued-run spans (the ablation of gluedRuns). */
  glued?: boolean;
  /** false: another parameter's name near a span is a cue whatever that parameter takes (features.ts otherNames). */
  kinNames?: boolean;
  /** false: features.ts x[48] (another parameter's name nearer before a span, preceding-names.ts) stays 0. */
  precedingNames?: boolean;
  /** The learnt role-word table features.ts x[49], x[50] read (role-words.ts); absent: both stay 0. */
  roleWords?: RoleWordTable;
  /** false: an array of enum members takes lists of the question's words, as any array does (enum-lists.ts). */
  enumLists?: boolean;
  /** false: a list parameter is never given one variable's name in place of a list (candidates.ts variables). */
  variables?: boolean;
  /** false: a symbol written onto a value ("$3000") counts as a word between the value and its name (features.ts). */
  symbols?: boolean;
  /** false: a code identifier a parameter's description writes ("StringBuilder") counts among the values it names. */
  typeNames?: boolean;
  /** false: no list read from a bracketed literal of the question (candidates.ts literals). */
  literals?: boolean;
  /** Words linking two capitalised runs into one name, taken whole (name-links.ts); undefined: none. */
  nameLinks?: ReadonlySet<string>;
  /** true: a text parameter's name word binds the span right against it first (name-neighbours.ts). */
  nameNeighbours?: boolean;
  /** true: a named run linked to another capitalised run (nameLinks) is taken whole (named-runs.ts). */
  namedLinks?: boolean;
  /** With one call, a text value that is the second part of "Seattle, Washington" widens to the whole pair (comma-names.ts). */
  commaNames?: boolean;
  /** true: runs of plain lower-case words joined as a list ("tomatoes and lettuce") are list candidates (plain-lists.ts). */
  plainLists?: boolean;
  /** true: a plain list's item between a comma and the next join may be two words ("easy going"; plain-lists.ts). */
  twoWordItems?: boolean;
  /** true: a list of numbers is offered no run of every number the question writes, only joined runs, literals and single numbers. */
  joinedNumbers?: boolean;
  /** An empty optional text parameter takes a plain word at this share of its null (empty-words.ts); undefined: none. */
  emptyWords?: number;
  /** A one-word text value widens to a two-word name at this share of its chance (phrases.ts); undefined: none. */
  phrases?: number;
  /** How much likelier a number is for a parameter whose description writes its unit (units.ts); undefined: no units. */
  units?: number;
  /** Words by which a number parameter's description says it takes a percentage as written (percent-words.ts); undefined: none. */
  percentWords?: ReadonlySet<string>;
  /** A possessive ending a text value is given without (a language policy, possessives.ts); undefined: none. */
  possessives?: RegExp;
  /** true: a description's capitalised word after a dotted abbreviation ("e.g. Seattle") is an example value (abbreviations.ts). */
  abbreviations?: boolean | "lists";
  /** false: no span holds a comma, whatever the description writes (the ablation of commaSpans). */
  commaJoined?: boolean;
  /** false: a code identifier the function's documentation writes may be a value (decide.ts docIdentifiers). */
  docIdentifiers?: boolean;
  /** false: a quote mark next to a span counts as a boundary of it (features.ts x[22], x[23]). */
  quoteBounds?: boolean;
  /** false: a number parameter never takes a named constant (namedConstants). */
  constants?: boolean;
  /** false: a parameter of no declared type may take any span (decide.ts untypedCode). */
  untypedCode?: boolean;
  /** Words that negate a flag named beside them (a language policy, negations.ts); undefined: none. */
  negations?: ReadonlySet<string>;
  /** Numbers written in words, offered to number parameters (a language policy, number-words.ts); undefined: none. */
  numberWords?: NumberWords;
  /** Scale words after a number ("50 million"), offered as the whole number (a language policy, number-scales.ts); undefined: none. */
  numberScales?: NumberScales;
  /** true: a parameter's name counts as written where a word shares its start with a short name word (loose-names.ts). */
  looseNames?: boolean;
  /** false: no "Word N, M" span ("January 1, 2021"; number-commas.ts). */
  numberCommas?: boolean;
  /** A one-word lower-case text value commoner than this takes no chance (decide.ts, common-words.ts); undefined: none. */
  commonWords?: number;
  /** false: an enum member's written words stay free for other parameters' spans (decide.ts assignLearned). */
  enumSpent?: boolean;
  /** true: an enum member stands first where the question writes it letter for letter, capitals too ("Aa" beside "AA"; decide.ts placesOf). */
  exactPlaces?: boolean;
  /** An empty optional number parameter takes an unspent digit number at this share of its null (leftover-numbers.ts). */
  leftoverNumbers?: number;
  /** An unspent capitalised run replaces a text parameter's lower-case value at this share of its chance (leftover-names.ts). */
  leftoverNames?: number;
  /** true: a text parameter takes no lone number where its function has a number parameter (digit-texts.ts). */
  digitTexts?: boolean;
  /** true: a capitalised name holding a text parameter's own name word is taken for it first (named-runs.ts). */
  namedRuns?: boolean;
  /** Two text values are exchanged where the schema's order, this much likelier, says so (order-swaps.ts). */
  orderSwaps?: number;
  /** An empty optional text parameter takes an unspent capitalised run at this share of its null (leftover-names.ts). */
  emptyNames?: number;
  /** true: a sentence's opening word set off by a comma is no one-word text value (sentence-openers.ts). */
  sentenceOpeners?: boolean;
  /** After the joint assignment, an unheld quoted text replaces a text parameter's unquoted value at this share of its chance (leftover-quotes.ts). */
  leftoverQuotes?: number;
  /** After the joint assignment, a value passes to another parameter where the product of chances grows this many times (value-exchanges.ts). */
  valueExchanges?: number;
  /** gluedRuns of the question, once computed. */
  runs?: [number, number][];
  /** true: an object parameter is offered the dictionaries the question writes as literals (candidates.ts dictLiterals). */
  dictLiterals?: boolean;
}

// a possessive ending is no part of the value (possessives.ts; a language policy)
const spanText = (v: QuestionView, s: number, e: number): string =>
  withoutPossessive(v.question.slice(v.tokens[s]!.start, v.tokens[e - 1]!.end), v.possessives);

/** The candidates for a parameter of kind `k`. */
export function candidatesFor(v: QuestionView, k: ParamKind): Candidate[] {
  if (k.type === "boolean")
    return [true, false].map((value) => ({ family: "bool", value, start: -1, end: -1, quoted: false }));
  if (k.enumValues && k.type !== "array")
    return k.enumValues.map((value) => ({ family: "enum", value, start: -1, end: -1, quoted: false }));
  if (k.type === "integer" || k.type === "number") {
    const stated = numbers(v, k.type === "integer");
    return stated.length > 0 || v.constants === false ? stated : namedConstants(v);
  }
  if (k.type === "array") return k.enumValues && v.enumLists !== false ? memberLists(v, k.enumValues) : lists(v, k);
  if (k.type === "object") return [...(v.variables !== false ? objectVariables(v) : []), ...(v.dictLiterals === true ? dictLiterals(v) : [])];
  const out = spans(v);
  if (v.numberCommas !== false)
    for (const [s, e] of numberCommaRanges(v.tokens)) out.push({ family: "span", value: spanText(v, s, e), start: s, end: e, quoted: false });
  return k.commaJoined && v.commaJoined !== false ? [...out, ...commaSpans(v)] : out;
}

/** Does a token start with a capital letter (the first word of a sentence too)? */
const capitalWord = (t: QToken): boolean => t.kind === "word" && /^\p{Lu}/u.test(t.text);

/**
 * Spans of capitalised words on both sides of one comma ("Seattle, Washington", "New York, USA"), up to 3
 * words a side: the values of a parameter whose description writes its values so (ParamKind.commaJoined).
 */
function commaSpans(v: QuestionView): Candidate[] {
  const out: Candidate[] = [];
  const t = v.tokens;
  t.forEach((c, m) => {
    if (c.text !== "," || m === 0 || m + 1 >= t.length) return;
    for (let s = m - 1; s >= Math.max(0, m - 3) && capitalWord(t[s]!); s--)
      for (let e = m + 2; e <= Math.min(t.length, m + 4) && capitalWord(t[e - 1]!); e++)
        out.push({ family: "span", value: spanText(v, s, e), start: s, end: e, quoted: false });
  });
  return out;
}

function numbers(v: QuestionView, integer: boolean): Candidate[] {
  const out: Candidate[] = [];
  v.tokens.forEach((t, i) => {
    if (t.kind !== "number" || t.value === undefined || !Number.isFinite(t.value)) return;
    // "50 million": the whole number, as the digits stand (number-scales.ts)
    const scale = v.numberScales ? scaleAfter(v.tokens, i, v.numberScales) : undefined;
    if (scale !== undefined) {
      const whole = Number((t.value * scale).toPrecision(12));
      if (!integer || Number.isInteger(whole)) out.push({ family: "number", value: whole, start: i, end: i + 1, quoted: false });
      return;
    }
    if (integer && !Number.isInteger(t.value)) return;
    // digits right after "^" are an exponent (m/s^2), not a value
    if (i > 0 && v.tokens[i - 1]!.text === "^" && v.tokens[i - 1]!.end === t.start) return;
    out.push({ family: "number", value: t.value, start: i, end: i + 1, quoted: false });
    // "5%" also offers 0.05 to a parameter that takes fractions (a whole-number one cannot hold it)
    if (!integer && v.fractions !== false && percentAfter(v, i))
      out.push({ family: "number", value: Number((t.value / 100).toPrecision(12)), start: i, end: i + 1, quoted: false, fraction: true });
  });
  // "three pumpkins": a number written in words, where the view carries a language policy for them and the
  // question states none in digits (one that does writes its values so; "two objects" there counts things)
  if (v.numberWords && out.length === 0)
    for (const { at, value } of numberWordTokens(v.tokens, v.numberWords))
      out.push({ family: "number", value, start: at, end: at + 1, quoted: false });
  return out;
}

/** A constant's name as code writes one: capitals and digits joined by "_", perhaps after a type ("EventRequest."). */
const CONSTANT = /^(?:[\p{L}\p{N}_]+\.)*\p{Lu}[\p{Lu}\p{N}]*(?:_[\p{Lu}\p{N}]+)+$/u;

/**
 * Where a question states no number, a number parameter may take a named constant it writes ("a suspend policy of
 * EVENT_THREAD", "`EventRequest.SUSPEND_ALL`"): in code a constant's name stands for its number.
 */
function namedConstants(v: QuestionView): Candidate[] {
  return v.tokens.flatMap((t, i) =>
    t.kind === "word" && CONSTANT.test(t.text)
      ? [{ family: "span" as const, value: t.text, start: i, end: i + 1, quoted: v.quoted.some((q) => q.start === i && q.end === i + 1) }]
      : [],
  );
}

/** Is the number at token `i` written with a "%" right after it? */
export function percentAfter(v: QuestionView, i: number): boolean {
  const next = v.tokens[i + 1];
  return next !== undefined && next.text === "%" && next.start === v.tokens[i]!.end;
}

function spans(v: QuestionView): Candidate[] {
  const out: Candidate[] = [];
  const seen = new Set<string>();
  for (const q of v.quoted) {
    out.push({ family: "span", value: q.text, start: q.start, end: q.end, quoted: true });
    seen.add(`${q.start}:${q.end}`);
  }
  // a run written without spaces is offered whole, and no span cuts it ("01" of "01-01-1980")
  const runs = v.glued === false ? [] : (v.runs ?? gluedRuns(v));
  for (const [s, e] of runs) {
    if (seen.has(`${s}:${e}`)) continue;
    seen.add(`${s}:${e}`);
    out.push({ family: "span", value: spanText(v, s, e), start: s, end: e, quoted: false });
  }
  const cuts = (s: number, e: number) => runs.some(([a, b]) => (a < s && s < b) || (a < e && e < b));
  const n = v.tokens.length;
  for (let s = 0; s < n; s++) {
    if (v.tokens[s]!.kind === "punct") continue;
    for (let e = s + 1; e <= Math.min(n, s + MAX_SPAN); e++) {
      if (v.tokens[e - 1]!.kind === "punct") break;
      if (seen.has(`${s}:${e}`) || cuts(s, e)) continue;
      out.push({ family: "span", value: spanText(v, s, e), start: s, end: e, quoted: false });
    }
  }
  return out;
}

/**
 * Runs of two or more tokens written with no space between them ("2022-04-27",
 * "2022/AL2562", "10:00AM", "$20-$30"): one value as written, which word spans (they stop at punctuation) cannot
 * offer. A run starts and ends at a word or number; sentence punctuation at its ends stays out.
 */
export function gluedRuns(v: QuestionView): [number, number][] {
  const t = v.tokens;
  const out: [number, number][] = [];
  for (let i = 0; i < t.length; ) {
    let e = i + 1;
    while (e < t.length && t[e]!.start === t[e - 1]!.end) e++;
    let s = i;
    let end = e;
    while (s < end && t[s]!.kind === "punct" && !"$#@~/".includes(t[s]!.text)) s++;
    while (end > s && t[end - 1]!.kind === "punct") end--;
    if (end - s > 1 && !t.slice(s, end).some((k) => QUOTE_MARKS.includes(k.text)))
      out.push([s, end]);
    i = e;
  }
  return out;
}

/** Item ranges of the question: numbers, quoted texts, runs of capitalised words (with numbers after them). */
function itemRanges(v: QuestionView, itemType: ParamKind["type"] | undefined): [number, number][] {
  if (itemType === "integer" || itemType === "number")
    return v.tokens.flatMap((t, i) => (t.kind === "number" ? [[i, i + 1] as [number, number]] : []));
  const out: [number, number][] = v.quoted.map((q) => [q.start, q.end]);
  const inQuote = (i: number) => v.quoted.some((q) => i >= q.start - 1 && i <= q.end);
  for (let i = 0; i < v.tokens.length; i++) {
    if (inQuote(i) || !v.tokens[i]!.capital) continue;
    let e = i + 1;
    while (e < v.tokens.length && !inQuote(e) && (v.tokens[e]!.capital || v.tokens[e]!.kind === "number")) e++;
    out.push([i, e]);
    i = e - 1;
  }
  return out.sort((a, b) => a[0] - b[0]);
}

/** Are the tokens between two items only commas and learnt joiner words (the quote marks of quoted items aside)? */
function joined(v: QuestionView, from: number, to: number): boolean {
  const between = v.tokens.slice(from, to).filter((t) => !QUOTE_MARKS.includes(t.text));
  if (between.length > 3) return false;
  return between.every((t) => t.text === "," || v.joiners.has(t.lower));
}

const QUOTE_MARKS = [...OPEN, ...Object.values(CLOSE_OF)];

function lists(v: QuestionView, k: ParamKind): Candidate[] {
  const numeric = k.itemType === "integer" || k.itemType === "number";
  const ranges = itemRanges(v, k.itemType).filter(
    ([s]) => !numeric || k.itemType !== "integer" || Number.isInteger(v.tokens[s]!.value),
  );
  const value = (r: [number, number]): unknown => {
    if (numeric) return v.tokens[r[0]]!.value;
    const q = v.quoted.find((x) => x.start === r[0] && x.end === r[1]);
    return q ? q.text : spanText(v, r[0], r[1]);
  };
  const out: Candidate[] = [];
  const push = (items: [number, number][]) =>
    out.push({
      family: "list",
      value: items.map(value),
      start: items[0]![0],
      end: items[items.length - 1]![1],
      quoted: items.some((r) => v.quoted.some((q) => q.start === r[0])),
      items,
    });
  // each item alone, and each whole run of joined items: a list the question states is not cut in parts
  for (let a = 0; a < ranges.length; a++) {
    push([ranges[a]!]);
    if (a > 0 && joined(v, ranges[a - 1]![1], ranges[a]![0])) continue;
    let b = a;
    while (b + 1 < ranges.length && joined(v, ranges[b]![1], ranges[b + 1]![0])) b++;
    if (b > a) push(ranges.slice(a, b + 1));
  }
  // every number the question writes as one list, unless only lists the question states are offered (joinedNumbers)
  if (numeric && ranges.length > 1 && v.joinedNumbers !== true) push(ranges);
  // "tomatoes and lettuce": runs of plain lower-case words (plain-lists.ts)
  if (!numeric && v.plainLists === true) {
    const inQuote = (i: number) => v.quoted.some((q) => i >= q.start - 1 && i <= q.end);
    for (const run of plainListRuns(v.tokens, v.joiners, inQuote, v.twoWordItems === true))
      if (!out.some((o) => JSON.stringify(o.items) === JSON.stringify(run))) push(run);
  }
  if (!numeric && v.variables !== false) out.push(...variables(v, out));
  if (v.literals !== false) out.push(...literals(v, k, out));
  return out;
}

/**
 * Lists the question writes as literals ("[200,300,400,500]", "[ [10, 20], [30, 40] ]", "['userID', 42, true]"):
 * the bracketed text read as JSON (single quotes read as double ones), one candidate over its whole range, when
 * it gives a list no other candidate gives (a number run with commas reads as one number, "200,300"; nested and
 * mixed lists have no items of their own). Its items must be of the parameter's item type.
 */
function literals(v: QuestionView, k: ParamKind, others: readonly Candidate[]): Candidate[] {
  const out: Candidate[] = [];
  const text = v.question;
  for (let i = text.indexOf("["); i >= 0; i = text.indexOf("[", i + 1)) {
    let depth = 0;
    let j = i;
    for (; j < text.length; j++) {
      if (text[j] === "[") depth++;
      else if (text[j] === "]" && --depth === 0) break;
    }
    if (j >= text.length) break;
    const parsed = readLiteral(text.slice(i, j + 1));
    if (!Array.isArray(parsed) || parsed.length === 0) continue;
    const numeric = k.itemType === "integer" || k.itemType === "number";
    const fits = (x: unknown): boolean =>
      Array.isArray(x) ? x.every(fits) : numeric ? typeof x === "number" && (k.itemType !== "integer" || Number.isInteger(x)) : true;
    if (!parsed.every(fits)) continue;
    const same = JSON.stringify(parsed);
    if (others.some((c) => JSON.stringify(c.value) === same) || out.some((c) => JSON.stringify(c.value) === same)) continue;
    const start = v.tokens.findIndex((t) => t.start >= i);
    let end = start;
    while (end < v.tokens.length && v.tokens[end]!.end <= j + 1) end++;
    if (start < 0 || end <= start) continue;
    out.push({ family: "list", value: parsed, start, end, quoted: false, items: [[start, end]] });
  }
  return out;
}

/**
 * Dictionaries the question writes as literals ("the grade dictionary {'Math': 85, 'Art': 89}"), read as JSON as
 * bracketed lists are (readLiteral): one span each over its whole text, for an object parameter, which is otherwise
 * offered only a variable's name. Flat ones only (the first closing brace ends it); an empty one is no value.
 */
function dictLiterals(v: QuestionView): Candidate[] {
  const out: Candidate[] = [];
  const text = v.question;
  for (let i = text.indexOf("{"); i >= 0; i = text.indexOf("{", i + 1)) {
    const j = text.indexOf("}", i);
    if (j < 0) break;
    const parsed = readLiteral(text.slice(i, j + 1));
    if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed) || Object.keys(parsed).length === 0) continue;
    const start = v.tokens.findIndex((t) => t.start >= i);
    let end = start;
    while (end < v.tokens.length && v.tokens[end]!.end <= j + 1) end++;
    if (start < 0 || end <= start) continue;
    out.push({ family: "span", value: parsed, start, end, quoted: false });
  }
  return out;
}

/** A bracketed literal as JSON: single quotes as double ones, True / False / None as JSON's; undefined if not JSON. */
function readLiteral(text: string): unknown {
  const json = (text.includes('"') ? text : text.replace(/'/g, '"'))
    .replace(/\bTrue\b/g, "true")
    .replace(/\bFalse\b/g, "false")
    .replace(/\bNone\b/g, "null");
  try {
    return JSON.parse(json);
  } catch {
    return undefined;
  }
}

/**
 * An array of enum members: the members the question mentions (enum-lists.ts), all of them together (no two on
 * the same words; the longer mention keeps its place), then each alone. Values are the members as the schema
 * writes them: a run of capitalised words or a quoted text would be no member. The scorer reads a list of members
 * as it reads one member (features.ts memberFeatures), so on a tie the whole list, first, wins.
 */
function memberLists(v: QuestionView, members: readonly unknown[]): Candidate[] {
  const found = memberMentions(v.tokens, members);
  const list = (xs: typeof found): Candidate => ({
    family: "list",
    value: xs.map((x) => x.member),
    start: xs[0]!.range[0],
    end: Math.max(...xs.map((x) => x.range[1])),
    quoted: false,
    items: xs.map((x) => x.range),
    members: true,
  });
  const apart: typeof found = [];
  for (const x of found) if (apart.every((y) => x.range[0] >= y.range[1] || y.range[0] >= x.range[1])) apart.push(x);
  return [...(apart.length > 1 ? [list(apart)] : []), ...found.map((x) => list([x]))];
}

/** A code identifier with a capital inside ("myItemList"): a variable's name, not a word. */
const CAMEL = /^\p{Ll}[\p{L}\p{N}]*\p{Lu}[\p{L}\p{N}]*$/u;

/**
 * An object parameter given one variable's name ("a JSON payload `responseData`", "a filtered source map
 * `docFields`"): each camelCase token, quoted or not, as a text value the scorer reads as any span. The question
 * writes no object otherwise.
 */
function objectVariables(v: QuestionView): Candidate[] {
  return v.tokens.flatMap((t, i) => {
    if (t.kind !== "word" || !CAMEL.test(t.text)) return [];
    const quoted = v.quoted.some((x) => x.start === i && x.end === i + 1);
    return [{ family: "span" as const, value: t.text, start: i, end: i + 1, quoted }];
  });
}

/**
 * A list parameter given one variable's name ("sort the items myItemList", "the array 'shapeStatements'"): the
 * variable holds the list, so the value is the name itself, not a list of one name. Offered for each camelCase
 * token, in place of the one-item list of it; the scorer reads it as that one-item list.
 */
function variables(v: QuestionView, lists: Candidate[]): Candidate[] {
  const out: Candidate[] = [];
  v.tokens.forEach((t, i) => {
    if (t.kind !== "word" || !CAMEL.test(t.text)) return;
    const q = v.quoted.find((x) => x.start === i && x.end === i + 1);
    const at = lists.findIndex((c) => c.items?.length === 1 && c.start === (q?.start ?? i) && c.end === (q?.end ?? i + 1));
    if (at >= 0) lists.splice(at, 1);
    out.push({ family: "list", value: t.text, start: i, end: i + 1, quoted: q !== undefined, items: [[i, i + 1]] });
  });
  return out;
}

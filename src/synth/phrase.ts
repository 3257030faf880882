import type { CatalogEntry } from "../catalog/catalog.ts";
import type { JsonSchema } from "../tools/types.ts";
import {
  ASKS,
  DESCRIPTION_OPENINGS,
  NOUN_ASKS,
  QUESTION_PREFIXES,
  REQUEST_PREFIXES,
  REQUEST_SUFFIXES,
  WANTS,
  baseVerb,
} from "./english.ts";
import type { SynthRng } from "./rng.ts";
import { nameWords } from "./words.ts";

/**
 * A question as segments: the words written around the values, and the values' texts (`value: true`), which
 * styling (case, typos) never touches so that a value stays as drawn.
 */
export interface Segment {
  text: string;
  value?: boolean;
}

/** What a tool does, as a verb phrase ("get the weather for a city") or a noun phrase ("weather forecasts"). */
export interface ToolPhrase {
  kind: "verb" | "noun";
  text: string;
}

/** A drawn argument: the parameter's name and schema, the value's text. */
export interface ArgumentText {
  name: string;
  schema: JsonSchema;
  text: string;
}

const MAX_PHRASE_WORDS = 10;
/** Words a cut phrase must not end on ("… of a", "… for the specific"). */
const DANGLING: ReadonlySet<string> = new Set(
  "a an the of in on for to with by from and or its their his her your specific given particular certain into at as".split(
    " ",
  ),
);

function lowerFirst(text: string): string {
  const first = text.split(" ")[0]!;
  // an acronym or a name in capitals stays as written
  return /^[A-Z][a-z]/.test(first) || /^[A-Z]$/.test(first) ? text[0]!.toLowerCase() + text.slice(1) : text;
}

function phraseOf(words: string[]): ToolPhrase | undefined {
  if (words.length === 0) return undefined;
  const base = baseVerb(words[0]!);
  if (base !== undefined) return { kind: "verb", text: [base, ...words.slice(1)].join(" ") };
  return { kind: "noun", text: lowerFirst(words.join(" ")) };
}

/** The description's first clause, with "This API returns …" read as "return …". */
export function descriptionPhrase(description: string): ToolPhrase | undefined {
  let d = description
    .replace(/\([^)]*\)|\[[^\]]*\]|<[^>]*>/g, " ")
    .replace(/\s+/g, " ")
    .trim();
  d = d.split(/(?<=[.!?])\s|\n|;|:\s| - /)[0] ?? "";
  for (const opening of DESCRIPTION_OPENINGS) d = d.replace(opening, "");
  d = d
    .replace(/[.!?,:]+$/, "")
    .split(/,\s/)[0]!
    .trim();
  // what the tool needs comes after these; the question says it with the values
  d = d.split(/\s(?:based on|given|if|when|which|that|where|according to|by providing)\s/i)[0]!;
  const words = d.split(" ").filter((w) => w !== "");
  if (words.length < 2 || words.length > 2 * MAX_PHRASE_WORDS || !/^[\p{L}]/u.test(d)) return undefined;
  const kept = words.slice(0, MAX_PHRASE_WORDS);
  while (kept.length > 2 && DANGLING.has(kept[kept.length - 1]!.toLowerCase())) kept.pop();
  return phraseOf(kept);
}

/** The tool's name as a phrase: "Get Movie Details" → "get movie details"; "area_get" → "get area". */
export function namePhrase(entry: CatalogEntry): ToolPhrase {
  // a path parameter in the name ("game/{game_pk}") is not a word of it
  const words = nameWords((entry.api !== "" ? entry.api : entry.tool).replace(/\{[^}]*\}/g, " "))
    .split(" ")
    .filter((w) => w !== "");
  // "ecology get turtle population" → "get turtle population"; "area get" → "get area"
  const at = words.findIndex((w) => baseVerb(w) !== undefined);
  if (at > 0 && at < words.length - 1)
    return { kind: "verb", text: [baseVerb(words[at]!)!, ...words.slice(at + 1)].join(" ") };
  if (at > 0) return { kind: "verb", text: [baseVerb(words[at]!)!, ...words.slice(0, at)].join(" ") };
  return phraseOf(words) ?? { kind: "noun", text: entry.id };
}

/** A phrase for the tool, mostly from its description, sometimes from its name. */
export function toolPhrase(entry: CatalogEntry, rng: SynthRng): ToolPhrase {
  const fromDescription = descriptionPhrase(entry.description);
  return fromDescription !== undefined && rng.chance(0.75) ? fromDescription : namePhrase(entry);
}

/** The words a question uses for a parameter: its name's words, or a short description ("the city name"). */
function parameterWords(arg: ArgumentText, rng: SynthRng): string {
  const description =
    typeof arg.schema.description === "string"
      ? arg.schema.description
          .split(/[.,;(]/)[0]!
          .trim()
          .replace(/^(the|a|an)\s+/i, "")
      : "";
  const words = description.split(/\s+/).filter((w) => w !== "");
  if (words.length >= 1 && words.length <= 4 && rng.chance(0.3) && /^[\p{L}\s'-]+$/u.test(description))
    return description.toLowerCase();
  return nameWords(arg.name);
}

/** One "<parameter> <value>" clause, written one of several ways. */
function clause(arg: ArgumentText, rng: SynthRng, alone: boolean, bare: boolean): Segment[] {
  const words = parameterWords(arg, rng);
  const value: Segment = { text: arg.text, value: true };
  if (bare) {
    // after "given" / "for" / "with": no preposition of its own
    return rng.pick([
      [{ text: `${words} ` }, value],
      [{ text: `${words} ` }, value],
      [{ text: `${words} = ` }, value],
      [{ text: `${words}: ` }, value],
      [{ text: `a ${words} of ` }, value],
    ]);
  }
  const forms: Segment[][] = [
    [{ text: `with ${words} ` }, value],
    [{ text: `with ${words} ` }, value],
    [{ text: `${words} ` }, value],
    [{ text: `where ${words} is ` }, value],
    [{ text: `${words}: ` }, value],
    [{ text: `${words} = ` }, value],
    [{ text: `setting ${words} to ` }, value],
    [{ text: "using " }, value, { text: ` as ${words}` }],
    [{ text: `a ${words} of ` }, value],
    [{ text: `the ${words} is ` }, value],
  ];
  if (alone) forms.push([{ text: "for " }, value], [{ text: "for " }, value]);
  return rng.pick(forms);
}

/**
 * The arguments as clauses joined with commas and "and" ("with city X, days 3 and units metric"); with chance
 * `inline` a join is a space alone ("with city X where days is 3"), so that a word follows the value before it.
 * At `inline` 0 no draw is made: the questions are as before the option.
 */
export function argumentClauses(
  args: readonly ArgumentText[],
  rng: SynthRng,
  bare = false,
  inline = 0,
): Segment[] {
  const shown = rng.shuffle(args.filter((a) => a.text !== ""));
  const out: Segment[] = [];
  shown.forEach((arg, i) => {
    if (i > 0)
      out.push({
        text:
          inline > 0 && rng.chance(inline)
            ? " "
            : i === shown.length - 1
              ? rng.pick([" and ", ", and ", ", "])
              : ", ",
      });
    out.push(...clause(arg, rng, shown.length === 1, bare));
  });
  return out;
}

/** The request itself, before styling: imperative, a question, a want or terse. */
export function requestSegments(
  phrase: ToolPhrase,
  args: readonly ArgumentText[],
  rng: SynthRng,
  plain = false,
  inline = 0,
): Segment[] {
  // the values first: "given base 10 and height 5, calculate the area of a triangle"
  if (!plain && args.some((a) => a.text !== "") && phrase.kind === "verb" && rng.chance(0.12)) {
    const bare = argumentClauses(args, rng, true, inline);
    return [{ text: `${rng.pick(["given", "for", "with"])} ` }, ...bare, { text: `, ${phrase.text}` }];
  }
  // with chance `inline`, the values first and the request straight after them, no comma between ("use city X
  // to get the weather", "for city X show me weather forecasts"): the last value is followed by words, as values
  // inside people's sentences are, not by the question's end
  if (inline > 0 && args.some((a) => a.text !== "") && rng.chance(inline)) {
    const bare = argumentClauses(args, rng, true, inline);
    return phrase.kind === "verb"
      ? [
          { text: `${rng.pick(["use", "using", "with", "for"])} ` },
          ...bare,
          { text: ` ${rng.pick(["to", "and"])} ${phrase.text}` },
        ]
      : [
          { text: `${rng.pick(["for", "with"])} ` },
          ...bare,
          { text: ` ${rng.pick(NOUN_ASKS)} ${phrase.text}` },
        ];
  }
  const clauses = argumentClauses(args, rng, false, inline);
  const tail: Segment[] = clauses.length > 0 ? [{ text: " " }, ...clauses] : [];
  if (plain || rng.chance(0.3)) {
    return phrase.kind === "verb"
      ? [{ text: phrase.text }, ...tail]
      : [{ text: `${rng.pick(NOUN_ASKS)} ${phrase.text}` }, ...tail];
  }
  if (phrase.kind === "verb") {
    const r = rng.next();
    if (r < 0.4) return [{ text: `${rng.pick(ASKS)} ${phrase.text}` }, ...tail, { text: "?" }];
    if (r < 0.8) return [{ text: `${rng.pick(WANTS)} ${phrase.text}` }, ...tail];
    return [{ text: phrase.text }, ...tail, { text: "." }];
  }
  return rng.chance(0.5)
    ? [{ text: phrase.text }, ...tail, { text: "?" }]
    : [{ text: `${rng.pick(NOUN_ASKS)} ${phrase.text}` }, ...tail];
}

/** One typing slip in a word of five or more letters: a letter dropped, doubled or swapped with the next. */
function typo(word: string, rng: SynthRng): string {
  const i = 1 + rng.int(word.length - 2);
  const kind = rng.int(3);
  if (kind === 0) return word.slice(0, i) + word.slice(i + 1);
  if (kind === 1) return word.slice(0, i) + word[i]! + word.slice(i);
  return word.slice(0, i) + word[i + 1]! + word[i]! + word.slice(i + 2);
}

/**
 * As people type: all lower case or a capital first letter, polite or curt additions, a dropped question mark,
 * one typo in a word around the values (never in a value).
 */
export function styled(segments: Segment[], rng: SynthRng): Segment[] {
  let out = segments.map((s) => ({ ...s }));
  const words = (s: Segment) => !s.value;
  if (rng.chance(0.3)) out = out.map((s) => (words(s) ? { text: s.text.toLowerCase() } : s));
  if (rng.chance(0.12)) {
    const spots = out.flatMap((s, i) =>
      words(s) ? [...s.text.matchAll(/\p{L}{5,}/gu)].map((m) => ({ i, at: m.index, w: m[0] })) : [],
    );
    if (spots.length > 0) {
      const { i, at, w } = rng.pick(spots);
      const t = out[i]!.text;
      out[i] = { text: t.slice(0, at) + typo(w, rng) + t.slice(at + w.length) };
    }
  }
  const last = out[out.length - 1]!;
  const isQuestion = !last.value && last.text.endsWith("?");
  if (isQuestion) {
    if (rng.chance(0.2)) out[out.length - 1] = { text: last.text.slice(0, -1) };
    if (rng.chance(0.1)) out.unshift({ text: rng.pick(QUESTION_PREFIXES) });
  } else if (rng.chance(0.2)) {
    const asking = [...ASKS, ...WANTS, ...NOUN_ASKS].some((a) =>
      out[0]!.text.toLowerCase().startsWith(a.toLowerCase()),
    );
    out.unshift({ text: asking ? rng.pick(QUESTION_PREFIXES) : rng.pick(REQUEST_PREFIXES) });
  } else if (rng.chance(0.15)) {
    out.push({ text: rng.pick(REQUEST_SUFFIXES) });
  }
  if (!out[0]!.value && rng.chance(0.5))
    out[0] = { text: out[0]!.text[0]!.toUpperCase() + out[0]!.text.slice(1) };
  return out;
}

/** The segments without the "." or "?" that ends them, so that another request can follow. */
export function withoutTrailingStop(segments: Segment[]): Segment[] {
  const last = segments[segments.length - 1]!;
  if (last.value || !/[.?]$/.test(last.text)) return segments;
  return [...segments.slice(0, -1), { text: last.text.replace(/[.?]+$/, "") }];
}

export function segmentsText(segments: readonly Segment[]): string {
  return segments
    .map((s) => s.text)
    .join("")
    .replace(/\s+/g, " ")
    .replace(/\s+([?.,])$/, "$1")
    .trim();
}

/**
 * A language policy: what the copy constraint (copy.ts, json-automaton.ts) and the ToolGen agent's arguments
 * turns know beyond a tool's JSON Schema and the characters of the texts. The schema and the copy constraint
 * itself (a value is a whole-word span of the texts, a number one they state in digits, quoted text whole, a
 * value spent once written, enum values written out first) know no language. Everything else here was written
 * by hand for English, much of it chosen on the demo's dev questions (docs/demo-model.md): it is a policy, not
 * the model, and it is replaceable.
 *
 * `englishPolicy` (the default everywhere) holds the rules as they were; `neutralPolicy` none of them (schema
 * + copy constraint only). A policy of your own: `{ ...englishPolicy, dates: myDates }`, or
 * `policyFrom("neutral+dates")`.
 */
import { dateSpans, joinedDateTime, takesDateTime } from "./date-spans.ts";
import { fileNames, namesAFile } from "./file-names.ts";
import { monthsIn, numberWordsIn, ONES, TENS } from "./number-words.ts";
import { introducedSpan, type QuotedSpan } from "./quotes.ts";
import { ToolgenError } from "../errors.ts";

export interface LanguagePolicy {
  /** How the policy is named in records and benches ("english", "neutral", "neutral+dates"). */
  readonly name: string;
  /** Numbers written in words and the words that negate a number. Undefined: digits only, never negated. */
  readonly numberWords?: NumberWordsRules | undefined;
  /** Dates written out (copied whole) and months named. Undefined: a date is text like any other. */
  readonly dates?: DateRules | undefined;
  /** Words that point at the data or are courtesy. Undefined: every word may start, end or be a copy. */
  readonly pointing?: PointingRules | undefined;
  /** Rules keyed to property names, schema shapes and the tool's description. Undefined: none. */
  readonly propertyNames?: PropertyNameRules | undefined;
}

export interface NumberWordsRules {
  /** The whole numbers a text writes in words ("seventeen", "three hundred and twelve"). */
  numbersIn(text: string): number[];
  /** Matches a text that ends with a number word then spaces ("fifteen "): the unit written after it. */
  readonly endsWithNumberWord: RegExp;
  /** Words that say a number counts down or below zero ("10 days before"): it may then be negated. */
  readonly negating: RegExp;
}

export interface DateRules {
  /** Dates a person wrote out ("July 11th, 2025"), copied whole or not at all. */
  spans(text: string): QuotedSpan[];
  /** The months a text names ("feb 2028" → 2). */
  months(text: string): number[];
}

export interface PointingRules {
  /** Words a copy never starts or ends on ("the word X", "base64 of X", "\d+ in"). */
  readonly pointingWords: readonly string[];
  /** Words never copied from what a person typed outside quotes ("please"). */
  readonly courtesyWords: readonly string[];
  /** Data introduced after a colon that words point at ("rot13 this: Uryyb"), taken as if quoted. */
  introducedSpan(text: string): QuotedSpan | undefined;
  /** A one- or two-letter enum value counts as a unit after one of these words ("20 ounces into kg"). */
  readonly unitCueWords: readonly string[];
}

export interface PropertyNameRules {
  /** Does a property of this name (its words) take a date and a time? Then it takes a date and a time joined. */
  takesDateTime(words: readonly string[]): boolean;
  /** A date and a time written apart, joined ("2026-03-10 9:30"). */
  joinedDateTime(text: string): { value: string; date: string } | undefined;
  /** Does a property of this name name a file? Then it takes a file name the question writes. */
  namesAFile(words: readonly string[]): boolean;
  /** The file names a text writes ("notes.txt"). */
  fileNames(text: string, quoted: readonly QuotedSpan[]): string[];
  /** A number property takes a number written beside a word of its name first ("82 kg" for weight_kg). */
  readonly numbersBesideName: boolean;
  /** A number enum of exactly 1 to 12 takes the months the texts name (with `dates`). */
  readonly monthEnum: boolean;
  /** A quoted span after the word the tool's description writes before a property's name comes first. */
  readonly cueWords: boolean;
}

/**
 * Words a call's copied argument never starts with: they point at the data or join it to the request ("count
 * the vowels in the word onomatopoeia", "base64 of doost"). Chosen on the demo's dev questions
 * (docs/demo-model.md). (Moved here from src/agents/toolgen.ts.)
 */
export const POINTING_WORDS = [
  "this",
  "that",
  "the",
  "a",
  "an",
  "word",
  "string",
  "text",
  "sentence",
  "phrase",
  "of",
  "in",
  "to",
  "for",
  "is",
  "what",
  "me",
  "my",
  "it",
] as const;
/**
 * Courtesy is never a call's data: never copied from what a person typed outside quotes ("md5 hash of the
 * string abc please" hashed "please", then "abc please"). The words mirror the demo generator's own affixes.
 */
export const COURTESY_WORDS = ["please", "pls", "plz", "kindly", "thanks"] as const;

/** Words that say a number counts down or below zero: a number written without sign may then be negated. */
export const NEGATING_WORDS =
  /\b(before|ago|back|backwards?|earlier|prior|previous|minus|negative|below|under|less|subtract|deduct|take away|south|west|behind)\b/i;

/** A number word ending a text, then spaces (see CopySource.followsNumber). */
const NUMBER_WORD_BEFORE = new RegExp(
  `(?:^|[^\\p{L}])(?:${[...ONES, ...TENS.filter((t) => t), "hundred", "thousand"].join("|")})\\s+$`,
  "iu",
);

/** The rules the project wrote for English questions, as they were before they became a policy. */
export const englishPolicy: LanguagePolicy = {
  name: "english",
  numberWords: {
    numbersIn: numberWordsIn,
    endsWithNumberWord: NUMBER_WORD_BEFORE,
    negating: NEGATING_WORDS,
  },
  dates: { spans: dateSpans, months: monthsIn },
  pointing: {
    pointingWords: POINTING_WORDS,
    courtesyWords: COURTESY_WORDS,
    introducedSpan,
    unitCueWords: ["to", "into", "in", "as"],
  },
  propertyNames: {
    takesDateTime,
    joinedDateTime,
    namesAFile,
    fileNames,
    numbersBesideName: true,
    monthEnum: true,
    cueWords: true,
  },
};

/** No word lists and no property-name rules: the JSON Schema and the copy constraint alone. */
export const neutralPolicy: LanguagePolicy = { name: "neutral" };

/** The rule families a policy has, by the names benches and `policyFrom` use. */
export const POLICY_FAMILIES = ["numbers", "dates", "pointing", "properties"] as const;
export type PolicyFamily = (typeof POLICY_FAMILIES)[number];

const FAMILY_KEY: Record<PolicyFamily, "numberWords" | "dates" | "pointing" | "propertyNames"> = {
  numbers: "numberWords",
  dates: "dates",
  pointing: "pointing",
  properties: "propertyNames",
};

/**
 * A policy from its name: "english", "neutral", then families added or taken away, each from English:
 * "neutral+numbers", "english-dates", "neutral+dates+properties" (numbers: number words and negations;
 * dates: dates and months; pointing: pointing and courtesy words; properties: rules keyed to property names).
 */
export function policyFrom(spec: string): LanguagePolicy {
  const m = /^(english|neutral)((?:[+-][a-z]+)*)$/.exec(spec.replace(/\s+/g, ""));
  if (!m)
    throw new ToolgenError(
      "invalid_input",
      `a policy is english or neutral, then +family or -family (${POLICY_FAMILIES.join(", ")}); got ${spec}`,
    );
  let policy: Record<string, unknown> = m[1] === "english" ? { ...englishPolicy } : { ...neutralPolicy };
  for (const [, sign, family] of m[2]!.matchAll(/([+-])([a-z]+)/g)) {
    if (!POLICY_FAMILIES.includes(family as PolicyFamily)) {
      throw new ToolgenError(
        "invalid_input",
        `a policy's families are ${POLICY_FAMILIES.join(", ")}; got ${family} in ${spec}`,
      );
    }
    const key = FAMILY_KEY[family as PolicyFamily];
    policy = { ...policy, [key]: sign === "+" ? englishPolicy[key] : undefined };
  }
  return { ...policy, name: spec } as LanguagePolicy;
}

import { Rng } from "../nn/rng.ts";
import type { Tool } from "../tools/types.ts";
import { SAMPLE_FILES } from "./tools/sandbox.ts";
import { dateText, enumText, monthText, numberText, quoted } from "./surface.ts";
import { valuesOf } from "./tools/names.ts";

/**
 * Values for the question templates' slots: by tool and parameter, else by parameter name, else by type. Each
 * value is drawn once and written the way a person might (surface.ts): the call gets the value, the question
 * its written form.
 */
export type Pool = (rng: Rng) => string | number;

const pick =
  <T extends string | number>(values: readonly T[]): Pool =>
  (rng) =>
    values[rng.int(values.length)]!;
const int =
  (lo: number, hi: number): Pool =>
  (rng) =>
    lo + rng.int(hi - lo + 1);
const dec =
  (lo: number, hi: number, digits: number): Pool =>
  (rng) =>
    Number((lo + rng.next() * (hi - lo)).toFixed(digits));

export const PHRASES = [
  "the quick brown fox jumps over the lazy dog",
  "hello world",
  "tools make language models useful",
  "a man a plan a canal panama",
  "never odd or even",
  "open the pod bay doors",
  "order 66 shipped on day 12",
  "rain in spain stays mainly in the plain",
  "keep calm and carry on",
  "to be or not to be",
  "the answer is 42",
  "room 101 is on floor 3",
  "coffee at 9 and lunch at 13",
  "all that glitters is not gold",
  "lisbon is sunny today",
  "small models learn fast",
  "step by step",
  "madam in eden im adam",
  "data beats opinions",
  "meet me at gate 7",
  "green tea and lemon cake",
  "the cat sat on the mat",
  "write tests first",
  "version 2 is better than version 1",
  "ToolGen maps tools to tokens",
  "sea shells by the sea shore",
  "bob drove 300 km in 4 hours",
  "fast trains and slow boats",
  "please call me back tomorrow",
  "my cat likes warm milk",
  "the meeting moved to friday",
  "we need more coffee",
  "Hello Again Friend",
  "THIS IS LOUD",
  "quiet mornings are the best",
  "no lemon no melon",
  "was it a car or a cat i saw",
  "summer is coming soon",
];
/** Single words (the text tools are often asked about one word). */
export const WORDS = [
  "level",
  "kayak",
  "banana",
  "rhythm",
  "ToolGen",
  "Mississippi",
  "palindrome",
  "wonderful",
  "noon",
  "keyboard",
  "Lisbon",
  "abracadabra",
  "civic",
  "python",
  "zebra",
  "queue",
];
/** Every word of PHRASES and WORDS, for new phrases made of familiar words. */
const KNOWN_WORDS = [...new Set([...PHRASES.flatMap((p) => p.split(" ")), ...WORDS])];
const ONSETS = ["b", "c", "d", "f", "g", "h", "k", "l", "m", "n", "p", "r", "s", "t", "v", "w", "z"];
const CLUSTERS = ["br", "ch", "cl", "dr", "fl", "gr", "pl", "sh", "sp", "st", "th", "tr"];
const NUCLEI = ["a", "e", "i", "o", "u", "a", "e", "i", "o", "ai", "ea", "oo", "ou"];
const CODAS = ["", "", "", "n", "r", "s", "t", "l", "m", "ck", "nd", "st"];

/** A pronounceable made-up word (1–2 syllables): text no model can have memorised. */
function pseudoWord(rng: Rng): string {
  let word = "";
  const syllables = 1 + rng.int(2);
  for (let i = 0; i < syllables; i++) {
    const onset = rng.next() < 0.25 ? pick(CLUSTERS)(rng) : pick(ONSETS)(rng);
    word += `${onset}${pick(NUCLEI)(rng)}`;
  }
  return word + pick(CODAS)(rng);
}

/**
 * New text for the text tools: 1–4 words, each a familiar word or a made-up one, sometimes capitalised or
 * shouted. With only the fixed PHRASES and WORDS the demo model learnt those strings by heart and wrote them
 * (or pieces of the question's other words) for any text it had not seen; text it cannot know teaches it to
 * copy what the question quotes.
 */
export function freshText(rng: Rng): string {
  const words: string[] = [];
  const count = 1 + rng.int(4);
  for (let i = 0; i < count; i++) {
    let w = rng.next() < 0.5 ? pick(KNOWN_WORDS)(rng).toString() : pseudoWord(rng);
    const r = rng.next();
    if (r < 0.12) w = w[0]!.toUpperCase() + w.slice(1);
    else if (r < 0.16) w = w.toUpperCase();
    words.push(w);
  }
  if (rng.next() < 0.1) words.splice(rng.int(words.length + 1), 0, String(1 + rng.int(999)));
  return words.join(" ");
}

/** A text slot: a familiar word or phrase (a third of the time) or fresh text. */
function text(rng: Rng): string {
  const r = rng.next();
  if (r < 0.1) return pick(WORDS)(rng) as string;
  if (r < 0.33) return pick(PHRASES)(rng) as string;
  return freshText(rng);
}

const EXPRESSIONS = [
  "(3 + 4) * 2",
  "17 * 23 - 5",
  "2 ^ 10 + 1",
  "(100 - 37) / 9",
  "sqrt(144) + 8",
  "45 % 7",
  "3.5 * (2 + 6)",
  "(8 + 12) * (5 - 2)",
  "1000 / 8 / 5",
  "7 * 7 * 7 - 300",
];
const PATTERNS = ["\\d+", "[aeiou]", "\\b\\w{4}\\b", "o", "[0-9]", "\\s+", "th"];
const REPLACEMENTS = ["#", "_", "X", "-", "*"];
const FILES = Object.keys(SAMPLE_FILES);
const date: Pool = (rng) => {
  const d = new Date(Date.UTC(1950, 0, 1) + rng.int(80 * 365) * 86400000);
  return d.toISOString().slice(0, 10);
};
const datetime: Pool = (rng) =>
  `${date(rng)}T${String(rng.int(24)).padStart(2, "0")}:${pick(["00", "15", "30", "45"])(rng)}`;

const BY_TOOL: Record<string, Record<string, Pool>> = {
  power: { base: int(2, 12), exponent: int(2, 10) },
  square_root: { x: (rng) => (rng.next() < 0.5 ? (1 + rng.int(60)) ** 2 : int(2, 10000)(rng)) },
  evaluate_expression: { expression: pick(EXPRESSIONS) },
  round_number: { x: dec(0, 100, 5), digits: int(0, 4) },
  factorial: { n: int(0, 25) },
  is_prime: { n: int(2, 9999) },
  fibonacci: { n: int(1, 90) },
  percentage_of: { percent: (rng) => pick([5, 10, 12.5, 15, 20, 25, 30, 40, 50, 75])(rng) },
  greatest_common_divisor: {
    a: (rng) => 6 * (int(1, 40)(rng) as number),
    b: (rng) => 4 * (int(1, 50)(rng) as number),
  },
  body_mass_index: { weight_kg: int(45, 120), height_m: dec(1.5, 2, 2) },
  random_integer: { min: int(1, 50), max: int(51, 1000) },
  roll_dice: { count: int(1, 6), sides: pick([4, 6, 8, 10, 12, 20]) },
  random_password: { length: int(8, 24) },
  base64_decode: { data: (rng) => Buffer.from(String(text(rng))).toString("base64") },
  url_decode: { text: (rng) => encodeURIComponent(String(text(rng))) },
  csv_column_sum: { path: pick(["sales.csv"]), column: pick(["units", "revenue"]) },
  csv_column_max: { path: pick(["sales.csv"]), column: pick(["units", "revenue"]) },
  csv_row_count: { path: pick(["sales.csv"]) },
  json_get: {
    path: pick(["config.json"]),
    key: pick(["name", "version", "server.host", "server.port", "retries"]),
  },
  json_keys: { path: pick(["config.json"]) },
  write_file: { path: pick(["memo.txt", "hello.txt", "draft.md", "out.txt", "list.txt", "shopping.md"]) },
  days_in_month: { year: int(1900, 2100), month: int(1, 12) },
};

const BY_NAME: Record<string, Pool> = {
  text,
  content: text,
  pattern: pick(PATTERNS),
  replacement: pick(REPLACEMENTS),
  path: pick(FILES),
  seed: (rng) => (rng.next() < 0.5 ? int(1, 99)(rng) : int(100, 9999)(rng)),
  date,
  start: date,
  end: date,
  datetime,
  days: int(1, 400),
  year: int(1900, 2100),
  month: int(1, 12),
  lat1: dec(-60, 70, 2),
  lat2: dec(-60, 70, 2),
  lon1: dec(-170, 170, 2),
  lon2: dec(-170, 170, 2),
};

const number: Pool = (rng) => {
  const r = rng.next();
  if (r < 0.35) return 1 + rng.int(20);
  if (r < 0.75) return 2 + rng.int(998);
  return dec(0.5, 500, 2)(rng);
};

/** A question's slots: the call's arguments and how the question writes each of them. */
export interface DrawnSlots {
  arguments: Record<string, string | number>;
  text: Record<string, string>;
}

/** How `name` of `tool` is written in a question, given the argument's value. */
function written(tool: Tool, name: string, value: string | number, rng: Rng): string {
  const schema = tool.parameters.properties[name]!;
  if (schema.enum) return enumText(String(value), rng);
  if (typeof value === "number") {
    if (name === "month") return monthText(value, rng);
    if (name === "year" || name === "seed" || /^(lat|lon)/.test(name)) return String(value);
    return numberText(value, rng);
  }
  if (name === "text" || name === "content" || name === "word" || name === "data") {
    const oneWord = !/\s/.test(value);
    return oneWord && rng.next() < 0.3 ? value : quoted(value, rng);
  }
  if (name === "pattern" || name === "replacement") return `"${value}"`;
  return value;
}

/** Draws one value for each parameter of `tool` (all of them, in the schema's order) and writes it. */
export function drawSlots(tool: Tool, rng: Rng): DrawnSlots {
  const args: Record<string, string | number> = {};
  for (const [name, schema] of Object.entries(tool.parameters.properties)) {
    const pool =
      BY_TOOL[tool.name]?.[name] ??
      BY_NAME[name] ??
      (schema.enum ? pick(valuesOf(schema.enum as (string | number)[])) : undefined) ??
      (schema.type === "integer" ? int(2, 999) : schema.type === "number" ? number : pick(PHRASES));
    let value = pool(rng);
    // Conversions and distances between a thing and itself make dull questions.
    for (let tries = 0; tries < 10 && Object.values(args).includes(value) && schema.enum; tries++)
      value = pool(rng);
    args[name] = value;
  }
  if (tool.name === "count_occurrences") args.word = pick((args.text as string).split(" "))(rng);
  const text: Record<string, string> = {};
  for (const [name, value] of Object.entries(args)) text[name] = written(tool, name, value, rng);
  // Dates are passed as written: the calendar tools read the forms people type.
  for (const name of ["date", "start", "end"]) {
    if (typeof args[name] === "string" && tool.parameters.properties[name]) {
      args[name] = dateText(args[name], rng);
      text[name] = args[name];
    }
  }
  if (typeof args.datetime === "string") {
    const [day, time] = args.datetime.split("T") as [string, string];
    if (rng.next() < 0.5) args.datetime = `${day} ${time}`;
    text.datetime = args.datetime;
  }
  return { arguments: args, text };
}

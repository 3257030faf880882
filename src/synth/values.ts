import type { JsonSchema } from "../tools/types.ts";
import { validateArguments } from "../tools/validate.ts";
import { isPlainObject } from "../plain-object.ts";
import { MONTHS, numberWords } from "./english.ts";
import { madeUpText, madeUpWord } from "./made-up.ts";
import type { SynthRng } from "./rng.ts";
import type { ValuePool } from "./value-pool.ts";
import { pooledValue } from "./value-pool.ts";
import { nameWords } from "./words.ts";

/** A value drawn for a schema and how the question writes it (`text` is empty when nothing is written). */
export interface DrawnValue {
  value: unknown;
  text: string;
}

/** What a draw knows beyond the schema: the catalog's value pool (optional) and the parameter's name. */
export interface DrawContext {
  pool?: ValuePool;
  name?: string;
}

/** Optional properties of a drawn object each appear with this chance (at most three of them). */
const OPTIONAL_SHARE = 0.35;
const MAX_OPTIONAL = 3;
const TRIES = 6;

/** The schema's one type: the first non-null of a list; inferred from the keywords when not given. */
function typeOf(schema: JsonSchema): string {
  const t = Array.isArray(schema.type) ? schema.type.find((x) => x !== "null") : schema.type;
  if (typeof t === "string") return t;
  if (schema.properties !== undefined) return "object";
  if (schema.items !== undefined) return "array";
  return "string";
}

function valid(value: unknown, schema: JsonSchema): boolean {
  return validateArguments(value, schema).length === 0;
}

const pad = (n: number) => String(n).padStart(2, "0");
const ordinal = (d: number) =>
  `${d}${d % 10 === 1 && d !== 11 ? "st" : d % 10 === 2 && d !== 12 ? "nd" : d % 10 === 3 && d !== 13 ? "rd" : "th"}`;

/** A date written one of the ways people write dates (numeric day/month only where it cannot be misread). */
export function dateText(y: number, m: number, d: number, rng: SynthRng): string {
  const month = MONTHS[m - 1]!;
  const forms = [
    `${y}-${pad(m)}-${pad(d)}`,
    `${y}-${pad(m)}-${pad(d)}`,
    `${month} ${d}, ${y}`,
    `${month} ${ordinal(d)}, ${y}`,
    `${d} ${month} ${y}`,
    `${month.slice(0, 3)} ${d} ${y}`,
    `the ${ordinal(d)} of ${month} ${y}`,
    d > 12 ? `${d}/${m}/${y}` : `${m}/${d}/${y}`,
  ];
  return rng.pick(forms);
}

/** A number as a person types it: digits, words for small whole numbers, 1,234 for thousands. */
export function numberText(n: number, rng: SynthRng): string {
  const words = numberWords(n, rng.chance(0.7) ? "-" : " ");
  if (words !== undefined && n <= 100 && rng.chance(0.25)) return words;
  if (Number.isInteger(n) && n >= 1000 && n < 1e7 && rng.chance(0.2)) return n.toLocaleString("en-US");
  return String(n);
}

/** Text quoted the ways people quote, or left bare. */
function maybeQuoted(text: string, rng: SynthRng): string {
  const r = rng.next();
  if (r < 0.3) return `"${text}"`;
  if (r < 0.45) return `'${text}'`;
  if (r < 0.5) return `“${text}”`;
  return text;
}

/** Example values a description gives ("e.g. London", "such as 'USD'", a quoted word). */
export function examplesIn(description: string | undefined): string[] {
  if (!description) return [];
  const out: string[] = [];
  const patterns = [
    /\be\.?g\.?,?:?\s*['"“]?([^'"”,;()\n]+)/gi,
    /\bfor example,?:?\s*['"“]?([^'"”,;()\n]+)/gi,
    /\bsuch as\s+['"“]?([^'"”,;()\n]+)/gi,
    // a quoted word, not the text between two apostrophes ("the user's name and the city's")
    /(?:^|[\s(:,=])['"“]([^'"”\n]{1,30})['"”](?=$|[\s),.;:])/g,
  ];
  for (const pattern of patterns) {
    for (const m of description.matchAll(pattern)) {
      const text = m[1]!.trim().replace(/[.:]+$/, "");
      if (text !== "" && text.split(/\s+/).length <= 4) out.push(text);
    }
  }
  return [...new Set(out)];
}

function stringCandidates(schema: JsonSchema): string[] {
  const listed = [
    ...(Array.isArray(schema.examples) ? schema.examples : []),
    schema.example,
    schema.default,
  ].filter((v): v is string => typeof v === "string" && v.trim() !== "" && v.length <= 60);
  return [...listed, ...examplesIn(schema.description)];
}

function drawFormatted(format: string, rng: SynthRng): DrawnValue | undefined {
  const y = 2015 + rng.int(16);
  const m = 1 + rng.int(12);
  const d = 1 + rng.int(28);
  const hh = rng.int(24);
  const mm = rng.pick([0, 15, 30, 45, rng.int(60)]);
  switch (format) {
    case "date":
      return { value: `${y}-${pad(m)}-${pad(d)}`, text: dateText(y, m, d, rng) };
    case "date-time": {
      const value = `${y}-${pad(m)}-${pad(d)}T${pad(hh)}:${pad(mm)}:00Z`;
      return {
        value,
        text: rng.chance(0.5) ? value : `${dateText(y, m, d, rng)} at ${pad(hh)}:${pad(mm)} UTC`,
      };
    }
    case "time": {
      const value = `${pad(hh)}:${pad(mm)}:00Z`;
      return { value, text: value };
    }
    case "email": {
      const value = `${madeUpWord(rng, false)}.${madeUpWord(rng, false)}@${madeUpWord(rng, false)}.com`;
      return { value, text: value };
    }
    case "uri":
    case "url": {
      const value = `https://www.${madeUpWord(rng, false)}.com/${madeUpWord(rng, false)}`;
      return { value, text: value };
    }
    case "ipv4": {
      const value = [10 + rng.int(180), rng.int(256), rng.int(256), 1 + rng.int(254)].join(".");
      return { value, text: value };
    }
    case "uuid": {
      const hex = (n: number) => Array.from({ length: n }, () => "0123456789abcdef"[rng.int(16)]).join("");
      const value = `${hex(8)}-${hex(4)}-4${hex(3)}-a${hex(3)}-${hex(12)}`;
      return { value, text: value };
    }
    default:
      return undefined;
  }
}

/** A value in the format a description asks for ("in the format YYYY-MM-DD", "MM/DD/YYYY", "HH:MM"). */
function drawDescribedFormat(description: string | undefined, rng: SynthRng): DrawnValue | undefined {
  if (!description) return undefined;
  const y = 2015 + rng.int(16);
  const m = 1 + rng.int(12);
  const d = 1 + rng.int(28);
  const hh = pad(rng.int(24));
  const mm = pad(rng.pick([0, 15, 30, 45, rng.int(60)]));
  if (/yyyy-mm-dd[ t]hh:mm(:ss)?|iso[ -]?8601/i.test(description)) {
    const value = `${y}-${pad(m)}-${pad(d)}T${hh}:${mm}:00`;
    return { value, text: value };
  }
  if (/yyyy-mm-dd/i.test(description))
    return { value: `${y}-${pad(m)}-${pad(d)}`, text: dateText(y, m, d, rng) };
  const shown = (value: string) => ({ value, text: value });
  if (/mm\/dd\/yyyy/i.test(description)) return shown(`${pad(m)}/${pad(d)}/${y}`);
  if (/dd\/mm\/yyyy/i.test(description)) return shown(`${pad(d)}/${pad(m)}/${y}`);
  if (/dd-mm-yyyy/i.test(description)) return shown(`${pad(d)}-${pad(m)}-${y}`);
  if (/hh:mm:ss/i.test(description)) return shown(`${hh}:${mm}:00`);
  if (/hh:mm/i.test(description)) return shown(`${hh}:${mm}`);
  return undefined;
}

function drawString(schema: JsonSchema, rng: SynthRng, ctx: DrawContext): DrawnValue | undefined {
  if (typeof schema.format === "string") {
    const formatted = drawFormatted(schema.format, rng);
    if (formatted && valid(formatted.value, schema)) return formatted;
  }
  const described = drawDescribedFormat(schema.description, rng);
  if (described && valid(described.value, schema)) return described;
  const candidates = stringCandidates(schema).filter((c) => valid(c, schema));
  for (let i = 0; i < TRIES; i++) {
    const value =
      candidates.length > 0 && (rng.chance(0.4) || schema.pattern !== undefined)
        ? rng.pick(candidates)
        : ((ctx.pool && pooledValue(ctx.pool, ctx.name ?? "", rng)) ?? madeUpText(rng));
    if (valid(value, schema)) return { value, text: maybeQuoted(value, rng) };
  }
  return undefined;
}

function bound(schema: JsonSchema, integer: boolean): { lo?: number; hi?: number } {
  const step = integer ? 1 : 0.01;
  const num = (k: string) => (typeof schema[k] === "number" ? (schema[k] as number) : undefined);
  const exMin = num("exclusiveMinimum");
  const exMax = num("exclusiveMaximum");
  return {
    lo: num("minimum") ?? (exMin !== undefined ? exMin + step : undefined),
    hi: num("maximum") ?? (exMax !== undefined ? exMax - step : undefined),
  };
}

function drawNumber(schema: JsonSchema, integer: boolean, rng: SynthRng): DrawnValue | undefined {
  if (typeof schema.default === "number" && rng.chance(0.2) && valid(schema.default, schema))
    return { value: schema.default, text: numberText(schema.default, rng) };
  const { lo, hi } = bound(schema, integer);
  for (let i = 0; i < TRIES; i++) {
    const a = lo ?? (hi !== undefined ? Math.min(1, hi) : integer ? 1 : 0.5);
    let b = hi ?? a + (rng.chance(0.8) ? 99 : 4999);
    const scale = rng.chance(0.5) ? 10 : 100;
    if (b < a) b = a;
    if (b - a > 10000) b = a + (rng.chance(0.8) ? 100 : 10000);
    let value = integer
      ? Math.ceil(a) + rng.int(Math.floor(b) - Math.ceil(a) + 1)
      : Math.round((a + rng.next() * (b - a)) * scale) / scale;
    if (!integer && !Number.isFinite(value)) value = a;
    if (!integer) value = Number(Math.min(b, Math.max(a, value)).toFixed(2));
    const multiple = schema.multipleOf;
    if (typeof multiple === "number" && multiple > 0)
      value = Number((Math.round(value / multiple) * multiple).toFixed(6));
    if (valid(value, schema)) return { value, text: numberText(value, rng) };
  }
  return undefined;
}

/** A list as written: "a, b and c", "a, b, c". */
function listText(texts: string[], rng: SynthRng): string {
  const shown = texts.filter((t) => t !== "");
  if (shown.length < 2) return shown.join("");
  return rng.chance(0.6)
    ? `${shown.slice(0, -1).join(", ")} and ${shown[shown.length - 1]!}`
    : shown.join(", ");
}

function drawArray(
  schema: JsonSchema,
  rng: SynthRng,
  depth: number,
  ctx: DrawContext,
): DrawnValue | undefined {
  const itemSchema: JsonSchema = Array.isArray(schema.items) ? (schema.items[0] ?? {}) : (schema.items ?? {});
  const min = typeof schema.minItems === "number" ? schema.minItems : 1;
  const max = Math.max(min, Math.min(typeof schema.maxItems === "number" ? schema.maxItems : 3, min + 2));
  const n = min + rng.int(max - min + 1);
  const values: unknown[] = [];
  const texts: string[] = [];
  for (let tries = 0; values.length < n && tries < n * TRIES; tries++) {
    const item = drawValue(itemSchema, rng, depth + 1, ctx);
    if (item === undefined) return undefined;
    if (values.some((v) => JSON.stringify(v) === JSON.stringify(item.value))) continue;
    values.push(item.value);
    texts.push(item.text);
  }
  return valid(values, schema) ? { value: values, text: listText(texts, rng) } : undefined;
}

/** The properties of an object drawn: every required one, optional ones by chance; each as "<name> <text>". */
export function drawProperties(
  schema: JsonSchema,
  rng: SynthRng,
  depth = 0,
  pool?: ValuePool,
):
  | { value: Record<string, unknown>; parts: { name: string; schema: JsonSchema; text: string }[] }
  | undefined {
  const properties = isPlainObject(schema.properties)
    ? (schema.properties as Record<string, JsonSchema>)
    : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  const optional = rng
    .shuffle(Object.keys(properties).filter((k) => !required.has(k)))
    .filter(() => rng.chance(OPTIONAL_SHARE))
    .slice(0, MAX_OPTIONAL);
  const value: Record<string, unknown> = {};
  const parts: { name: string; schema: JsonSchema; text: string }[] = [];
  for (const name of Object.keys(properties)) {
    if (!required.has(name) && !optional.includes(name)) continue;
    const drawn = drawValue(properties[name] ?? {}, rng, depth + 1, { pool, name });
    if (drawn === undefined) {
      if (required.has(name)) return undefined;
      continue;
    }
    value[name] = drawn.value;
    parts.push({ name, schema: properties[name] ?? {}, text: drawn.text });
  }
  for (const name of required) if (!(name in properties)) return undefined; // required but undescribed
  return { value, parts };
}

function drawObject(
  schema: JsonSchema,
  rng: SynthRng,
  depth: number,
  ctx: DrawContext,
): DrawnValue | undefined {
  const drawn = drawProperties(schema, rng, depth, ctx.pool);
  if (drawn === undefined || !valid(drawn.value, schema)) return undefined;
  const text = drawn.parts
    .filter((p) => p.text !== "")
    .map((p) => `${nameWords(p.name)} ${p.text}`)
    .join(", ");
  return { value: drawn.value, text };
}

/** A value for `schema` and its text in a question, or undefined when none can be drawn that validates. */
export function drawValue(
  schema: JsonSchema,
  rng: SynthRng,
  depth = 0,
  ctx: DrawContext = {},
): DrawnValue | undefined {
  if (depth > 4) return undefined;
  if ("const" in schema) return { value: schema.const, text: String(schema.const) };
  const members = Array.isArray(schema.enum) ? schema.enum.filter((v) => v !== null) : [];
  if (members.length > 0) {
    const value = rng.pick(members);
    return { value, text: typeof value === "string" ? maybeQuoted(value, rng) : String(value) };
  }
  const branches = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (Array.isArray(branches) && branches.length > 0) {
    for (const branch of rng.shuffle(branches)) {
      if (branch.type === "null") continue;
      const drawn = drawValue(branch, rng, depth, ctx);
      if (drawn && valid(drawn.value, schema)) return drawn;
    }
    return undefined;
  }
  switch (typeOf(schema)) {
    case "integer":
      return drawNumber(schema, true, rng);
    case "number":
      // a number is often a whole one in practice (a year, a count): half of them are drawn whole
      return drawNumber(schema, rng.chance(0.5) && schema.multipleOf === undefined, rng);
    case "boolean": {
      const value = rng.chance(0.5);
      return { value, text: rng.chance(0.6) ? String(value) : value ? "yes" : "no" };
    }
    case "array":
      return drawArray(schema, rng, depth, ctx);
    case "object":
      return drawObject(schema, rng, depth, ctx);
    case "null":
      return undefined;
    default:
      return drawString(schema, rng, ctx);
  }
}

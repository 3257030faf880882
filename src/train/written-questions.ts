/**
 * Questions people wrote by hand over a catalog, with the calls that answer them (data/written-questions/): read,
 * checked against the catalog, split by a fixed hash of the id into training and held-out, and offered with
 * distractors as synth offers its own (so they reach the caller's training as synth questions do: callerExamples).
 * Synth writes values at clause ends, one request at a time; people put several requests' values mid-sentence.
 */
import { readFileSync } from "node:fs";
import type { CatalogEntry } from "../catalog/catalog.ts";
import { ToolgenError } from "../errors.ts";
import type { JsonSchema } from "../tools/types.ts";
import type { LabelledItem } from "./caller-data.ts";

/** One written question: `calls[].name` a catalog id (`tool&&api` for StableToolBench), in the asked order. */
export interface WrittenQuestion {
  id: string;
  question: string;
  calls: { name: string; arguments: Record<string, unknown> }[];
}

/** Every fifth question by the hash of its id is held out: never trained on, scored (scripts/written-held-out.ts). */
export const HELD_OUT_EVERY = 5;

/** 32-bit FNV-1a of the id: a split that stays put as files grow and lines move. */
function idHash(id: string): number {
  let h = 0x811c9dc5;
  for (const ch of new TextEncoder().encode(id)) h = Math.imul(h ^ ch, 0x01000193) >>> 0;
  return h;
}

export function writtenSplit(id: string): "train" | "held-out" {
  return idHash(id) % HELD_OUT_EVERY === 0 ? "held-out" : "train";
}

const kindOf = (v: unknown): string =>
  Array.isArray(v) ? "array" : v === null ? "null" : typeof v === "object" ? "object" : typeof v;

/** Why a value does not fit its parameter, or undefined: the declared type, and string values written in the question. */
function valueProblem(value: unknown, schema: JsonSchema, question: string): string | undefined {
  const type = String(schema.type ?? "");
  const kind = kindOf(value);
  const fits =
    type === "" ||
    (type === "integer" ? kind === "number" && Number.isInteger(value) : type === kind) ||
    (type === "number" && kind === "number");
  if (!fits) return `a ${kind} where the schema declares ${type}`;
  const texts = kind === "string" ? [value as string] : kind === "array" ? (value as unknown[]) : [];
  const missing = texts.find((t) => typeof t === "string" && !question.includes(t));
  return missing === undefined ? undefined : `${JSON.stringify(missing)} is not written in the question`;
}

/** The problems of one question against the catalog (empty: usable). */
function problems(q: WrittenQuestion, byId: ReadonlyMap<string, CatalogEntry>): string[] {
  const out: string[] = [];
  if (!Array.isArray(q.calls) || q.calls.length === 0) return ["no calls"];
  for (const call of q.calls) {
    const entry = byId.get(call.name);
    if (!entry) {
      out.push(`unknown function ${JSON.stringify(call.name)}`);
      continue;
    }
    const props = (entry.parameters.properties ?? {}) as Record<string, JsonSchema>;
    for (const r of entry.parameters.required ?? [])
      if (!(r in (call.arguments ?? {}))) out.push(`${call.name}: required parameter ${r} missing`);
    for (const [k, v] of Object.entries(call.arguments ?? {})) {
      const schema = props[k];
      if (!schema) out.push(`${call.name}: unknown parameter ${JSON.stringify(k)}`);
      else {
        const why = valueProblem(v, schema, q.question);
        if (why) out.push(`${call.name}.${k}: ${why}`);
      }
    }
  }
  return out;
}

/**
 * The questions of a JSON-lines file (`{"id","question","calls":[{"name","arguments"}]}` a line), each checked
 * against `catalog`: a line that is not JSON, names an unknown function or parameter, lacks a required parameter,
 * gives a value of another type than declared or a text the question does not write is an error naming the line.
 */
export function readWrittenQuestions(file: string, catalog: readonly CatalogEntry[]): WrittenQuestion[] {
  const byId = new Map(catalog.map((e) => [e.id, e]));
  const out: WrittenQuestion[] = [];
  const ids = new Set<string>();
  readFileSync(file, "utf8")
    .split("\n")
    .forEach((line, i) => {
      if (line.trim() === "") return;
      const where = `${file}:${i + 1}`;
      let q: WrittenQuestion;
      try {
        q = JSON.parse(line) as WrittenQuestion;
      } catch (error) {
        throw new ToolgenError("invalid_input", `${where}: not valid JSON (${(error as Error).message})`);
      }
      if (typeof q.id !== "string" || typeof q.question !== "string" || q.question.trim() === "")
        throw new ToolgenError("invalid_input", `${where}: wants a string id and a question`);
      if (ids.has(q.id)) throw new ToolgenError("invalid_input", `${where}: id ${q.id} given twice`);
      ids.add(q.id);
      const bad = problems(q, byId);
      if (bad.length > 0) throw new ToolgenError("invalid_input", `${where} (${q.id}): ${bad.join("; ")}`);
      out.push({ id: q.id, question: q.question, calls: q.calls });
    });
  return out;
}

/**
 * The questions as labelled items (synth's shape: catalog ids), each offered with the tools `offer` draws for its
 * called ids (synth's distractorOffer, src/synth/offer.ts; passed in, as train does not import synth).
 */
export function writtenItems(
  questions: readonly WrittenQuestion[],
  offer: (called: readonly string[]) => string[],
): LabelledItem[] {
  return questions.map((q) => ({
    question: q.question,
    calls: q.calls.map((c) => ({ name: c.name, arguments: c.arguments })),
    tools: offer(q.calls.map((c) => c.name)),
  }));
}

import type { CatalogEntry } from "../catalog/catalog.ts";
import { ToolgenError } from "../errors.ts";
import { validateArguments } from "../tools/validate.ts";
import { AGAIN, JOINERS } from "./english.ts";
import { catalogNameWords, offTopicQuestion } from "./off-topic.ts";
import {
  argumentClauses,
  requestSegments,
  segmentsText,
  styled,
  toolPhrase,
  type Segment,
} from "./phrase.ts";
import { SynthRng } from "./rng.ts";
import type { SynthCall, SynthItem, SynthOptions } from "./types.ts";
import { drawProperties } from "./values.ts";

export const DEFAULT_MULTI_CALL_SHARE = 0.15;
export const DEFAULT_DECLINE_SHARE = 0.1;
export const DEFAULT_DISTRACTORS = 3;
/** Draws per question before a tool is given up on (its schema admits no value the generator can write). */
const TRIES = 8;

/** What `synthesizeWithReport` adds: the tools no valid call could be drawn for (ids). */
export interface SynthReport {
  items: SynthItem[];
  unusable: string[];
}

function checkOptions(o: SynthOptions): void {
  const bad = (what: string) => {
    throw new ToolgenError("invalid_option", what);
  };
  if (!Number.isInteger(o.seed) || o.seed < 0) bad(`seed must be a non-negative integer, got ${o.seed}`);
  if (!Number.isInteger(o.perTool) || o.perTool < 1)
    bad(`perTool must be a whole number ≥ 1, got ${o.perTool}`);
  for (const [name, v] of [
    ["multiCallShare", o.multiCallShare],
    ["declineShare", o.declineShare],
  ] as const) {
    if (v !== undefined && !(Number.isFinite(v) && v >= 0 && v <= 1))
      bad(`${name} must be a number in [0, 1], got ${v}`);
  }
  if (o.distractors !== undefined && !(Number.isInteger(o.distractors) && o.distractors >= 0))
    bad(`distractors must be a whole number ≥ 0, got ${o.distractors}`);
}

/** A call for `entry` with its arguments' texts; undefined when no drawn call validates. */
function drawCall(entry: CatalogEntry, rng: SynthRng) {
  for (let i = 0; i < TRIES; i++) {
    const drawn = drawProperties(entry.parameters, rng);
    if (drawn === undefined) continue;
    if (validateArguments(drawn.value, entry.parameters).length > 0) continue;
    return { call: { name: entry.id, arguments: drawn.value } satisfies SynthCall, parts: drawn.parts };
  }
  return undefined;
}

function normalize(question: string): string {
  return question
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
}

function withoutTrailingStop(segments: Segment[]): Segment[] {
  const last = segments[segments.length - 1]!;
  if (last.value || !/[.?]$/.test(last.text)) return segments;
  return [...segments.slice(0, -1), { text: last.text.replace(/[.?]+$/, "") }];
}

/**
 * Labelled questions for every tool of `catalog` (README.md): `perTool` one-call questions per tool, two-call
 * and decline questions as shares of them, each offered with distractors. The same catalog and options give the
 * same items.
 */
export function synthesize(catalog: readonly CatalogEntry[], options: SynthOptions): SynthItem[] {
  return synthesizeWithReport(catalog, options).items;
}

export function synthesizeWithReport(catalog: readonly CatalogEntry[], options: SynthOptions): SynthReport {
  checkOptions(options);
  if (catalog.length === 0) throw new ToolgenError("invalid_input", "the catalog has no tools");
  const rng = new SynthRng(options.seed);
  const distractors = Math.min(options.distractors ?? DEFAULT_DISTRACTORS, catalog.length - 1);
  const items: SynthItem[] = [];
  const seen = new Set<string>();
  const unusable = new Set<string>();
  const usable: CatalogEntry[] = [];

  // Near tools make harder distractors: half are drawn from the called tools' neighbours (the same tool's other
  // APIs, the same category) where the catalog has them.
  const neighbours = new Map<string, CatalogEntry[]>();
  for (const e of catalog) {
    for (const key of [`tool:${e.tool}`, `category:${e.category ?? ""}`]) {
      const list = neighbours.get(key) ?? [];
      list.push(e);
      neighbours.set(key, list);
    }
  }
  const byId = new Map(catalog.map((e) => [e.id, e]));
  const offer = (called: string[]): string[] => {
    const others = new Set<string>();
    const pool = catalog.length - new Set(called).size;
    const near = called.flatMap((id) => {
      const e = byId.get(id)!;
      const sameTool = neighbours.get(`tool:${e.tool}`)!;
      return sameTool.length > 1 ? sameTool : e.category ? neighbours.get(`category:${e.category}`)! : [];
    });
    for (let tries = 0; others.size < Math.min(distractors, pool) && tries < distractors * 20; tries++) {
      const from = near.length > 0 && rng.chance(0.5) ? near : catalog;
      const id = from[rng.int(from.length)]!.id;
      if (!called.includes(id)) others.add(id);
    }
    return rng.shuffle([...new Set(called), ...others]);
  };
  const add = (segments: Segment[], calls: SynthCall[]): boolean => {
    const question = segmentsText(segments);
    const key = normalize(question);
    if (question === "" || seen.has(key)) return false;
    seen.add(key);
    items.push({ id: `synth-${items.length}`, question, calls, tools: offer(calls.map((c) => c.name)) });
    return true;
  };

  // One-call questions, perTool per tool.
  for (const entry of catalog) {
    let made = 0;
    for (let tries = 0; made < options.perTool && tries < options.perTool * TRIES; tries++) {
      const drawn = drawCall(entry, rng);
      if (drawn === undefined) break;
      const segments = styled(requestSegments(toolPhrase(entry, rng), drawn.parts, rng), rng);
      if (add(segments, [drawn.call])) made++;
    }
    if (made === 0) unusable.add(entry.id);
    else usable.push(entry);
  }
  const single = items.length;

  // Two-call questions: the same tool again with other values, or a second tool.
  const multi = Math.round(single * (options.multiCallShare ?? DEFAULT_MULTI_CALL_SHARE));
  for (let made = 0, tries = 0; made < multi && usable.length > 0 && tries < multi * TRIES; tries++) {
    const first = usable[rng.int(usable.length)]!;
    const a = drawCall(first, rng);
    if (a === undefined) continue;
    const opening = withoutTrailingStop(requestSegments(toolPhrase(first, rng), a.parts, rng));
    const again = rng.chance(0.35) && a.parts.some((p) => p.text !== "");
    let segments: Segment[];
    let calls: SynthCall[];
    if (again) {
      const b = drawCall(first, rng);
      if (b === undefined || JSON.stringify(b.call) === JSON.stringify(a.call)) continue;
      const clauses = argumentClauses(b.parts, rng);
      if (clauses.length === 0) continue;
      segments = [...opening, { text: rng.pick(AGAIN) }, ...clauses];
      calls = [a.call, b.call];
    } else {
      const second = usable[rng.int(usable.length)]!;
      const b = drawCall(second, rng);
      if (b === undefined || JSON.stringify(b.call) === JSON.stringify(a.call)) continue;
      const follow = requestSegments(toolPhrase(second, rng), b.parts, rng, true);
      const joiner = rng.pick(JOINERS);
      segments = [...opening, { text: joiner }, ...follow];
      calls = [a.call, b.call];
    }
    if (add(styled(segments, rng), calls)) made++;
  }

  // Decline questions: everyday requests that name no tool of the catalog.
  const declines = Math.round(single * (options.declineShare ?? DEFAULT_DECLINE_SHARE));
  const forbidden = catalogNameWords(catalog);
  for (let made = 0, tries = 0; made < declines && tries < declines * TRIES; tries++) {
    const text = offTopicQuestion(rng, forbidden);
    if (text === undefined) break;
    if (add(styled([{ text }], rng), [])) made++;
  }
  return { items, unusable: [...unusable] };
}

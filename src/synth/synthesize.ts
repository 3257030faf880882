import type { CatalogEntry } from "../catalog/catalog.ts";
import { ToolgenError } from "../errors.ts";
import { validateArguments } from "../tools/validate.ts";
import { AGAIN, JOINERS } from "./english.ts";
import { linkOpening, requestJoiner } from "./link-marks.ts";
import { catalogNameWords, offTopicQuestion } from "./off-topic.ts";
import {
  argumentClauses,
  requestSegments,
  segmentsText,
  styled,
  toolPhrase,
  withoutTrailingStop,
  type Segment,
} from "./phrase.ts";
import { MULTI_SHAPES, shapedCalls } from "./multi-shapes.ts";
import { distractorOffer } from "./offer.ts";
import { SynthRng } from "./rng.ts";
import type { SynthCall, SynthItem, SynthOptions } from "./types.ts";
import type { ValuePool } from "./value-pool.ts";
import { drawProperties } from "./values.ts";
import { nameWords } from "./words.ts";

export const DEFAULT_MULTI_CALL_SHARE = 0.15;
export const DEFAULT_DECLINE_SHARE = 0.1;
export const DEFAULT_DISTRACTORS = 3;
export const DEFAULT_MAX_CALLS = 2;
export const DEFAULT_SAME_TOOL_SHARE = 0.35;
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
    ["sameToolShare", o.sameToolShare],
    ["inlineShare", o.inlineShare],
    ["pairedShare", o.pairedShare],
    ["listedToolShare", o.listedToolShare],
    ["shapeShare", o.shapeShare],
    ["linkMarkShare", o.linkMarkShare],
    ["linkLeadShare", o.linkLeadShare],
  ] as const) {
    if (v !== undefined && !(Number.isFinite(v) && v >= 0 && v <= 1))
      bad(`${name} must be a number in [0, 1], got ${v}`);
  }
  if (o.distractors !== undefined && !(Number.isInteger(o.distractors) && o.distractors >= 0))
    bad(`distractors must be a whole number ≥ 0, got ${o.distractors}`);
  if (o.maxCalls !== undefined && !(Number.isInteger(o.maxCalls) && o.maxCalls >= 2 && o.maxCalls <= 8))
    bad(`maxCalls must be a whole number from 2 to 8, got ${o.maxCalls}`);
}

/** A call for `entry` with its arguments' texts; undefined when no drawn call validates. */
function drawCall(entry: CatalogEntry, rng: SynthRng, pool?: ValuePool) {
  for (let i = 0; i < TRIES; i++) {
    const drawn = drawProperties(entry.parameters, rng, 0, pool);
    if (drawn === undefined) continue;
    if (validateArguments(drawn.value, entry.parameters).length > 0) continue;
    return { call: { name: entry.id, arguments: drawn.value } satisfies SynthCall, parts: drawn.parts };
  }
  return undefined;
}

type Drawn = NonNullable<ReturnType<typeof drawCall>>;
const sameCall = (a: SynthCall, b: SynthCall) => JSON.stringify(a) === JSON.stringify(b);

/** Two calls (the generator's original form, kept draw for draw): the same tool again, or a second tool. */
function twoCalls(
  usable: readonly CatalogEntry[],
  rng: SynthRng,
  pool?: ValuePool,
  inline = 0,
  linkShare = 0,
): { segments: Segment[]; calls: SynthCall[] } | undefined {
  const first = usable[rng.int(usable.length)]!;
  const a = drawCall(first, rng, pool);
  if (a === undefined) return undefined;
  const opening = withoutTrailingStop(requestSegments(toolPhrase(first, rng), a.parts, rng, false, inline));
  const again = rng.chance(DEFAULT_SAME_TOOL_SHARE) && a.parts.some((p) => p.text !== "");
  if (again) {
    const b = drawCall(first, rng, pool);
    if (b === undefined || sameCall(b.call, a.call)) return undefined;
    const clauses = argumentClauses(b.parts, rng, false, inline);
    if (clauses.length === 0) return undefined;
    const again = requestJoiner(rng, linkShare, AGAIN);
    return { segments: [...opening, { text: again }, ...clauses], calls: [a.call, b.call] };
  }
  const second = usable[rng.int(usable.length)]!;
  const b = drawCall(second, rng, pool);
  if (b === undefined || sameCall(b.call, a.call)) return undefined;
  const follow = requestSegments(toolPhrase(second, rng), b.parts, rng, true, inline);
  const joiner = requestJoiner(rng, linkShare, JOINERS);
  return { segments: [...opening, { text: joiner }, ...follow], calls: [a.call, b.call] };
}

/** A two-call question of a shape drawn evenly from MULTI_SHAPES (multi-shapes.ts). */
function shaped(
  usable: readonly CatalogEntry[],
  rng: SynthRng,
  options: SynthOptions,
): { segments: Segment[]; calls: SynthCall[] } | undefined {
  const shape = rng.pick(MULTI_SHAPES);
  const first = usable[rng.int(usable.length)]!;
  const draw = (entry: CatalogEntry) => drawCall(entry, rng, options.valuePool);
  const a = draw(first);
  if (a === undefined) return undefined;
  const made = shapedCalls(shape, usable, first, a, rng, draw, options.inlineShare ?? 0);
  if (made === undefined || sameCall(made.calls[0]!, made.calls[1]!)) return undefined;
  return made;
}

/** "v1, v2 and v3": the values of one parameter, listed. */
function listed(texts: readonly string[], rng: SynthRng): Segment[] {
  const out: Segment[] = [];
  texts.forEach((text, i) => {
    if (i > 0) out.push({ text: i === texts.length - 1 ? rng.pick([" and ", ", and ", ", "]) : ", " });
    out.push({ text, value: true });
  });
  return out;
}

/**
 * `count` calls (2 or more): the same tool `count` times — each call's values in full, or one parameter's values
 * listed ("for X, Y and Z", the other arguments shared) — or a run of tools (repeats allowed), joined.
 */
function manyCalls(
  usable: readonly CatalogEntry[],
  count: number,
  rng: SynthRng,
  options: SynthOptions,
): { segments: Segment[]; calls: SynthCall[] } | undefined {
  const inline = options.inlineShare ?? 0;
  const first = usable[rng.int(usable.length)]!;
  const a = drawCall(first, rng, options.valuePool);
  if (a === undefined) return undefined;
  const shown = a.parts.filter((p) => p.text !== "");
  if (rng.chance(options.sameToolShare ?? DEFAULT_SAME_TOOL_SHARE) && shown.length > 0) {
    const others: Drawn[] = [];
    for (let i = 1; i < count; i++) {
      const b = drawCall(first, rng, options.valuePool);
      if (b === undefined) return undefined;
      others.push(b);
    }
    const form = rng.next();
    if (form >= 0.5 && form < 0.5 + 0.5 * (options.pairedShare ?? 0) && shown.length >= 2)
      return pairedGroups(first, a, others, shown, rng, inline);
    if (form < 0.5) return listedCalls(first, a, others, shown, rng, false, inline);
    const calls = [a.call];
    const segments = withoutTrailingStop(
      requestSegments(toolPhrase(first, rng), a.parts, rng, false, inline),
    );
    for (const b of others) {
      if (calls.some((c) => sameCall(c, b.call))) return undefined;
      const clauses = argumentClauses(b.parts, rng, false, inline);
      if (clauses.length === 0) return undefined;
      segments.push({ text: requestJoiner(rng, options.linkMarkShare ?? 0, AGAIN) }, ...clauses);
      calls.push(b.call);
    }
    return { segments, calls };
  }
  // a run of tools; with chance listedToolShare a tool's clause lists several values of one parameter (one call
  // each), as people ask one thing for several places and another thing beside it
  const listedShare = options.listedToolShare ?? 0;
  const calls: SynthCall[] = [];
  const segments: Segment[] = [];
  let entry = first;
  let drawn: Drawn | undefined = a;
  for (let tool = 0; calls.length < count || tool < 2; tool++) {
    if (tool > 0) {
      entry = usable[rng.int(usable.length)]!;
      drawn = drawCall(entry, rng, options.valuePool);
    }
    if (drawn === undefined || calls.some((c) => sameCall(c, drawn!.call))) return undefined;
    const shownHere = drawn.parts.filter((p) => p.text !== "");
    const left = count - calls.length - (tool === 0 ? 1 : 0);
    let part: { segments: Segment[]; calls: SynthCall[] } | undefined;
    if (listedShare > 0 && shownHere.length > 0 && left >= 2 && rng.chance(listedShare)) {
      const others: Drawn[] = [];
      for (let i = 1 + rng.int(Math.min(3, left - 1)); i > 0; i--) {
        const b = drawCall(entry, rng, options.valuePool);
        if (b === undefined) return undefined;
        others.push(b);
      }
      part = listedCalls(entry, drawn, others, shownHere, rng, tool > 0, inline);
      if (part === undefined) return undefined;
    } else {
      const phrase = requestSegments(toolPhrase(entry, rng), drawn.parts, rng, tool > 0, inline);
      part = { segments: withoutTrailingStop(phrase), calls: [drawn.call] };
    }
    if (part.calls.some((c) => calls.some((d) => sameCall(c, d)))) return undefined;
    if (tool > 0) segments.push({ text: requestJoiner(rng, options.linkMarkShare ?? 0, JOINERS) });
    segments.push(...part.segments);
    calls.push(...part.calls);
  }
  return { segments, calls };
}

/**
 * One parameter varies: its values listed in one clause ("for X, Y and Z"), the rest said once; a call per value.
 * `following`: the request goes on a question already begun (requestSegments' plain form).
 */
function listedCalls(
  first: CatalogEntry,
  a: Drawn,
  others: readonly Drawn[],
  shown: readonly Drawn["parts"][number][],
  rng: SynthRng,
  following: boolean,
  inline = 0,
): { segments: Segment[]; calls: SynthCall[] } | undefined {
  const varied = rng.pick(shown);
  const calls = [a.call];
  const texts = [varied.text];
  for (const b of others) {
    const part = b.parts.find((p) => p.name === varied.name);
    if (part === undefined || part.text === "" || texts.includes(part.text)) return undefined;
    const args = { ...a.call.arguments, [varied.name]: b.call.arguments[varied.name] };
    const call = { name: first.id, arguments: args };
    if (validateArguments(args, first.parameters).length > 0) return undefined;
    // two texts of one value ("9", "nine") would make the same call twice
    if (calls.some((c) => sameCall(c, call))) return undefined;
    calls.push(call);
    texts.push(part.text);
  }
  const rest = a.parts.filter((p) => p !== varied);
  const phrase = toolPhrase(first, rng);
  const head = withoutTrailingStop(requestSegments(phrase, rest, rng, following, inline));
  const words = nameWords(varied.name);
  const list = listed(texts, rng);
  const tail: Segment[] = rng.pick([
    [{ text: ` for ${words} ` }, ...list],
    [{ text: ` with ${words} ` }, ...list],
    [{ text: ` for each ${words} of ` }, ...list],
    [{ text: `, ${words}: ` }, ...list],
  ]);
  return { segments: [...head, ...tail], calls };
}

/**
 * Several parameters vary together, the rest said once: the request with the shared values, then each call's
 * varied values as one group, the groups listed ("size 3000 in location New York, and 4000 Los Angeles"). Later
 * groups often drop the parameters' names, as people do once the first group has set the pattern.
 */
function pairedGroups(
  first: CatalogEntry,
  a: Drawn,
  others: readonly Drawn[],
  shown: readonly Drawn["parts"][number][],
  rng: SynthRng,
  inline = 0,
): { segments: Segment[]; calls: SynthCall[] } | undefined {
  const varied = rng.shuffle(shown).slice(0, 2 + rng.int(Math.min(3, shown.length) - 1));
  const calls = [a.call];
  const rows = [varied.map((p) => p.text)];
  for (const b of others) {
    const args = { ...a.call.arguments };
    const texts: string[] = [];
    for (const v of varied) {
      const part = b.parts.find((p) => p.name === v.name);
      if (part === undefined || part.text === "") return undefined;
      args[v.name] = b.call.arguments[v.name];
      texts.push(part.text);
    }
    // every varied value differs from call to call, so that each group tells its call
    if (rows.some((r) => r.some((t, j) => t === texts[j]))) return undefined;
    const call = { name: first.id, arguments: args };
    if (validateArguments(args, first.parameters).length > 0 || calls.some((c) => sameCall(c, call)))
      return undefined;
    calls.push(call);
    rows.push(texts);
  }
  const rest = a.parts.filter((p) => !varied.includes(p));
  const segments = withoutTrailingStop(requestSegments(toolPhrase(first, rng), rest, rng, false, inline));
  segments.push({ text: rest.some((p) => p.text !== "") ? rng.pick([", ", " and ", " "]) : " " });
  const named = rng.chance(0.5);
  const between = rng.pick([" ", ", ", " with ", " for "]);
  rows.forEach((texts, i) => {
    if (i > 0) segments.push({ text: i === rows.length - 1 ? rng.pick([" and ", ", and ", "; "]) : ", " });
    texts.forEach((text, j) => {
      if (j > 0) segments.push({ text: between });
      const words = nameWords(varied[j]!.name);
      const form = i === 0 || named ? rng.int(3) : 2;
      if (form === 0) segments.push({ text: `${words} ` }, { text, value: true });
      else if (form === 1) segments.push({ text, value: true }, { text: ` ${words}` });
      else segments.push({ text, value: true });
    });
  });
  return { segments, calls };
}

function normalize(question: string): string {
  return question
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
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

  const offer = distractorOffer(catalog, distractors, rng);
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
      const drawn = drawCall(entry, rng, options.valuePool);
      if (drawn === undefined) break;
      const request = requestSegments(
        toolPhrase(entry, rng),
        drawn.parts,
        rng,
        false,
        options.inlineShare ?? 0,
      );
      // with chance linkLeadShare the request opens with a marked link, as a later request of a longer exchange
      // ("Finally, can you …"); at 0 no draw is made
      const lead = options.linkLeadShare ?? 0;
      const opened = lead > 0 && rng.chance(lead) ? [{ text: linkOpening(rng) }, ...request] : request;
      const segments = styled(opened, rng);
      if (add(segments, [drawn.call])) made++;
    }
    if (made === 0) unusable.add(entry.id);
    else usable.push(entry);
  }
  const single = items.length;

  // Multi-call questions: the same tool again with other values, or other tools; two calls each unless
  // maxCalls allows more (then 2 to maxCalls, drawn evenly).
  const multi = Math.round(single * (options.multiCallShare ?? DEFAULT_MULTI_CALL_SHARE));
  const maxCalls = options.maxCalls ?? DEFAULT_MAX_CALLS;
  const shapeShare = options.shapeShare ?? 0;
  for (let made = 0, tries = 0; made < multi && usable.length > 0 && tries < multi * TRIES; tries++) {
    // with chance shapeShare, one of the shapes synth's forms above never write (multi-shapes.ts); at 0 no draw
    // is made, so the questions stay as before the option
    const drawn =
      shapeShare > 0 && rng.chance(shapeShare)
        ? shaped(usable, rng, options)
        : maxCalls === 2
          ? twoCalls(usable, rng, options.valuePool, options.inlineShare ?? 0, options.linkMarkShare ?? 0)
          : manyCalls(usable, 2 + rng.int(maxCalls - 1), rng, options);
    if (drawn !== undefined && add(styled(drawn.segments, rng), drawn.calls)) made++;
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

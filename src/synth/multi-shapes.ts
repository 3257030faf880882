import type { CatalogEntry } from "../catalog/catalog.ts";
import { validateArguments } from "../tools/validate.ts";
import {
  REFERENCE_JOINERS,
  REFERENCES,
  SETUP_CLOSES,
  SETUP_OPENINGS,
  SHARED_ENDS,
  SHARED_OPENINGS,
  JOINERS,
} from "./english.ts";
import {
  argumentClauses,
  requestSegments,
  toolPhrase,
  withoutTrailingStop,
  type ArgumentText,
  type Segment,
} from "./phrase.ts";
import type { SynthRng } from "./rng.ts";
import type { SynthCall } from "./types.ts";
import { nameWords } from "./words.ts";

/**
 * Two-call questions of the shapes people write and synth's other multi-call forms never do (those say each
 * call's values once, in its own part, after its tool's mention):
 * - `shared`: one value said once for both calls ("the weather and the time, both for city X"): the gold of both;
 * - `before`: the first call's values (sometimes both calls') set out before the requests ("Given density 5.2 and
 *   mass 3. Compute the volume and …"): each the gold of its own call;
 * - `refer`: the second call points back to a value of the first ("… and then convert that amount"): the value,
 *   said once in the first call's part, is the gold of both.
 * Two different tools each, so the argument scorer's multi-call groups read them (train/multi-call-groups.ts).
 */
export const MULTI_SHAPES = ["shared", "before", "refer"] as const;
export type MultiShape = (typeof MULTI_SHAPES)[number];

export interface DrawnCall {
  call: SynthCall;
  parts: ArgumentText[];
}

/** Tools tried for a second tool that takes the first one's value. */
const PARTNER_TRIES = 12;

const shown = (parts: readonly ArgumentText[]) => parts.filter((p) => p.text !== "");
const plainValue = (v: unknown) => typeof v === "string" || typeof v === "number";

const indexes = new WeakMap<readonly CatalogEntry[], Map<string, CatalogEntry[]>>();

/** The tools by their parameters' name words ("city" → the tools with a `city` or `City` parameter). */
function byParameterWords(usable: readonly CatalogEntry[]): Map<string, CatalogEntry[]> {
  let index = indexes.get(usable);
  if (index !== undefined) return index;
  index = new Map();
  for (const e of usable)
    for (const name of Object.keys((e.parameters.properties ?? {}) as Record<string, unknown>)) {
      const key = nameWords(name);
      const list = index.get(key) ?? [];
      if (list[list.length - 1] !== e) list.push(e);
      index.set(key, list);
    }
  indexes.set(usable, index);
  return index;
}

/**
 * A second tool and one of its parameters that takes the value `a` gives parameter `part` (valid under its
 * schema), with that value put in; a parameter of the same name words preferred, as people share a city between
 * two requests about a city.
 */
function partner(
  usable: readonly CatalogEntry[],
  first: CatalogEntry,
  a: DrawnCall,
  part: ArgumentText,
  rng: SynthRng,
  draw: (entry: CatalogEntry) => DrawnCall | undefined,
): { entry: CatalogEntry; drawn: DrawnCall; name: string; call: SynthCall } | undefined {
  const value = a.call.arguments[part.name];
  const named = byParameterWords(usable).get(nameWords(part.name)) ?? [];
  let fallback: ReturnType<typeof partner>;
  for (let t = 0; t < PARTNER_TRIES; t++) {
    // half the tries among the tools with a parameter of the same name words, where there are others
    const from = named.length > 1 && t % 2 === 0 ? named : usable;
    const entry = from[rng.int(from.length)]!;
    if (entry.id === first.id) continue;
    const drawn = draw(entry);
    if (drawn === undefined) continue;
    const props = Object.keys((entry.parameters.properties ?? {}) as Record<string, unknown>);
    for (const name of rng.shuffle(props)) {
      const args = { ...drawn.call.arguments, [name]: value };
      if (validateArguments(args, entry.parameters).length > 0) continue;
      const found = { entry, drawn, name, call: { name: entry.id, arguments: args } };
      if (nameWords(name) === nameWords(part.name)) return found;
      fallback ??= found;
    }
  }
  return fallback;
}

/** The request for a tool, its values after the mention (requestSegments), without a closing stop. */
function request(
  entry: CatalogEntry,
  parts: readonly ArgumentText[],
  rng: SynthRng,
  following: boolean,
  inline: number,
): Segment[] {
  return withoutTrailingStop(requestSegments(toolPhrase(entry, rng), parts, rng, following, inline));
}

function sharedOrRefer(
  shape: "shared" | "refer",
  usable: readonly CatalogEntry[],
  first: CatalogEntry,
  a: DrawnCall,
  rng: SynthRng,
  draw: (entry: CatalogEntry) => DrawnCall | undefined,
  inline: number,
): { segments: Segment[]; calls: SynthCall[] } | undefined {
  const candidates = shown(a.parts).filter((p) => plainValue(a.call.arguments[p.name]));
  if (candidates.length === 0) return undefined;
  const part = rng.pick(candidates);
  const b = partner(usable, first, a, part, rng, draw);
  if (b === undefined) return undefined;
  // the second call's own value for that parameter is replaced, so its clause goes
  const restB = b.drawn.parts.filter((p) => p.name !== b.name);
  const value: Segment = { text: part.text, value: true };
  const words = nameWords(part.name);
  const calls = [a.call, b.call];
  if (shape === "refer") {
    // the value said in the first call's part; the second points back to it, after its mention or at its end
    const reference = `${rng.pick(REFERENCES)} ${rng.chance(0.5) ? words : nameWords(b.name)}`;
    const phrase = toolPhrase(b.entry, rng);
    const atMention = rng.chance(0.5);
    const second = withoutTrailingStop(
      requestSegments(
        atMention ? { ...phrase, text: `${phrase.text} ${reference}` } : phrase,
        restB,
        rng,
        true,
        inline,
      ),
    );
    return {
      segments: [
        ...request(first, a.parts, rng, false, inline),
        { text: rng.pick(REFERENCE_JOINERS) },
        ...second,
        ...(atMention ? [] : [{ text: ` ${reference}` }]),
      ],
      calls,
    };
  }
  const restA = a.parts.filter((p) => p !== part);
  const both = [
    ...request(first, restA, rng, false, inline),
    { text: rng.pick(JOINERS) },
    ...request(b.entry, restB, rng, true, inline),
  ];
  const named = rng.chance(0.6) ? `${words} ` : "";
  if (rng.chance(0.7))
    return { segments: [...both, { text: `${rng.pick(SHARED_ENDS)}${named}` }, value], calls };
  return {
    segments: [{ text: `${rng.pick(SHARED_OPENINGS)}${named}` }, value, { text: ", " }, ...both],
    calls,
  };
}

/** The first call's values (half the time both calls', when their parameters' names differ) set out first. */
function setOutBefore(
  usable: readonly CatalogEntry[],
  first: CatalogEntry,
  a: DrawnCall,
  rng: SynthRng,
  draw: (entry: CatalogEntry) => DrawnCall | undefined,
  inline: number,
): { segments: Segment[]; calls: SynthCall[] } | undefined {
  if (shown(a.parts).length === 0) return undefined;
  const second = usable[rng.int(usable.length)]!;
  if (second.id === first.id) return undefined;
  const b = draw(second);
  if (b === undefined) return undefined;
  const wordsOf = (d: DrawnCall) => new Set(shown(d.parts).map((p) => nameWords(p.name)));
  const namesA = wordsOf(a);
  // both calls' values first only when no parameter name of one is the other's: the names tell which is whose
  const bothFirst =
    shown(b.parts).length > 0 && [...wordsOf(b)].every((w) => !namesA.has(w)) && rng.chance(0.5);
  const setup: Segment[] = [
    { text: rng.pick(SETUP_OPENINGS) },
    ...argumentClauses(a.parts, rng, true, inline),
    ...(bothFirst
      ? [{ text: rng.pick([", and ", "; ", ". Also "]) }, ...argumentClauses(b.parts, rng, true, inline)]
      : []),
    { text: rng.pick(SETUP_CLOSES) },
  ];
  const requestA = withoutTrailingStop(requestSegments(toolPhrase(first, rng), [], rng, true));
  const requestB = bothFirst
    ? withoutTrailingStop(requestSegments(toolPhrase(second, rng), [], rng, true))
    : request(second, b.parts, rng, true, inline);
  return {
    segments: [...setup, ...requestA, { text: rng.pick(JOINERS) }, ...requestB],
    calls: [a.call, b.call],
  };
}

/** A two-call question of `shape` starting from tool `first` and its drawn call `a`; undefined when none fits. */
export function shapedCalls(
  shape: MultiShape,
  usable: readonly CatalogEntry[],
  first: CatalogEntry,
  a: DrawnCall,
  rng: SynthRng,
  draw: (entry: CatalogEntry) => DrawnCall | undefined,
  inline = 0,
): { segments: Segment[]; calls: SynthCall[] } | undefined {
  if (usable.length < 2) return undefined;
  if (shape === "before") return setOutBefore(usable, first, a, rng, draw, inline);
  return sharedOrRefer(shape, usable, first, a, rng, draw, inline);
}

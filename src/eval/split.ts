import type { LabelledQuery } from "../catalog/catalog.ts";
import { queryKey } from "./split-checks.ts";
import { ToolgenError } from "../errors.ts";

/**
 * mulberry32: a tiny, well-known 32-bit PRNG. Kept here, next to the split rule, because that rule
 * below must never change: experiments cite it by seed.
 */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Fisher–Yates with mulberry32(seed): for i from n−1 down to 1, j = floor(rand() × (i+1)), swap i and j. */
export function seededShuffle<T>(items: readonly T[], seed: number): T[] {
  const out = [...items];
  const rand = mulberry32(seed);
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(rand() * (i + 1));
    [out[i], out[j]] = [out[j], out[i]];
  }
  return out;
}

export interface Split<T> {
  train: T[];
  dev: T[];
}

/**
 * The project's train/dev split rule: shuffle the rows in file order with `seededShuffle(rows, seed)`, the first
 * round(n × trainFraction) rows (default 80 %) are train, the rest dev. Each part keeps the shuffled order.
 */
export function splitQueries<T = LabelledQuery>(
  rows: readonly T[],
  seed: number,
  trainFraction = 0.8,
): Split<T> {
  if (!Number.isInteger(seed))
    throw new ToolgenError("invalid_option", `seed must be an integer, got ${seed}`);
  if (!(trainFraction > 0 && trainFraction < 1))
    throw new ToolgenError("invalid_option", "trainFraction must be in (0, 1)");
  const shuffled = seededShuffle(rows, seed);
  const cut = Math.round(rows.length * trainFraction);
  return { train: shuffled.slice(0, cut), dev: shuffled.slice(cut) };
}

export interface ThreeWaySplit<T> {
  train: T[];
  dev: T[];
  test: T[];
}

export interface SplitFractions {
  /** Share of dev rows (default 0.1). */
  dev?: number;
  /** Share of test rows (default 0.1); train gets the rest. */
  test?: number;
}

/**
 * The project's three-way rule: shuffle with `seededShuffle(rows, seed)`; the first round(n × (1 − dev − test))
 * rows are train, the next round(n × dev) dev, the rest test. Train is therefore the same rows as
 * `splitQueries(rows, seed, 1 − dev − test).train`, and dev + test together are that split's dev part, in order.
 * All selection (configurations, epochs, fusion weights) is made on dev; figures are reported on test.
 */
export function splitThreeWay<T = LabelledQuery>(
  rows: readonly T[],
  seed: number,
  fractions: SplitFractions = {},
): ThreeWaySplit<T> {
  const dev = fractions.dev ?? 0.1;
  const test = fractions.test ?? 0.1;
  for (const [name, x] of [
    ["dev", dev],
    ["test", test],
  ] as const) {
    if (!(x > 0 && x < 1))
      throw new ToolgenError("invalid_option", `the ${name} fraction must be in (0, 1), got ${x}`);
  }
  if (!(dev + test < 1))
    throw new ToolgenError(
      "invalid_option",
      `dev + test fractions must leave rows for train, got ${dev + test}`,
    );
  const { train, dev: rest } = splitQueries(rows, seed, 1 - dev - test);
  const cut = Math.round(rows.length * dev);
  return { train, dev: rest.slice(0, cut), test: rest.slice(cut) };
}

/**
 * Makes parts disjoint by query text (`queryKey`): a row of a later part whose text an earlier part already
 * has is dropped (a dev row repeating a train query; a test row repeating a train or dev query). The first part
 * is never changed. Returns the kept parts and how many rows each later part lost.
 */
export function dropRepeats<T>(
  parts: readonly (readonly T[])[],
  text: (row: T) => string,
): { parts: T[][]; dropped: number[] } {
  const seen = new Set((parts[0] ?? []).map((r) => queryKey(text(r))));
  const kept: T[][] = [[...(parts[0] ?? [])]];
  const dropped: number[] = [];
  for (const part of parts.slice(1)) {
    const keep = part.filter((r) => !seen.has(queryKey(text(r))));
    dropped.push(part.length - keep.length);
    for (const r of keep) seen.add(queryKey(text(r)));
    kept.push(keep);
  }
  return { parts: kept, dropped };
}

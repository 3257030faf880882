import type { SynthRng } from "./rng.ts";
import { nameWords } from "./words.ts";

/**
 * Real string values a catalog itself gives (its parameters' examples, defaults, enum members and the
 * "e.g. …" of their descriptions), keyed by the words of the parameter's name. With a pool, a string parameter
 * that has no value of its own takes, with chance `share`, one given for another parameter that shares a name
 * word ("city" values for a "city_name"), or any pooled value when none shares one, instead of made-up words:
 * made-up values are rarer than any real word, and a model trained on them alone learns to copy rare words.
 * Optional (off in `toolgen synth`'s default output); built by `catalogValuePool` (catalog-values.ts) from the
 * catalogs' own schemas alone.
 */
export interface ValuePool {
  share: number;
  byWord: ReadonlyMap<string, readonly string[]>;
  all: readonly string[];
}

/** A pooled value for the parameter `name`, or undefined (by chance, or when the pool is empty). */
export function pooledValue(pool: ValuePool, name: string, rng: SynthRng): string | undefined {
  if (pool.all.length === 0 || pool.share <= 0 || !rng.chance(pool.share)) return undefined;
  const near = [...new Set(nameWords(name).split(" "))].flatMap((w) => pool.byWord.get(w) ?? []);
  return rng.pick(near.length > 0 ? near : pool.all);
}

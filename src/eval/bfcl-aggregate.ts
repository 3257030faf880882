/**
 * BFCL v4's summary figures, computed as the leaderboard's `generate_leaderboard_csv` does from per-category
 * accuracies:
 * - simple: unweighted mean of simple_python, simple_java, simple_javascript;
 * - non_live: unweighted mean of simple, multiple, parallel, parallel_multiple;
 * - live: item-weighted mean of live_simple, live_multiple, live_parallel, live_parallel_multiple;
 * - irrelevance: unweighted mean of irrelevance and live_irrelevance;
 * - relevance: live_relevance alone.
 * Relevance and irrelevance stay out of non_live and live. The leaderboard counts a category it did not run as 0
 * (shown "N/A"); here a figure is over the categories present and names the missing ones, and is null when none
 * is present, so that a partial data folder never reads as a score of 0.
 */

export interface CategoryScore {
  correct: number;
  total: number;
}

export interface BfclAggregate {
  /** Percent, two decimals; null when none of its categories was evaluated. */
  accuracy: number | null;
  /** Items behind the figure. */
  total: number;
  categories: string[];
  missing: string[];
}

export type BfclV4Summary = Record<
  "non_live" | "simple" | "live" | "irrelevance" | "relevance",
  BfclAggregate
>;

/** A part of a summary: a fraction in [0, 1] and its item count, or absent. */
interface Part {
  fraction: number;
  total: number;
  categories: string[];
  missing: string[];
}

/** BFCL v3 files named the Python simple category `simple` and the others `java` / `javascript`. */
const ALIASES: Record<string, string[]> = {
  simple_python: ["simple_python", "simple"],
  simple_java: ["simple_java", "java"],
  simple_javascript: ["simple_javascript", "javascript"],
};

function category(scores: Record<string, CategoryScore>, name: string): Part | undefined {
  const key = (ALIASES[name] ?? [name]).find((n) => Object.hasOwn(scores, n));
  if (key === undefined) return undefined;
  const { correct, total } = scores[key];
  return { fraction: total === 0 ? 0 : correct / total, total, categories: [key], missing: [] };
}

function combine(parts: (Part | undefined)[], names: string[], weighted: boolean): Part | undefined {
  const present = parts.filter((p): p is Part => p !== undefined);
  const missing = names.filter((_, i) => parts[i] === undefined);
  if (present.length === 0) return undefined;
  const total = present.reduce((n, p) => n + p.total, 0);
  const fraction = weighted
    ? total === 0
      ? 0
      : present.reduce((s, p) => s + p.fraction * p.total, 0) / total
    : present.reduce((s, p) => s + p.fraction, 0) / present.length;
  return {
    fraction,
    total,
    categories: present.flatMap((p) => p.categories),
    missing: [...missing, ...present.flatMap((p) => p.missing)],
  };
}

function figure(part: Part | undefined, names: string[]): BfclAggregate {
  if (part === undefined) return { accuracy: null, total: 0, categories: [], missing: names };
  return {
    accuracy: Math.round(part.fraction * 10000) / 100,
    total: part.total,
    categories: part.categories,
    missing: part.missing,
  };
}

const SIMPLE = ["simple_python", "simple_java", "simple_javascript"];
const LIVE = ["live_simple", "live_multiple", "live_parallel", "live_parallel_multiple"];
const IRRELEVANCE = ["irrelevance", "live_irrelevance"];

export function bfclV4Summary(scores: Record<string, CategoryScore>): BfclV4Summary {
  const of = (names: string[]): (Part | undefined)[] => names.map((n) => category(scores, n));
  const simple = combine(of(SIMPLE), SIMPLE, false);
  const nonLiveNames = ["simple", "multiple", "parallel", "parallel_multiple"];
  const nonLive = combine([simple, ...of(nonLiveNames.slice(1))], nonLiveNames, false);
  if (nonLive !== undefined)
    nonLive.missing = nonLive.missing.flatMap((n) => (n === "simple" ? SIMPLE : [n]));
  return {
    non_live: figure(nonLive, [...SIMPLE, ...nonLiveNames.slice(1)]),
    simple: figure(simple, SIMPLE),
    live: figure(combine(of(LIVE), LIVE, true), LIVE),
    irrelevance: figure(combine(of(IRRELEVANCE), IRRELEVANCE, false), IRRELEVANCE),
    relevance: figure(category(scores, "live_relevance"), ["live_relevance"]),
  };
}

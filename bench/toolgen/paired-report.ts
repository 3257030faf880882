import { mkdirSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import type { LabelledQuery } from "../../src/catalog/catalog.ts";
import { holm, pairedTop1, type PairedTop1 } from "../../src/eval/paired.ts";

/** Top-1 correctness of a ranking per query. */
export function top1Correct(queries: readonly LabelledQuery[], rankings: readonly string[][]): boolean[] {
  return queries.map((q, i) => q.relevant.includes(rankings[i]![0] ?? ""));
}

export interface Comparison extends PairedTop1 {
  a: string;
  b: string;
  /** Holm-adjusted p over every comparison of the family. */
  pHolm: number;
}

/**
 * McNemar's test for each (a, b) pair on the same test queries, Holm-corrected over the whole family: the
 * configurations compared are the family, so adding a comparison makes every other one harder to pass.
 */
export function pairedFamily(
  systems: ReadonlyMap<string, boolean[]>,
  pairs: ReadonlyArray<readonly [string, string]>,
): Comparison[] {
  const raw = pairs
    .filter(([a, b]) => systems.has(a) && systems.has(b))
    .map(([a, b]) => ({ a, b, ...pairedTop1(systems.get(a)!, systems.get(b)!) }));
  const adjusted = holm(raw.map((r) => r.p));
  return raw.map((r, i) => ({ ...r, pHolm: adjusted[i]! }));
}

/**
 * The per-query table behind the paired tests: one row per test query (its row number in the query file, not
 * its text — the data stays in ../shared/data), one 0/1 column per system (top-1 correct).
 */
export function writePerQueryCsv(
  file: string,
  queries: readonly LabelledQuery[],
  systems: ReadonlyMap<string, boolean[]>,
): void {
  const names = [...systems.keys()];
  const lines = [
    ["row", ...names].join(","),
    ...queries.map((q, i) =>
      [q.id ?? String(i), ...names.map((n) => (systems.get(n)![i] ? 1 : 0))].join(","),
    ),
  ];
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, lines.join("\n") + "\n");
}

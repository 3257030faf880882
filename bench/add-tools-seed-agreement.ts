import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import type { LabelledQuery } from "../src/catalog/catalog.ts";
import { addToolsData, DIR } from "./add-tools.ts";
import { writeBenchResult } from "./lib/result.ts";

/**
 * Whether two seeds of one addition that report the same calibrated figure are the same ranking (issue 41: both
 * seeds of spread replay 1.5 / retrieval 3 gave new-tool dev NDCG@1 71.38 at floor B and test 70.37, with other
 * weights). Per dev query, each seed's top-1 at its own picked offset, from the dev scores the calibration cached
 * (DIR/rebuild-NAME/dev-scores.json): how many queries both, one or neither get right; the chance that two rankings
 * which disagree on n queries, each disagreement a fair coin, give the same count (C(n, n/2) / 2^n); and, through
 * the retriever with the offsets given as the test phase gives them, whether its top-1 is the rescoring's (the
 * path the test figures took against the one the dev curve took). Dev only: no test query is scored.
 * `npx tsx bench/add-tools-seed-agreement.ts NAME` (NAME and NAME-seed-2 must have been added by
 * bench/add-tools-rebuild.ts); writes bench/results/add-tools-seed-agreement.json, keeping other names.
 */

type Ranked = ReadonlyArray<readonly [string, number]>;

/** The top-1 id after adding `offset` to the new tools' scores; equal scores keep the first (the model's order). */
export function topAt(hits: Ranked, isNew: ReadonlySet<string>, offset: number): string | undefined {
  let best: string | undefined;
  let bestScore = -Infinity;
  for (const [id, s] of hits) {
    const y = isNew.has(id) ? s + offset : s;
    if (y > bestScore) {
      bestScore = y;
      best = id;
    }
  }
  return best;
}

export interface Agreement {
  queries: number;
  hits_a: number;
  hits_b: number;
  both: number;
  only_a: number;
  only_b: number;
  /** The chance of equal hit counts if each of the only_a + only_b disagreements went either way at 1/2. */
  equal_count_chance: number;
}

/** C(n, n/2) / 2^n (0 for odd n), in logs so that large n does not overflow. */
export function equalCountChance(n: number): number {
  if (n % 2 === 1) return 0;
  let log = -n * Math.LN2;
  for (let i = 1; i <= n / 2; i++) log += Math.log(n / 2 + i) - Math.log(i);
  return Math.exp(log);
}

export function agreement(a: readonly boolean[], b: readonly boolean[]): Agreement {
  if (a.length !== b.length) throw new Error(`agreement: ${a.length} against ${b.length} queries`);
  const count = (f: (x: boolean, y: boolean) => boolean) => a.filter((x, i) => f(x, b[i]!)).length;
  const onlyA = count((x, y) => x && !y);
  const onlyB = count((x, y) => !x && y);
  return {
    queries: a.length,
    hits_a: count((x) => x),
    hits_b: count((_, y) => y),
    both: count((x, y) => x && y),
    only_a: onlyA,
    only_b: onlyB,
    equal_count_chance: Math.round(equalCountChance(onlyA + onlyB) * 1e4) / 1e4,
  };
}

/** Top-1 hit per query: the top-1 id is one of the query's relevant tools. */
export const hitsOf = (queries: readonly LabelledQuery[], tops: ReadonlyArray<string | undefined>) =>
  queries.map((q, i) => tops[i] !== undefined && q.relevant.includes(tops[i]!));

type Scores = Record<"old_dev" | "new_dev", Ranked[]>;

interface Check {
  calibration?: { chosen?: { B?: { offset: number } | null } };
  weights_sha256?: string;
}

async function main(name: string): Promise<void> {
  const d = addToolsData();
  if (!d) throw new Error("bench/add-tools-seed-agreement.ts: the MetaTool data is absent");
  const checks = (
    JSON.parse(readFileSync(new URL("./results/add-tools-rebuild.json", import.meta.url), "utf8")) as {
      checks: Record<string, Check>;
    }
  ).checks;
  const isNew = new Set(d.newIds);
  const parts = { old_dev: d.parts.old.dev, new_dev: d.parts.new.dev };
  const seeds = [name, `${name}-seed-2`].map((n) => {
    const dir = join(DIR, `rebuild-${n}`);
    const file = join(dir, "dev-scores.json");
    const offset = checks[`add ${n}`]?.calibration?.chosen?.B?.offset;
    if (!existsSync(file) || offset === undefined)
      throw new Error(
        `bench/add-tools-seed-agreement.ts: ${n} has no dev scores or no floor-B pick (add it first)`,
      );
    return {
      name: n,
      dir,
      offset,
      sha: checks[`add ${n}`]!.weights_sha256,
      scores: JSON.parse(readFileSync(file, "utf8")) as Scores,
    };
  });
  const { openToolGenRetriever } = await import("../src/retrieval/toolgen-open.ts");
  const { rankHits } = await import("./toolgen/metatool.ts");
  const out: Record<string, unknown> = {
    seeds: seeds.map((s) => ({ name: s.name, weights_sha256: s.sha, offset_b: s.offset })),
  };
  for (const at of ["offset 0", "picked offsets (floor B)"] as const) {
    const rows: Record<string, Agreement> = {};
    for (const part of ["old_dev", "new_dev"] as const) {
      const [a, b] = seeds.map((s) =>
        hitsOf(
          parts[part],
          s.scores[part].map((h) => topAt(h, isNew, at === "offset 0" ? 0 : s.offset)),
        ),
      );
      rows[part] = agreement(a!, b!);
    }
    out[at] = rows;
  }
  // The retriever with the offsets the test phase gives it, against the rescoring of the cached scores.
  const path: Record<string, { queries: number; same_top1: number }> = {};
  for (const s of seeds) {
    const offsets = Object.fromEntries(d.newIds.map((id) => [id, s.offset]));
    const retriever = openToolGenRetriever(s.dir, undefined, { offsets });
    for (const part of ["old_dev", "new_dev"] as const) {
      const hits = await rankHits(retriever, parts[part], 1);
      const same = hits.filter((h, i) => h[0]?.id === topAt(s.scores[part][i]!, isNew, s.offset)).length;
      path[`${s.name} ${part}`] = { queries: hits.length, same_top1: same };
    }
  }
  out.retriever_against_rescoring = path;
  process.stderr.write(JSON.stringify(out, null, 1) + "\n");
  const file = new URL("./results/add-tools-seed-agreement.json", import.meta.url);
  const prev = existsSync(file)
    ? ((JSON.parse(readFileSync(file, "utf8")) as { additions?: Record<string, unknown> }).additions ?? {})
    : {};
  writeBenchResult("add-tools-seed-agreement", `npx tsx bench/add-tools-seed-agreement.ts ${name}`, {
    about:
      "per dev query, two seeds of one addition at offset 0 and at their own floor-B offsets: top-1 hits both, " +
      "one or neither get; the chance of equal counts were each disagreement a fair coin; the retriever's top-1 " +
      "with the test phase's offsets against the calibration's rescoring of cached scores (dev only)",
    additions: { ...prev, [name]: out },
  });
}

// Run as a script only (the test imports the helpers).
if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const name = process.argv[2];
  if (!name) {
    process.stderr.write(
      "usage: tsx bench/add-tools-seed-agreement.ts NAME (seed 1; NAME-seed-2 is its twin)\n",
    );
    process.exit(1);
  }
  await main(name);
}

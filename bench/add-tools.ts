import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { CatalogEntry, LabelledQuery } from "../src/catalog/catalog.ts";
import { seededShuffle } from "../src/eval/split.ts";
import { writeFileAtomic } from "../src/io/atomic.ts";
import { trainToolGen } from "../src/train/pipeline.ts";
import { metaToolData } from "./toolgen/plans.ts";
import { WORK } from "./toolgen/common.ts";

/**
 * Adding tools to a trained ToolGen model (issue 41), on MetaTool: a fifth of the tools (seeded) is held out of
 * the first training; the bench's query split (train / dev / test by query, bench/toolgen/plans.ts) is kept.
 *   base  — the tiny preset trained on the other 80 % of the tools and their train queries;
 *   full  — the tiny preset trained from scratch on every tool and every train query (the retraining it saves);
 *   add   — `base` plus the held-out tools and their train queries, through addToolsToModel (src/train/add-tools.ts).
 * Phases: `npx tsx bench/add-tools.ts base|full|add|report` (the trainings are heavy: run them under the lock).
 * Each training phase records its wall and CPU seconds next to its model (timing.json).
 */
export const HOLDOUT = { seed: 41, fraction: 0.2 };
export const TRAIN_SEED = 1;
export const DIR = join(WORK, "add-tools");

/** The tool split and the query parts restricted to each side. */
export function addToolsData() {
  const data = metaToolData();
  if (!data) return undefined;
  const ids = data.catalog.map((e) => e.id);
  const shuffled = seededShuffle(ids, HOLDOUT.seed);
  const newIds = new Set(shuffled.slice(0, Math.round(ids.length * HOLDOUT.fraction)));
  const isNew = (e: CatalogEntry) => newIds.has(e.id);
  const only = (rows: readonly LabelledQuery[], wantNew: boolean) =>
    rows.filter((q) => q.relevant.every((id) => newIds.has(id) === wantNew));
  return {
    ...data,
    newIds: [...newIds].sort(),
    oldCatalog: data.catalog.filter((e) => !isNew(e)),
    newCatalog: data.catalog.filter(isNew),
    parts: {
      old: { train: only(data.train, false), dev: only(data.dev, false), test: only(data.test, false) },
      new: { train: only(data.train, true), dev: only(data.dev, true), test: only(data.test, true) },
    },
  };
}

export interface Timing {
  wall_s: number;
  cpu_s: number;
}

/** Runs `work`, measuring the process's wall and CPU seconds (user + system, worker threads included). */
export async function timed<T>(work: () => Promise<T>): Promise<{ result: T; timing: Timing }> {
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const result = await work();
  const cpu = process.cpuUsage(cpu0);
  return {
    result,
    timing: { wall_s: (performance.now() - t0) / 1000, cpu_s: (cpu.user + cpu.system) / 1e6 },
  };
}

export function readTiming(dir: string): Timing | undefined {
  const file = join(dir, "timing.json");
  return existsSync(file) ? (JSON.parse(readFileSync(file, "utf8")) as Timing) : undefined;
}

async function trainPhase(name: "base" | "full"): Promise<void> {
  const d = addToolsData();
  if (!d) throw new Error("bench/add-tools.ts: the MetaTool data is absent (set TOOLGEN_BENCH_DATA)");
  const out = join(DIR, name);
  const catalog = name === "base" ? d.oldCatalog : d.catalog;
  const queries = name === "base" ? d.parts.old.train : d.train;
  process.stderr.write(`${name}: ${catalog.length} tools, ${queries.length} train queries → ${out}\n`);
  // Only a run that starts from nothing is timed (a resumed or finished folder would time a part of it).
  const fresh = !existsSync(join(out, "toolgen.json"));
  const { timing } = await timed(() =>
    trainToolGen({ catalog, queries, out, preset: "tiny", seed: TRAIN_SEED, progress: false }),
  );
  if (fresh) writeFileAtomic(join(out, "timing.json"), JSON.stringify(timing) + "\n");
  process.stderr.write(`${name}: ${JSON.stringify(timing)}\n`);
}

const phase = process.argv[2];
if (phase === "base" || phase === "full") await trainPhase(phase);
else if (phase === "split") {
  const d = addToolsData()!;
  const count = (p: Record<string, unknown[]>) =>
    Object.fromEntries(Object.entries(p).map(([k, v]) => [k, v.length]));
  process.stdout.write(
    JSON.stringify({
      tools: d.catalog.length,
      new: d.newIds.length,
      old: count(d.parts.old),
      newq: count(d.parts.new),
      train: d.train.length,
    }) + "\n",
  );
} else {
  process.stderr.write("usage: tsx bench/add-tools.ts base|full|add|report|split\n");
  process.exit(1);
}

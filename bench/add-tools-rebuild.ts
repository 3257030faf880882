import { createHash } from "node:crypto";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import type { LabelledQuery } from "../src/catalog/catalog.ts";
import { writeFileAtomic } from "../src/io/atomic.ts";
import { readManifest } from "../src/toolgen/model-folder.ts";
import { availableParallelism } from "node:os";
import { addToolsData, CONFIGS, DIR, readTiming, timed, type Timing } from "./add-tools.ts";
import { figuresOf, type Figures } from "./toolgen/common.ts";
import { writeBenchResult } from "./lib/result.ts";

/**
 * Whether bench/add-tools.ts's models, rebuilt on another machine or with another thread count, are the models
 * its results were recorded with (issue 41: training that gives the same bytes twice). Dev splits only: the
 * recorded test figures are never scored again.
 *   base — the rebuilt base folder's fingerprint against the one every recorded addition names as its `from`,
 *          its old-tool dev NDCG@1 figures against the recorded ones, and the digest of its weights (recorded, so
 *          that the next rebuild compares bytes);
 *   add NAME — the addition NAME run again from the rebuilt base into DIR/rebuild-NAME: its dev figures against
 *          the recorded ones, its weights' digest, and its CPU seconds at this run's thread count.
 * `npx tsx bench/add-tools-rebuild.ts base` / `… add NAME` (heavy: under the core lock). Writes
 * bench/results/add-tools-rebuild.json, keeping earlier checks.
 */
const RESULT = new URL("./results/add-tools-rebuild.json", import.meta.url);
const RECORDED = new URL("./results/add-tools.json", import.meta.url);

interface Recorded {
  base: Record<string, Figures>;
  configs: Record<string, Record<string, unknown> & { added?: { from?: string }; timing?: Timing }>;
}

function weightsDigest(dir: string): string {
  return createHash("sha256")
    .update(readFileSync(join(dir, "model.safetensors")))
    .digest("hex");
}

async function devFigures(dir: string, parts: Record<string, readonly LabelledQuery[]>) {
  const { openToolGenRetriever } = await import("../src/retrieval/toolgen-open.ts");
  const { rankHits } = await import("./toolgen/metatool.ts");
  const retriever = openToolGenRetriever(dir, undefined);
  const out: Record<string, Figures> = {};
  for (const [name, queries] of Object.entries(parts)) {
    const hits = await rankHits(retriever, queries, 5);
    out[name] = figuresOf(
      queries,
      hits.map((h) => h.slice(0, 5).map((x) => x.id)),
    );
  }
  return out;
}

/** Each figure of `now` beside the recorded one, and whether every NDCG / recall / MRR figure is equal. */
function compare(now: Record<string, Figures>, recorded: Record<string, unknown>) {
  let same = true;
  const rows: Record<string, { now: number; recorded: number }> = {};
  for (const [part, f] of Object.entries(now))
    for (const [k, v] of Object.entries(f)) {
      const r = (recorded[part] as Record<string, number> | undefined)?.[k];
      if (typeof v !== "number" || r === undefined) continue;
      rows[`${part}.${k}`] = { now: v, recorded: r };
      if (v !== r) same = false;
    }
  return { same, figures: rows };
}

function threads(): number {
  const wanted = Number(process.env.TOOLGEN_KERNEL_THREADS);
  return Number.isInteger(wanted) && wanted >= 1 ? wanted : Math.min(8, availableParallelism());
}

function save(key: string, entry: Record<string, unknown>): void {
  const prev = existsSync(RESULT)
    ? (JSON.parse(readFileSync(RESULT, "utf8")) as { checks?: Record<string, unknown> })
    : {};
  writeBenchResult(
    "add-tools-rebuild",
    `npx tsx bench/add-tools-rebuild.ts ${process.argv.slice(2).join(" ")}`,
    {
      about:
        "bench/add-tools.ts's models rebuilt (another machine, another thread count) against what its results " +
        "recorded: fingerprints, dev figures, weight digests; test is never scored here",
      checks: { ...(prev.checks ?? {}), [key]: entry },
    },
  );
}

async function checkBase(recorded: Recorded): Promise<void> {
  const d = addToolsData()!;
  const dir = join(DIR, "base");
  const m = readManifest(dir);
  if (!m)
    throw new Error(`bench/add-tools-rebuild.ts: no finished base model in ${dir} (run add-tools.ts base)`);
  const froms = [...new Set(Object.values(recorded.configs).map((c) => c.added?.from))].filter(Boolean);
  const dev = await devFigures(dir, { old_dev: d.parts.old.dev });
  const figures = compare(dev, recorded.base);
  const entry = {
    date: new Date().toISOString(),
    threads: threads(),
    timing: readTiming(dir) ?? null,
    fingerprint: m.fingerprint,
    recorded_from: froms,
    same_fingerprint: froms.length === 1 && froms[0] === m.fingerprint,
    weights_sha256: weightsDigest(dir),
    same_dev_figures: figures.same,
    dev: figures.figures,
  };
  save("base", entry);
  process.stderr.write(
    `base: fingerprint ${m.fingerprint} (recorded ${froms.join(", ")}); dev figures ` +
      `${figures.same ? "equal" : "differ"}; weights ${entry.weights_sha256.slice(0, 16)}\n`,
  );
}

async function checkAdd(recorded: Recorded, name: string): Promise<void> {
  const d = addToolsData()!;
  const c = CONFIGS.find((x) => x.name === name);
  const rec = recorded.configs[name];
  if (!c || !rec)
    throw new Error(`bench/add-tools-rebuild.ts: no recorded configuration ${JSON.stringify(name)}`);
  const { addToolsToModel } = await import("../src/train/add-tools.ts");
  const out = join(DIR, `rebuild-${name}`);
  rmSync(out, { recursive: true, force: true });
  const { result: m, timing } = await timed(() =>
    addToolsToModel({
      from: join(DIR, "base"),
      out,
      tools: d.newCatalog,
      queries: d.parts.new.train,
      progress: false,
      ...c.options,
    }),
  );
  writeFileAtomic(join(out, "timing.json"), JSON.stringify(timing) + "\n");
  const dev = await devFigures(out, { old_dev: d.parts.old.dev, new_dev: d.parts.new.dev });
  const figures = compare(dev, rec);
  save(`add ${name}`, {
    date: new Date().toISOString(),
    threads: threads(),
    timing,
    recorded_timing: rec.timing ?? null,
    fingerprint: m.fingerprint,
    weights_sha256: weightsDigest(out),
    same_dev_figures: figures.same,
    dev: figures.figures,
  });
  process.stderr.write(
    `${name}: dev figures ${figures.same ? "equal" : "differ"}; CPU ${timing.cpu_s.toFixed(1)} s ` +
      `(recorded ${rec.timing?.cpu_s.toFixed(1)} s)\n`,
  );
}

const recorded = JSON.parse(readFileSync(RECORDED, "utf8")) as Recorded;
const [phase, name] = process.argv.slice(2);
if (phase === "base") await checkBase(recorded);
else if (phase === "add" && name) await checkAdd(recorded, name);
else {
  process.stderr.write("usage: tsx bench/add-tools-rebuild.ts base | add NAME\n");
  process.exit(1);
}

// ToolGen and the gated hybrid on MetaTool split by tool (issue 41's done-when: bench:retrieval reports them on
// the tool-disjoint splits too). A model folder trained by `toolgen train --preset tiny` on the TRAIN part of the
// split bench:retrieval uses (bench/lib/tool-disjoint.ts metaTool(), the same as `toolgen eval split --by tool
// --seed 41 --dev-fraction 0.15 --test-fraction 0.25`) is scored with BM25 and the shipped ranker, each built as
// the CLI builds it (createRetriever), on the split's dev and test queries (tools no training query named), with
// paired randomisation tests on NDCG@5 (Holm over the test family). Nothing is chosen here: the hybrid's gate is
// the one `toolgen train` wrote from its own held-out queries, so dev and test are scored in one run, once.
// Writes bench/results/toolgen-disjoint-metatool.json (a second run refuses to overwrite it: test is scored once).
//
//   npx tsx bench/toolgen-disjoint.ts --model DIR --train "the toolgen train command"
import { existsSync, readFileSync } from "node:fs";
import { loadavg } from "node:os";
import { join } from "node:path";
import type { LabelledQuery } from "../src/catalog/catalog.ts";
import { ndcgAtK } from "../src/eval/metrics.ts";
import { holm } from "../src/eval/paired.ts";
import { pairedRandomization } from "../src/eval/paired-randomization.ts";
import { createRetriever } from "../src/retrieval/create.ts";
import { readGate } from "../src/retrieval/hybrid-gate.ts";
import type { Retriever } from "../src/retrieval/retriever.ts";
import { meanOf, metaTool, SPLIT_SEED } from "./lib/tool-disjoint.ts";
import { writeBenchResult } from "./lib/result.ts";

// --smoke N: the first N queries of each part, written under another name (a check of this script, not a result).
const SMOKE = process.argv.includes("--smoke") ? Number(arg("smoke")) : undefined;
// --name: another result file for another model folder (e.g. the gate refit against the ranker).
const NAME = SMOKE
  ? "toolgen-disjoint-smoke"
  : process.argv.includes("--name")
    ? arg("name")
    : "toolgen-disjoint-metatool";
const KS = [1, 3, 5];

function arg(name: string): string {
  const i = process.argv.indexOf(`--${name}`);
  const value = i >= 0 ? process.argv[i + 1] : undefined;
  if (value === undefined) throw new Error(`--${name} is required`);
  return value;
}

const pct = (x: number): number => Math.round(x * 10000) / 100;

/** Per-query standard NDCG@k for KS (rows: k) and the median milliseconds per query. */
async function scoreAll(r: Retriever, queries: readonly LabelledQuery[]) {
  const rows: number[][] = [];
  const ms: number[] = [];
  for (const q of queries) {
    const t0 = performance.now();
    const ranked = (await r.search(q.query, { k: Math.max(...KS) })).map((h) => h.id);
    ms.push(performance.now() - t0);
    rows.push(KS.map((k) => ndcgAtK(ranked, q.relevant, k)));
  }
  ms.sort((a, b) => a - b);
  return { ndcg: KS.map((_, i) => rows.map((row) => row[i]!)), p50_ms: ms[Math.floor(ms.length / 2)]! };
}

const model = arg("model");
const out = join(import.meta.dirname, "results", `${NAME}.json`);
if (existsSync(out) && !SMOKE)
  throw new Error(`${out} exists: its test split was scored already (a test split is scored once per model)`);
const set = metaTool();
const manifest = JSON.parse(readFileSync(join(model, "toolgen.json"), "utf8")) as Record<string, unknown>;
const load = { before: loadavg()[0] };
// The hybrid's parts are ToolGen and the lexical part its gate names (toolgen-gate.json; older gates: BM25): the
// better of those two is what the hybrid must reach.
const lexical = readGate(model)?.lexical ?? "bm25";
const kinds = ["bm25", "ranker", "toolgen", "hybrid"] as const;
const retrievers = Object.fromEntries(
  await Promise.all(
    kinds.map(async (k) => [k, await createRetriever(k, { catalog: set.catalog, model })] as const),
  ),
) as Record<(typeof kinds)[number], Retriever>;
const PAIRS: Array<[string, string]> = [
  ["toolgen", "bm25"],
  ["hybrid", "bm25"],
  ["hybrid", "toolgen"],
  ["hybrid", "ranker"],
  ["ranker", "bm25"],
];
const parts: Record<string, unknown> = {};
for (const [part, queries] of [
  ["dev", set.dev.slice(0, SMOKE)],
  ["test", set.test.slice(0, SMOKE)],
] as const) {
  // One system after another, so that each one's latency is its own.
  const scores: Record<string, Awaited<ReturnType<typeof scoreAll>>> = {};
  for (const k of kinds) scores[k] = await scoreAll(retrievers[k], queries);
  const tests = PAIRS.map(([a, b]) => {
    const r = pairedRandomization(scores[a]!.ndcg[2]!, scores[b]!.ndcg[2]!, {
      seed: SPLIT_SEED,
      rounds: 20_000,
    });
    return {
      system: a,
      baseline: b,
      test: "randomisation, NDCG@5",
      difference_points: pct(r.difference),
      p: r.p,
    };
  });
  holm(tests.map((t) => t.p)).forEach((p, i) => Object.assign(tests[i]!, { p_holm: p }));
  const figure = (k: string, i: number) => pct(meanOf(scores[k]!.ndcg[i]!));
  parts[part] = {
    queries: queries.length,
    figures: Object.fromEntries(
      kinds.map((k) => [
        k,
        { ...Object.fromEntries(KS.map((kk, i) => [`ndcg@${kk}`, figure(k, i)])), p50_ms: scores[k]!.p50_ms },
      ]),
    ),
    hybrid_lexical_part: lexical,
    hybrid_minus_better_part: Object.fromEntries(
      KS.map((kk, i) => [
        `ndcg@${kk}`,
        Math.round((figure("hybrid", i) - Math.max(figure("toolgen", i), figure(lexical, i))) * 100) / 100,
      ]),
    ),
    paired_tests: tests,
  };
}
writeBenchResult(NAME, process.argv.slice(2).join(" "), {
  label: "metatool-tool-disjoint",
  load_1min: { before: load.before, after: loadavg()[0] },
  split: set.split,
  train_command: arg("train"),
  systems: {
    bm25: "createRetriever('bm25'): the CLI's BM25 with the library's defaults",
    ranker: "createRetriever('ranker'): the shipped ranker over BM25F (the default retriever)",
    toolgen: "createRetriever('toolgen', model): the tiny ToolGen model",
    hybrid:
      "createRetriever('hybrid', model): the folder's gate (toolgen-gate.json) over ToolGen and its lexical part (gate.lexical); " +
      "tools outside the gate file's `queried` list (when it has one) keep the lexical part's ranks",
  },
  model: {
    dir: model,
    fingerprint: manifest.fingerprint,
    stages: (manifest.done as Array<Record<string, unknown>>).map((r) => ({
      stage: r.stage,
      epochs: r.epochs,
      steps: r.steps,
      seconds: r.seconds,
    })),
    dev: manifest.dev,
    gate: manifest.gate,
  },
  ...parts,
});

import { mkdirSync } from "node:fs";
import { join } from "node:path";
import type { LabelledQuery } from "../../src/catalog/catalog.ts";
import { ndcgAtK } from "../../src/eval/metrics.ts";
import type { GenerativeRetriever } from "../../src/retrieval/generative.ts";
import { HYBRID_DEFAULTS, HybridRetriever } from "../../src/retrieval/hybrid.ts";
import {
  chooseGate,
  gateCalibration,
  gatedFuse,
  GATE_FILE,
  writeGate,
} from "../../src/retrieval/hybrid-gate.ts";
import type { RetrievalHit, Retriever } from "../../src/retrieval/retriever.ts";
import { openToolGenRetriever } from "../../src/retrieval/toolgen-open.ts";
import { DEFAULT_GRIDS, tuneBm25, tuneNaiveBayes, tuneRegression, type BaselineGrids } from "./baselines.ts";
import { figuresOf, modelDir, trainVariant, WORK, type Figures } from "./common.ts";
import { cachedTuning } from "./baseline-cache.ts";
import { cliPathFigures } from "./cli-path.ts";
import { averageLogProbs, ensembleName, ENSEMBLES } from "./ensemble.ts";
import { pairedFamily, top1Correct, writePerQueryCsv } from "./paired-report.ts";
import { METATOOL_SPLIT, metaToolData, planVariant, type Plan } from "./plans.ts";
import { modelSummary, readyManifest } from "./provenance.ts";

/**
 * MetaTool (ToolE), 199 tools, on the three-way split of plans.ts: every baseline and every ToolGen plan is
 * scored on dev, selection (baseline configurations, the ToolGen plan, the hybrid's gate) uses dev only, and test
 * figures are reported for everything tried, with the selected ones marked. Top-1 comparisons on test are paired
 * (McNemar) and Holm-corrected over the family; the per-query table goes to bench/results.
 */
export interface MetaToolRun {
  plans: Plan[];
  /** Train plans that are not trained yet (else they are listed under not_trained). */
  train: boolean;
  grids?: BaselineGrids;
  seed: number;
  /** Where the per-query CSV goes. */
  csv: string;
  /** The default preset's plan (the "default model" goal), when in `plans`. */
  defaultPlan?: string;
}

/** Rankings (up to `depth`) for many queries: batched for atomic ids, one beam search at a time otherwise. */
export async function rankHits(
  r: GenerativeRetriever,
  queries: readonly LabelledQuery[],
  depth: number,
): Promise<RetrievalHit[][]> {
  if (r.index.kind === "atomic")
    return r.searchMany(
      queries.map((q) => q.query),
      { k: depth },
    );
  const out: RetrievalHit[][] = [];
  for (const q of queries) out.push(await r.search(q.query, { k: Math.min(depth, 5) }));
  return out;
}

/** BM25 hits (depth 100) for every query. */
export async function searchAll(r: Retriever, queries: readonly LabelledQuery[]): Promise<RetrievalHit[][]> {
  const out: RetrievalHit[][] = [];
  for (const q of queries) out.push(await r.search(q.query, { k: 100 }));
  return out;
}

/** Where a plan's hybrid gate is written: its model folder, or WORK/GROUP/PLAN when the folder is someone else's. */
export function gateFolder(group: string, plan: string): string {
  const { out, external } = modelDir(group, plan);
  if (!external) return out;
  const dir = join(WORK, group, plan);
  mkdirSync(dir, { recursive: true });
  return dir;
}

const top5 = (hits: readonly RetrievalHit[][]) => hits.map((h) => h.slice(0, 5).map((x) => x.id));
const finite = (x: number) => (Number.isFinite(x) ? x : String(x));

export async function runMetaTool(c: MetaToolRun): Promise<Record<string, unknown>> {
  const data = metaToolData();
  if (!data) return { skipped: "metatool data absent" };
  const { catalog, train, dev, test } = data;
  const log = (line: string) => process.stderr.write(`metatool ${line}\n`);
  const grids = c.grids ?? DEFAULT_GRIDS;

  const bm25 = await tuneBm25(catalog, dev, test, grids.bm25);
  log(`bm25 selected ${JSON.stringify(bm25.selected)} dev ${bm25.dev["ndcg@1"]} test ${bm25.test["ndcg@1"]}`);
  const nb = tuneNaiveBayes(train, dev, test, grids.naiveBayes);
  log(`naive bayes selected ${JSON.stringify(nb.selected)} test ${nb.test["ndcg@1"]}`);
  // Deterministic and the slowest baseline: kept in WORK between runs with the same queries, grid, seed and code.
  const reg = cachedTuning(
    WORK,
    "metatool-softmax-regression",
    {
      parts: [train, dev, test],
      settings: { grid: grids.regression, seed: c.seed },
      sources: [
        "baselines.ts",
        "softmax-regression.ts",
        "../../src/retrieval/word-features.ts",
        "common.ts",
        "../../src/eval/retrieval.ts",
        "../../src/eval/metrics.ts",
      ],
    },
    () => tuneRegression(train, dev, test, grids.regression, c.seed, log),
  );
  log(`regression selected ${JSON.stringify(reg.selected)} test ${reg.test["ndcg@1"]}`);
  const systems = new Map<string, boolean[]>([
    ["bm25", top1Correct(test, bm25.testRankings)],
    ["naive_bayes", top1Correct(test, nb.testRankings)],
    ["regression", top1Correct(test, reg.testRankings)],
  ]);

  const toolgen: Record<string, Record<string, unknown>> = {};
  const notTrained: string[] = [];
  const hitsOf = new Map<string, { dev: RetrievalHit[][]; test: RetrievalHit[][] }>();
  const retrievers = new Map<string, GenerativeRetriever>();
  const retrieverOf = (name: string) => retrievers.get(name)!;
  for (const plan of c.plans) {
    const variant = planVariant(plan, plan.seed ?? c.seed);
    const { out, external } = modelDir("metatool", plan.name);
    if (!c.train && !readyManifest(out, plan.stages)) {
      notTrained.push(plan.name);
      continue;
    }
    const { manifest } = await trainVariant("metatool", variant, catalog, train);
    const retriever = openToolGenRetriever(out, undefined, { maxContentTokens: plan.maxContentTokens });
    // Every tool of the catalog is ranked (MetaTool has 199), so ensembles average complete distributions.
    const devHits = await rankHits(retriever, dev, Math.max(100, catalog.length));
    const testHits = await rankHits(retriever, test, Math.max(100, catalog.length));
    hitsOf.set(plan.name, { dev: devHits, test: testHits });
    retrievers.set(plan.name, retriever);
    const name = `toolgen_${plan.name}`;
    systems.set(name, top1Correct(test, top5(testHits)));
    const testFigures = figuresOf(test, top5(testHits));
    toolgen[plan.name] = {
      plan,
      model_dir: external ? out : out.replace(/^.*?\.cache\//, ".cache/"),
      dev: figuresOf(dev, top5(devHits)),
      test: testFigures,
      // The default model is also scored the way `toolgen eval retrieval --retriever toolgen` scores it.
      ...(plan.cliDefaults ? { cli_path_test: await cliPathFigures(catalog, test, out, testFigures) } : {}),
      // Raw decoder outputs on dev + test under the constraint, before any filtering: must be 0 invalid.
      constrained_raw_outputs: { ...retriever.rawOutputs },
      ...modelSummary("metatool", plan, manifest),
    };
    log(`${plan.name}: dev ${JSON.stringify(toolgen[plan.name]!.dev)}`);
  }

  // Seed ensembles of plans evaluated in this run (ensemble.ts): measured, never selected.
  const ensembles: Record<string, unknown> = {};
  for (const members of ENSEMBLES.filter((m) => m.every((p) => hitsOf.has(p)))) {
    const fuse = (part: "dev" | "test") =>
      hitsOf.get(members[0]!)![part].map((_, i) =>
        averageLogProbs(
          members.map((p) => hitsOf.get(p)![part][i]!),
          5,
        ).map((h) => h.id),
      );
    const [devRanked, testRanked] = [fuse("dev"), fuse("test")];
    systems.set(ensembleName(members), top1Correct(test, testRanked));
    ensembles[ensembleName(members)] = {
      members,
      dev: figuresOf(dev, devRanked),
      test: figuresOf(test, testRanked),
    };
  }

  // Selection on dev: the ToolGen plan with the best dev NDCG@1.
  const ranked = Object.entries(toolgen).sort(
    ([, a], [, b]) => (b.dev as Figures)["ndcg@1"]! - (a.dev as Figures)["ndcg@1"]!,
  );
  const selected = ranked[0]?.[0];
  let hybrid: Record<string, unknown> | undefined;
  if (selected) {
    const h = hitsOf.get(selected)!;
    const devBm25 = await searchAll(bm25.retriever, dev);
    const testBm25 = await searchAll(bm25.retriever, test);
    // The gate is chosen on dev NDCG@1 (MetaTool's headline metric).
    const choice = chooseGate(h.dev, devBm25, (ranked, i) => ndcgAtK(ranked, dev[i]!.relevant, 1));
    // The gate is saved beside the model, or, for a folder trained elsewhere (only read), in WORK.
    const gateDir = gateFolder("metatool", selected);
    writeGate(
      gateDir,
      choice.gate,
      `bench:toolgen, MetaTool dev NDCG@1, BM25 ${JSON.stringify(bm25.selected)}`,
    );
    const fusedTest = h.test.map((hits, i) => gatedFuse(hits, testBm25[i]!, choice.gate, 5).map((x) => x.id));
    const confidenceRrf = new HybridRetriever([retrieverOf(selected), bm25.retriever], HYBRID_DEFAULTS);
    const rrfTest = h.test.map((hits, i) => confidenceRrf.fuse([hits, testBm25[i]!], 5).map((x) => x.id));
    systems.set("hybrid_gated", top1Correct(test, fusedTest));
    hybrid = {
      of: selected,
      gate: { ...choice.gate, threshold: finite(choice.gate.threshold) },
      gate_file: join(gateDir, GATE_FILE).replace(/^.*?\.cache\//, ".cache/"),
      selection:
        "dev NDCG@1 over the grid (always ToolGen, always BM25, thresholds at dev quantiles × weights)",
      dev: choice.dev,
      gates_tried: choice.tried.length,
      // the best fused gate against the better part on dev (sign test); absent when a part won outright
      versus_better_part: choice.versusBetterPart && {
        ...choice.versusBetterPart,
        gate: { ...choice.versusBetterPart.gate, threshold: finite(choice.versusBetterPart.gate.threshold) },
      },
      calibration_dev: gateCalibration(h.dev, top1Correct(dev, top5(h.dev)), choice.gate.feature),
      test: figuresOf(test, fusedTest),
      confidence_rrf_default_test: { ...figuresOf(test, rrfTest), ...HYBRID_DEFAULTS },
    };
  }

  const pairs: Array<[string, string]> = [
    ...Object.keys(toolgen).map((p): [string, string] => [`toolgen_${p}`, "regression"]),
    ...Object.keys(ensembles).map((e): [string, string] => [e, "regression"]),
    ...(selected
      ? ([
          [`toolgen_${selected}`, "bm25"],
          [`toolgen_${selected}`, "naive_bayes"],
          ["hybrid_gated", `toolgen_${selected}`],
          ["hybrid_gated", "bm25"],
          ["hybrid_gated", "regression"],
        ] as Array<[string, string]>)
      : []),
  ];
  const paired = pairedFamily(systems, pairs);
  writePerQueryCsv(c.csv, test, systems);

  const regressionTest = reg.test["ndcg@1"]!;
  const defaultModel = c.defaultPlan ? toolgen[c.defaultPlan] : undefined;
  const defaultPair = paired.find((p) => p.a === `toolgen_${c.defaultPlan}` && p.b === "regression");
  return {
    split: {
      ...METATOOL_SPLIT,
      rule: "splitThreeWay(loadQueries(queries.csv), 1, {dev: 0.1, test: 0.1}) then dropRepeats",
      train: train.length,
      dev: dev.length,
      test: test.length,
      dropped_repeats: data.dropped,
      checks: data.checks,
    },
    catalog_size: catalog.length,
    baselines: {
      bm25: {
        selected: bm25.selected,
        dev: bm25.dev,
        test: bm25.test,
        tried: bm25.tried,
        seconds: bm25.seconds,
      },
      naive_bayes: {
        selected: nb.selected,
        dev: nb.dev,
        test: nb.test,
        tried: nb.tried,
        seconds: nb.seconds,
      },
      softmax_regression: {
        selected: reg.selected,
        dev: reg.dev,
        test: reg.test,
        tried: reg.tried,
        seconds: reg.seconds,
        cache: { ...reg.cache, file: reg.cache.file.replace(/^.*?\.cache\//, ".cache/") },
        optimizer: "Adam (lazy), batch 64, word uni+bigrams",
      },
    },
    toolgen,
    toolgen_ensembles: ensembles,
    toolgen_selected_on_dev: selected ?? null,
    not_trained: notTrained,
    hybrid: hybrid ?? null,
    paired_top1_test: paired,
    per_query_csv: c.csv.replace(/^.*bench\//, "bench/"),
    goals: {
      default_beats_tuned_regression_by_3_ndcg1: defaultModel
        ? {
            default: (defaultModel.test as Figures)["ndcg@1"],
            regression: regressionTest,
            // Positive: ahead of the regression; the goal is ≥ 3 with p (Holm) < 0.01.
            difference: Math.round(((defaultModel.test as Figures)["ndcg@1"]! - regressionTest) * 100) / 100,
            p_holm: defaultPair?.pHolm,
            met:
              (defaultModel.test as Figures)["ndcg@1"]! >= regressionTest + 3 &&
              (defaultPair?.pHolm ?? 1) < 0.01,
          }
        : { met: false, why: `the default preset's plan (${c.defaultPlan}) was not trained in this run` },
      hybrid_never_below_better_part_test:
        hybrid && selected
          ? (() => {
              const fused = (hybrid.test as Figures)["ndcg@1"]!;
              const better = Math.max((toolgen[selected]!.test as Figures)["ndcg@1"]!, bm25.test["ndcg@1"]!);
              return { hybrid: fused, better_part: better, met: fused >= better };
            })()
          : null,
    },
  };
}

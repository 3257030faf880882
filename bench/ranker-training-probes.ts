/**
 * Dev-only probes of how the ranker is trained (issue 41: its margin over BM25 on MetaTool split by tool), over the
 * shipped feature set, first stage, associations and word vectors: `npx tsx bench/ranker-training-probes.ts
 * OUT.json [probe,...] [override]` (single-threaded; progress on stderr; each probe's dev figures are appended to OUT.json as
 * they come, so a cut-off run keeps what it measured). The training groups (cross-fitted, with the synthetic
 * questions, as bench/train-ranker.ts builds them) and the dev queries' candidate features are computed once;
 * each probe then trains and scores from them, which gives the same dev NDCG@5 as RankerRetriever (the shipped
 * model is scored first as a check). A probe varies the loss, the weight of each train tool's queries, the epochs,
 * the L2 strength or the ensemble (seeds, or members trained on bootstrap samples of the train tools). No test
 * query is read.
 */
import { appendFileSync, writeFileSync } from "node:fs";
import {
  FEATURE_SETS,
  crossFit,
  metaTool,
  rankerGroups,
  stableToolBench,
  synthFoldQueries,
  withFoldVectors,
  type AssociationConfig,
  type DataSet,
  type RankerConfig,
  type VectorConfig,
} from "./lib/tool-disjoint.ts";
import { ndcgAtK } from "../src/eval/metrics.ts";
import { mulberry32 } from "../src/eval/split.ts";
import { Bm25fRetriever, FieldIndex } from "../src/retrieval/bm25f.ts";
import { rankerFeatures } from "../src/retrieval/ranker-features.ts";
import { asEnsemble, trainRanker, type RankerGroup } from "../src/retrieval/ranker-train.ts";
import {
  rankerInputs,
  rankerScore,
  shippedRanker,
  softIndexOf,
  withDenseCandidates,
  type RankerModel,
} from "../src/retrieval/ranker.ts";
import type { LabelledQuery } from "../src/catalog/catalog.ts";

const started = performance.now();
const log = (line: string): void => {
  process.stderr.write(`[${((performance.now() - started) / 1000).toFixed(0)} s] ${line}\n`);
};

const out = process.argv[2];
if (out === undefined) throw new Error("usage: ranker-training-probes.ts OUT.json [probe,...]");
const { model: shipped, associations, vectors } = shippedRanker();
const header = shipped.header as { config: RankerConfig; vectors: VectorConfig };
const base = header.config;
const assocOptions = (associations.header as { options: AssociationConfig }).options;
const sets = [metaTool(), stableToolBench()];
const plain = sets.map((s) => new FieldIndex(s.catalog));
const expanded = sets.map((s) => new FieldIndex(s.catalog, { associations }));
const fit = withFoldVectors(sets, plain, crossFit(sets, plain, assocOptions), header.vectors);

/** Per set: real train groups and synthetic ones, each tagged with its tool (as trainingGroups, unweighted). */
function rawGroups(set: DataSet, i: number): { real: RankerGroup[]; synth: RankerGroup[] } {
  const of = (queries: (k: number) => readonly LabelledQuery[]): RankerGroup[] =>
    [0, 1].flatMap((k) =>
      rankerGroups(
        fit.indexes[k][i],
        new Bm25fRetriever(fit.indexes[k][i], shipped.bm25f),
        queries(k),
        base.candidates,
        softIndexOf(fit.indexes[k][i], fit.vectors![k]),
        base.dense,
      ),
    );
  return { real: of((k) => fit.queries[k][i]), synth: of((k) => synthFoldQueries(set, fit.queries[k][i])) };
}
const raw = sets.map(rawGroups);
log(`training groups: ${raw.map((r) => `${r.real.length} + ${r.synth.length} synthetic`).join(", ")}`);

/**
 * The groups weighed: each set alike, its synthetic questions `synth` of its weight; within the real queries a
 * query weighs 1 / (its tool's queries)^alpha (alpha 0: each query alike, as shipped), times its tool's count in
 * `toolDraws` when given (a bootstrap sample of the tools).
 */
function weighted(alpha: number, synth: number, toolDraws?: Map<string, number>): RankerGroup[] {
  return raw.flatMap(({ real, synth: extra }) => {
    const count = new Map<string, number>();
    for (const g of real) count.set(g.tool!, (count.get(g.tool!) ?? 0) + 1);
    const draw = (g: RankerGroup): number => (toolDraws === undefined ? 1 : (toolDraws.get(g.tool!) ?? 0));
    const w = real.map((g) => draw(g) / count.get(g.tool!)! ** alpha);
    const total = w.reduce((a, c) => a + c, 0) || 1;
    const r = real.map((g, j) => ({ ...g, weight: w[j] / total }));
    if (!(synth > 0)) return r;
    const ws = extra.map(draw);
    const totalS = ws.reduce((a, c) => a + c, 0) || 1;
    return [...r, ...extra.map((g, j) => ({ ...g, weight: (synth * ws[j]) / totalS }))];
  });
}

/** Every dev query's candidates (as RankerRetriever builds them) with their feature rows. */
const dev = sets.map((set, i) => {
  const index = expanded[i];
  const first = new Bm25fRetriever(index, shipped.bm25f);
  const soft = softIndexOf(index, vectors);
  return set.dev.map((q) => {
    const terms = index.queryTerms(q.query);
    const hits = first.searchDocs(terms, Math.max(5, shipped.candidates));
    const head = withDenseCandidates(hits.slice(0, shipped.candidates), soft, terms, shipped.dense ?? 0);
    return {
      ids: head.map((h) => index.ids[h.doc]),
      tail: hits.slice(shipped.candidates).map((h) => index.ids[h.doc]),
      rows: rankerFeatures(index, terms, head, soft),
      relevant: q.relevant,
    };
  });
});
log("dev features ready");

const round2 = (x: number): number => Math.round(x * 10000) / 100;

/** Dev NDCG@5 per set, ranked as RankerRetriever.searchSync ranks. */
function devNdcg(model: RankerModel): number[] {
  return dev.map((queries) => {
    let sum = 0;
    for (const q of queries) {
      const inputs = rankerInputs(model, q.rows);
      const order = q.ids
        .map((id, rank) => ({ id, score: rankerScore(model, inputs[rank]), rank }))
        .sort((a, c) => c.score - a.score || a.rank - c.rank)
        .map((h) => h.id);
      const inHead = new Set(q.ids);
      const ranked = [...order, ...q.tail.filter((id) => !inHead.has(id))].slice(0, 5);
      sum += ndcgAtK(ranked, q.relevant, 5);
    }
    return round2(sum / Math.max(1, queries.length));
  });
}

interface Probe {
  hidden: number;
  l2: number;
  epochs: number;
  learningRate: number;
  loss: "listnet" | "ranknet" | "lambdarank";
  alpha: number;
  synth: number;
  seeds: number;
  /** Members trained on bootstrap samples of the train tools (one per seed) instead of all of them. */
  bagTools?: boolean;
}
const BASE: Probe = {
  hidden: base.hidden,
  l2: base.l2,
  epochs: base.epochs,
  learningRate: base.learningRate,
  loss: "listnet",
  alpha: 0,
  synth: base.synth ?? 0,
  seeds: base.seeds ?? 1,
};

const PROBES: Record<string, Partial<Probe>> = {
  shipped_retrained: {},
  seed1: { seeds: 1 },
  alpha_0_5: { alpha: 0.5 },
  alpha_1: { alpha: 1 },
  ranknet: { loss: "ranknet" },
  lambdarank: { loss: "lambdarank" },
  epochs_40: { epochs: 40 },
  epochs_10: { epochs: 10 },
  l2_0_03: { l2: 0.03 },
  l2_0_003: { l2: 0.003 },
  bag_tools: { bagTools: true },
  synth_1: { synth: 1 },
  synth_0_25: { synth: 0.25 },
  alpha_0_5_lambdarank: { alpha: 0.5, loss: "lambdarank" },
  hidden_32: { hidden: 32 },
  lr_0_003: { learningRate: 0.003 },
};

/** Bootstrap draws of each set's train tools (seeded): tool -> times drawn. */
function toolBootstrap(seed: number): Map<string, number> {
  const rand = mulberry32(seed);
  const draws = new Map<string, number>();
  for (const { real } of raw) {
    const tools = [...new Set(real.map((g) => g.tool!))].sort();
    for (let i = 0; i < tools.length; i++) {
      const t = tools[Math.floor(rand() * tools.length)];
      draws.set(t, (draws.get(t) ?? 0) + 1);
    }
  }
  return draws;
}

const memo = new Map<string, RankerModel>();
/** Member i of a probe's ensemble: seed 41 + i (and bootstrap sample i of the tools when bagging). */
function member(p: Probe, i: number): RankerModel {
  const key = JSON.stringify({ ...p, seeds: 0, i });
  let m = memo.get(key);
  if (m === undefined) {
    const groups = weighted(p.alpha, p.synth, p.bagTools ? toolBootstrap(1000 + i) : undefined);
    m = trainRanker(
      groups.filter((g) => g.weight > 0),
      {
        hidden: p.hidden,
        epochs: p.epochs,
        learningRate: p.learningRate,
        l2: p.l2,
        batch: 32,
        rand: mulberry32(41 + i),
        candidates: base.candidates,
        dense: base.dense,
        bm25f: shipped.bm25f,
        header: {},
        features: FEATURE_SETS[base.features ?? "base"],
        loss: p.loss,
      },
    );
    memo.set(key, m);
  }
  return m;
}

/**
 * Dev NDCG@5 per set of the mean score of a probe's members (bagged members standardise their inputs over
 * different samples, so they are averaged as separate models; the others as one ensemble model, as shipped).
 */
function score(p: Probe): number[] {
  const members = Array.from({ length: p.seeds }, (_, i) => member(p, i));
  if (!p.bagTools) return devNdcg(asEnsemble(members));
  return dev.map((queries) => {
    let sum = 0;
    for (const q of queries) {
      const scores = q.ids.map(() => 0);
      for (const m of members) {
        const inputs = rankerInputs(m, q.rows);
        q.ids.forEach((_, r) => (scores[r] += rankerScore(m, inputs[r])));
      }
      const order = q.ids
        .map((id, rank) => ({ id, score: scores[rank], rank }))
        .sort((a, c) => c.score - a.score || a.rank - c.rank)
        .map((h) => h.id);
      const inHead = new Set(q.ids);
      sum += ndcgAtK([...order, ...q.tail.filter((id) => !inHead.has(id))].slice(0, 5), q.relevant, 5);
    }
    return round2(sum / Math.max(1, queries.length));
  });
}

writeFileSync(out, "");
const record = (entry: Record<string, unknown>): void => {
  appendFileSync(out, JSON.stringify(entry) + "\n");
  log(JSON.stringify(entry));
};
const check = devNdcg(shipped);
record({ probe: "shipped_file", dev_ndcg5: check, dev_mean: round2((check[0] + check[1]) / 200) });
const names = (process.argv[3] ?? Object.keys(PROBES).join(",")).split(",");
for (const name of names) {
  // An optional JSON object after the probe names overrides every probe (e.g. '{"seeds":1}' to screen cheaply).
  const p: Probe = { ...BASE, ...(PROBES[name] ?? JSON.parse(name)), ...JSON.parse(process.argv[4] ?? "{}") };
  const t0 = performance.now();
  const d = score(p);
  record({
    probe: PROBES[name] ? name : "custom",
    config: p,
    dev_ndcg5: d,
    dev_mean: round2((d[0] + d[1]) / 200),
    seconds: Math.round((performance.now() - t0) / 1000),
  });
}

import { loadCatalog, loadQueries } from "../../src/catalog/load.ts";
import { Bm25Retriever } from "../../src/retrieval/bm25.ts";
import { HYBRID_DEFAULTS, HybridRetriever } from "../../src/retrieval/hybrid.ts";
import type { RetrievalHit } from "../../src/retrieval/retriever.ts";
import {
  evaluateRetriever,
  figuresOf,
  latency,
  openRetriever,
  trainVariant,
  type Variant,
} from "./common.ts";
import { BENCH_MODEL } from "./metatool.ts";

/**
 * StableToolBench generalisation (paper App. F/J): memorise all 2,479 APIs, retrieval-train on the G1 query
 * files, evaluate on G2 (multi-tool queries whose tools the model saw only as documents, never with a query).
 * ToolGen, BM25 and their reciprocal-rank fusion side by side.
 */
export interface StableToolBenchConfig {
  dir: string;
  /** The trained folder's name under WORK/stabletoolbench. */
  name: string;
  memorizationEpochs: number;
  retrievalEpochs: number;
  retrievalLr: number;
  /** Token dropout per stage (the tool document in memorization, the query in retrieval). */
  tokenDropout?: { memorization: number; retrieval: number };
  seed: number;
}

export async function runStableToolBench(c: StableToolBenchConfig): Promise<Record<string, unknown>> {
  const catalog = loadCatalog(`${c.dir}/apis.json`);
  const train = ["G1_instruction", "G1_category", "G1_tool"].flatMap((f) =>
    loadQueries(`${c.dir}/${f}.json`, catalog),
  );
  const test = ["G2_instruction", "G2_category"].flatMap((f) => loadQueries(`${c.dir}/${f}.json`, catalog));
  const trainIds = new Set(train.flatMap((q) => q.relevant));
  const unseen = test.filter((q) => q.relevant.every((id) => !trainIds.has(id))).length;
  const variant: Variant = {
    name: c.name,
    options: {
      preset: "tiny",
      index: "atomic",
      stages: ["memorization", "retrieval"],
      seed: c.seed,
      progress: false,
      config: BENCH_MODEL,
      schedule: {
        maxContentTokens: 96,
        stages: {
          memorization: {
            epochs: c.memorizationEpochs,
            lr: 2e-3,
            tokenDropout: c.tokenDropout?.memorization ?? 0,
          },
          retrieval: {
            epochs: c.retrievalEpochs,
            lr: c.retrievalLr,
            tokenDropout: c.tokenDropout?.retrieval ?? 0, // the tiny preset's own default is 0.3
          },
        },
      },
    },
  };
  const { out, manifest, wallSeconds } = await trainVariant("stabletoolbench", variant, catalog, train);
  const toolgen = openRetriever(out);
  const bm25 = new Bm25Retriever(catalog);
  const toolgenHits = await toolgen.searchMany(
    test.map((q) => q.query),
    { k: 100 },
  );
  const toolgenRankings = toolgenHits.map((h) => h.map((x) => x.id));
  const bm25Hits: RetrievalHit[][] = [];
  for (const q of test) bm25Hits.push(await bm25.search(q.query, { k: 100 }));
  const bm25Rankings = bm25Hits.map((h) => h.map((x) => x.id));
  const fuse = (h: HybridRetriever) =>
    test.map((_, i) => h.fuse([toolgenHits[i]!, bm25Hits[i]!], 5).map((x) => x.id));
  const plain = fuse(new HybridRetriever([toolgen, bm25]));
  const fused = fuse(new HybridRetriever([toolgen, bm25], HYBRID_DEFAULTS));
  const top5 = (r: string[][]) => r.map((x) => x.slice(0, 5));
  const g1 = await evaluateRetriever(toolgen, train.slice(0, 300));
  return {
    variant: c.name,
    catalog_size: catalog.length,
    train_files: ["G1_instruction", "G1_category", "G1_tool"],
    test_files: ["G2_instruction", "G2_category"],
    train_queries: train.length,
    test_queries: test.length,
    test_queries_with_no_relevant_tool_seen_in_training: unseen,
    toolgen: { ...figuresOf(test, top5(toolgenRankings)), ...(await latency(toolgen, test, 100)) },
    bm25: figuresOf(test, top5(bm25Rankings)),
    hybrid_rrf: { ...figuresOf(test, plain), k0: 60, depth: 100 },
    hybrid_confidence_rrf: { ...figuresOf(test, fused), ...HYBRID_DEFAULTS, k0: 60, depth: 100 },
    toolgen_on_first_300_training_queries: g1,
    training: manifest.done,
    train_wall_seconds_this_run: Math.round(wallSeconds),
  };
}

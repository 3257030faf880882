import { join } from "node:path";
import { loadCatalog, loadQueries } from "../src/catalog/load.ts";
import { splitQueries } from "../src/eval/split.ts";
import { writeBenchResult } from "./lib/result.ts";
import { WORK } from "./toolgen/common.ts";
import { runHallucination } from "./toolgen/hallucination.ts";
import {
  BENCH_MODEL,
  BEAM_EVAL_QUERIES,
  METATOOL_PLANS,
  METATOOL_SPLIT,
  runMetaTool,
} from "./toolgen/metatool.ts";
import { runStableToolBench } from "./toolgen/stabletoolbench.ts";
import { sharedData } from "../test/helpers/shared-data.ts";

/**
 * ToolGen at small scale (issue 11): MetaTool retrieval (BM25, Naive Bayes, softmax regression, ToolGen per index
 * kind and ablations), StableToolBench generalisation, hallucination with and without the constraint, training
 * time / peak memory per stage and retrieval latency. Trained models are cached under WORK, so a rerun only
 * evaluates. `TOOLGEN_BENCH_PARTS=metatool,stabletoolbench,hallucination` picks parts.
 */
const parts = (process.env.TOOLGEN_BENCH_PARTS ?? "metatool,stabletoolbench,hallucination").split(",");
const tools = sharedData("metatool/tools.json");
const queries = sharedData("metatool/queries.csv");
const stb = sharedData("stabletoolbench/apis.json");
const figures: Record<string, unknown> = {
  notes: {
    model: {
      preset: "tiny",
      overrides: BENCH_MODEL,
      why: "the tiny preset cut to d64×2 layers to fit a 2-core machine; plans with a config override say their size",
    },
    metatool_split: METATOOL_SPLIT,
    multi_token_eval: `semantic/numeric/hierarchical are scored on the first ${BEAM_EVAL_QUERIES} dev queries (beam 5, trie-constrained)`,
    plans: METATOOL_PLANS,
    metrics:
      "NDCG/recall in percent over the top 5; ndcg_toolgen = ToolGen's eval (ideal over retrieved relevant only)",
  },
};
const seed = 1;
if (parts.includes("metatool") && tools && queries) {
  figures.metatool = await runMetaTool({
    tools,
    queries,
    memorizationEpochs: 8,
    variants: [...METATOOL_PLANS.map((p) => p.name), "regression"],
    seed,
  });
}
if (parts.includes("stabletoolbench") && stb) {
  // The first schedule (4 + 3 epochs) and the longer one with token dropout over documents and queries.
  const runs = [
    { name: "atomic", memorizationEpochs: 4, retrievalEpochs: 3, retrievalLr: 2e-3 },
    {
      name: "atomic-dropout",
      memorizationEpochs: 24,
      retrievalEpochs: 16,
      retrievalLr: 4e-3,
      tokenDropout: { memorization: 0.2, retrieval: 0.25 },
    },
  ];
  const results: Record<string, unknown> = {};
  for (const run of runs)
    results[run.name] = await runStableToolBench({ dir: join(stb, ".."), ...run, seed });
  figures.stabletoolbench = results;
}
if (parts.includes("hallucination") && tools && queries) {
  const catalog = loadCatalog(tools);
  const { dev } = splitQueries(
    loadQueries(queries, catalog),
    METATOOL_SPLIT.seed,
    METATOOL_SPLIT.trainFraction,
  );
  const names = [
    "atomic",
    "atomic-long",
    "atomic-16ep-dropout-0.25",
    "atomic-d128-16ep-dropout-0.3",
    "atomic-tiny-16ep-dropout-0.3",
    "semantic-1ep",
    "numeric-1ep",
    "hierarchical-1ep",
  ];
  figures.hallucination = await runHallucination(
    names.map((name) => ({ name, out: join(WORK, "metatool", name) })),
    dev,
    1000,
  );
}
writeBenchResult("toolgen", "npm run bench:toolgen", figures);
